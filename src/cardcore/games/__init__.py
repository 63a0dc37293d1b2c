"""The games. Importing this package registers every game with cardcore.game.

How a game is built (every game has the same shape):

``_<game>.pyx`` — the state machine, a ``cdef class <Game>State(cardcore._fast.GameState)``:
  * ``__init__(self, int players, dict options, deck)``: ``deck`` is None or the stacked deck
    as card ids, top card first. Nothing is dealt yet.
  * ``start(self)``: deal the first round with ``self.rng`` (already seeded by the wrapper);
    a stacked deck is used as is for the first deal only, later deals shuffle.
  * the four cdef methods of GameState: ``legal_into`` (the ONE legality function per phase
    feeds it; ids written ascending, unique), ``apply_fast`` (no checks: the id is legal),
    ``over``, ``to_move``; apply_fast updates ``self.turns`` when the turn passes.
  * ``explain_illegal(self, int action) -> (message, rule_id)``: only on the error path.
  * Python-visible: ``phase`` (int index into the wrapper's ``phases``), ``round_index``
    (rounds/deals/hands finished), ``scores()``, ``winners()``, ``all_cards()`` (every card
    in every zone, for the conservation invariant), ``clone()`` and the getters the view needs.
  * Bounds: every value that comes from Python is checked before it indexes an array.

``<game>.py`` — the thin wrapper, ``@register class <Game>(Game)`` (see cardcore.game):
  ``name``, ``default_players``, ``min_players``, ``max_players``, ``options_spec``,
  ``phases``, ``deck_for``, ``action_specs`` (the fixed action space, decoded; its order
  is the id order and is pinned by golden tests), ``_make_state``, ``_hand``,
  ``_view_extra``, ``_round_summary``, ``hidden_deck_positions``, ``conformance_configs``.

``<game>_events.py`` — the narrator (cardcore.events): compares the shadow state before and
  after each action and names what changed as events, with who may see which cards, and the
  scoring breakdown at the end of a round. The wrapper sets ``narrator`` to its class.

The rule constants of a game live in one place (the top of its .pyx, cited by rule ID);
the rulebook is ``games/<game>.md`` at the top of the repository.
"""
from cardcore.games import kings_stakes  # noqa: F401
from cardcore.games import kuzanasta  # noqa: F401
from cardcore.games import manna  # noqa: F401
