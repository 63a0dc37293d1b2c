"""The games: one package per game. ``cardcore.registry`` finds them; nothing lists them.

Adding a game
=============
The checklist is docs/adding-a-game.md: every piece a game must provide, each with the check or
test that enforces it. The registry checks the game contract (``cardcore.contract``) when it
registers a game and names any missing piece with its section of that page. What follows is the
detail of each piece.

A game is its package ``src/cardcore/games/<game>/``, its rulebook ``games/<game>.md`` and its
tests ``tests/games/<game>/``. Nothing else changes: the registry finds the package, and the
schemas, the bots, the CLI, the server and its web table, the docs and the generic test
suites ask the game for what they need. (For readers, add the game to the README's table.)

The package (``cardcore.games.<game>``):

``_state.pyx`` + ``_state.pyi`` — the rules as ``noexcept nogil`` C over the core framework
(``cardcore/_fast.pxd``), one file a reader can follow like the rulebook:
  * the rule constants at the top, each citing its rule ID; the action table (ids exported to
    Python as named constants, pinned by a test); ``ctypedef struct <Game>State`` whose FIRST
    member is ``Header h``, then the options as a struct and the zones (``Multiset`` hands,
    ``Pile`` piles); a check at import that the deck fits ``PILE_CAPACITY``/``MS_MAX_COPIES``;
  * a ``GameHooks`` table made by one call, ``game_hooks(name=..., start=..., ...)`` with
    every part named (checked at import: a missing hook is an ImportError), ``greedy``
    (GreedyBot's move in C, which the contract requires) among them: ``start`` (first player, then the deal with ``deal_prologue`` and the deal
    plan), ``legal`` (one legality function per phase; ids ascending; -1 if the capacity is
    short; ``out`` past the count is scratch), ``apply`` (the id is legal),
    ``observation_size``/``observe`` (what one seat may know, as floats), ``returns`` (higher
    is better), ``scores`` (what the view shows), ``sample_hidden`` (redeal what a seat cannot
    see), ``zones``/``num_zones``/``zone_cards`` (the zone table: each zone's scope and who sees
    it, the one definition of what a seat may know) and ``known_cards`` (optional: cards of a
    hidden zone every seat knows), ``breakdown`` (the scoring rows the round's scoring itself
    wrote; ``copy_breakdown`` is the whole hook when the state keeps them), ``refuse`` and
    ``num_refusals`` (why an id is not legal now: a ``Refusal`` of a reason, the index of its
    template in ``words.REFUSALS``, the rule ID and the template's fields as ints, in the
    English template's order: ``cardcore.refusals`` says how each field is shown), and
    optionally ``rollout`` (a search's rollout policy). Set ``h.to_move = -1`` when the match ends, and let
    the match's last action change ``h.round_index`` (the narrator sees round ends by it). No
    module-level mutable buffers;
  * ``deal_plan(...)``: the zone of each deck position (top first), from the function the deal
    uses;
  * ``cdef class <Game>State(GameState)``: ``__cinit__`` binds the struct
    (``self.bind(&HOOKS, &self.d, &self.d.h)``), ``__init__`` reads the resolved options and
    calls ``init_header``; Python getters for the view (``hand(seat)`` and ``hand_sizes()``
    among them); ``all_cards()``, ``refusals = Refusals(words.REFUSALS)`` (the base class's
    ``explain_rule(action) -> (message, rule_id)`` fills them from the ``refuse`` hook),
    ``match_end_rule``, ``breakdown_what`` and ``breakdown_rules`` (the words and rule IDs the
    breakdown rows index);
    ``check_state_class`` at import. Start, checked apply, clone, seats, winners, the random
    playout, the tensor, sample_hidden, zones and rows are the base class's.
  Pure card logic with no game state goes in ``_<kernel>.pyx`` beside it (with ``.pxd`` and
  ``.pyi``), test-only position setters in ``_testing.pyx``.

``__init__.py`` — the one ``Game`` subclass, thin: the declarations shared code reads
(``name`` = the package's name, ``title``, ``rule_prefix``, ``round_name``,
``search_horizon``, ``default_players``/``min_players``/``max_players``, ``short_match``,
``levels`` (calibrated: ``levels.md`` beside it), ``options_spec``,
``phases``, ``rulebook``, ``score_direction``, ``narrator``, ``greedy``, ``schema_parts``,
``phrases``, ``zone_labels`` (an N_-marked noun per kernel zone name), ``conformance_configs``
covering every value of every option) and the methods
``deck_for``, ``action_specs`` (the decode table), ``_make_state``, ``_view_extra``, ``_round_summary``, ``deal_plan_of``, ``observation_pieces_of``,
``utility_range_of``, ``max_game_length_of``; where needed ``sides_of`` (partners),
``_action_detail`` (cards that depend on the position), ``_parse_alias``, ``table_lines``,
``shown_deal_entries``/``deal_entry_zones``, ``format1_options``, ``deck_zone`` (where the
cards are before a deal, if not ``"stock"``), ``split_zones`` with ``_zone_parts`` (a kernel
zone holding several piles made in play, such as a team's melds: one zone per pile).

``events.py`` — the narrator (``cardcore.events.Narrator``): ``kinds`` (every automatic event
kind, with what it is), ``deal``, ``action``, ``round_end``; cards move between zones
(``moved``, ``action_event(..., state, source, target)``), so who sees them follows from the
zone table, and the round end's breakdown is ``breakdown_of(state)``, the kernel's rows. The
events' ``moves`` are shared code's (cardcore.zones): an automatic event that names the zone its
cards go to (``moved``, or ``public(..., into=zone)``) carries their moves.

``greedy.py`` — GreedyBot's heuristic as documented, ``choose(game, rng) -> a legal id``
(``cardcore.game.best_by`` picks the best-valued id, ties broken with ``rng``); the kernel's
``greedy`` hook plays exactly the same moves in C (required: bots and VectorGame use it).
``schema.py`` — the game's ``SchemaParts``; ``schemas/*.json`` are generated from it by
``python -m cardcore.schemas``.
``words.py`` — ``PHRASES``: the terminal's words for the game's own event kinds; optionally
``NOTATION``, ``REFUSALS``, ``move_note`` and ``explain_notation`` (docs/adding-a-game.md,
"Words"). ``locale/<lang>/LC_MESSAGES/messages.po`` and ``howto.<lang>.md`` for every
language of ``cardcore.i18n.LANGUAGES``.
``web/board.js`` (``board(view, ctx)``, ``seat(view, seat, ctx)``) and ``web/words.js``
(``MOVE_WORDS``, optionally ``moveLabel``): the web table's board and its move buttons' words,
served at ``/games/<game>/``. What happened is each event's ``text`` and which hand cards a
move uses is its ``moves``: the server's, no per-game web code.

The rulebook ``games/<game>.md``: rule IDs ``<PREFIX>-n.m``, its Options, Decisions, what a
seat sees and the Observation layout (``cardcore rules <game>`` prints it).

The tests ``tests/games/<game>/`` (file names unique in the tests tree): a test named after
every rule ID (``tests/test_rulebooks.py`` checks), stacked-deck scenarios, and the golden
playthroughs, written by ``python tests/playthroughs.py <game>``. The generic suites
(conformance, observation, protocol, events, schemas, layout, bots, vector) run on it by
themselves.
"""
