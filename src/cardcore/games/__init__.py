"""The games. Importing this package registers every game with cardcore.game.

Adding a game
=============
A fourth game needs these files and nothing else:

``src/cardcore/games/_<game>.pyx`` (+ ``.pyi`` stubs) — the rules, over the core framework
(``cardcore/_fast.pxd``):
  * ``ctypedef struct <Game>State`` whose FIRST member is ``Header h`` (players, phase,
    to-move, round counter, dealer, generator, stacked deck), then the game's options as a
    typed struct and its zones (``Multiset`` hands, ``Pile`` piles). The rule constants sit
    at the top of the file, each citing its rule ID; check at import that the deck fits the
    core's ``PILE_CAPACITY`` / ``MS_MAX_COPIES``.
  * The rules as ``noexcept nogil`` functions over a pointer to that struct, wired into a
    ``GameHooks`` table checked at import by ``check_hooks`` (a missing hook is an ImportError):
    ``start`` (first player, then deal with ``deal_prologue`` and the game's deal plan),
    ``legal`` (ONE legality function per phase; ids ascending; ``-1`` if the capacity is
    short; ``out`` past the count is scratch), ``apply`` (the id is legal),
    ``observation_size`` / ``observe`` (the per-seat projection: only what that seat may
    know), ``returns`` (higher is better), ``scores`` (what the view shows), and
    ``sample_hidden`` (redeal what a seat cannot see). Set ``h.to_move = -1`` when the match
    ends: that is "over". No module-level mutable buffers.
  * ``deal_plan(...)``: the zone of each deck position, from the same function the deal uses.
  * ``cdef class <Game>State(GameState)``: ``__cinit__`` binds the struct
    (``self.bind(&HOOKS, &self.d, &self.d.h)``), ``__init__`` reads the resolved options and
    calls ``init_header``; Python getters for the view; ``all_cards()`` and
    ``explain_rule(action) -> (message, rule_id)``; ``match_end_rule``. ``check_state_class``
    at import. Start, checked apply, clone, seats, winners, the random playout, the tensor
    and sample_hidden entry points are the base's.

``src/cardcore/games/<game>.py`` — the thin protocol wrapper, ``@register class <Game>(Game)``:
  ``name``, ``default_players``, ``min_players``, ``max_players``, ``options_spec`` (the one
  source of option defaults), ``phases``, ``deck_for``, ``action_specs`` (the fixed action
  space, decoded; pinned by tests), ``_make_state``, ``_hand``, ``_view_extra``,
  ``_round_summary``, ``deal_plan_of``, ``_zone_visible`` (for public deal zones),
  ``observation_pieces_of``, ``utility_range_of``, ``max_game_length_of``,
  ``conformance_configs`` (every value of every option appears in one); ``format1_options``
  when an option added since cardcore 0.1 has a default other than the 0.1 behaviour (saves
  of format 1 load with it); and an import line below.

``src/cardcore/games/<game>_events.py`` — the narrator (cardcore.events): compares the shadow
state before and after each action and names what changed as events, with who may see which
cards, and the scoring breakdown at the end of a round. The wrapper sets ``narrator`` to it.

``games/<game>.md`` — the rulebook, rule IDs ``XX-n.m``, with its Options, Decisions, view and
Observation sections (``cardcore rules <game>`` prints it).

``tests/test_<game>_*.py`` — a test named after every rule ID (``tests/test_rulebooks.py``
checks), an independent encoder of the view for the tensor and a uniformity test of
``sample_hidden``; the conformance, observation and protocol suites run on it by themselves.
``src/cardcore/bots/greedy_<game>.py`` and ``benchmarks/bench_<game>.py`` complete it.
"""
from cardcore.games import kings_stakes  # noqa: F401
from cardcore.games import kuzanasta  # noqa: F401
from cardcore.games import manna  # noqa: F401
