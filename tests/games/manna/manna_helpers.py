"""Helpers for the Manna tests: stacked decks by seat, action ids by meaning."""
from __future__ import annotations

import random
from collections import Counter

from cardcore.games.manna._state import ACTION_LAYOUT as LAY
from cardcore.games.manna._state import deal_plan, manna_deck, meld_table
from cardcore.games.manna._testing import set_position

from cardcore import new_game
from cardcore.cards import card_id, card_str

TABLE = meld_table()
GROUPS = {"A": 0, "4": 3, "5": 4, "6": 5, "7": 6, "8": 7, "9": 8, "10": 9, "J": 10, "Q": 11,
          "K": 12, "wild": 13, "black3": 14}


def c(name: str) -> int:
    return card_id(name)


def cs(*names: str) -> list[int]:
    return [card_id(n) for n in names]


def meld(group: str, new: bool, n: int = 0, t: int = 0, j: int = 0) -> int:
    """The action id of a meld by meaning."""
    return LAY["meld"] + TABLE.index((GROUPS[group], new, n, t, j))


def discard(name: str) -> int:
    return LAY["discard"] + card_id(name)


def go_out(name: str) -> int:
    return LAY["go_out"] + card_id(name)


DRAW, TAKE_ADD, TAKE_PAIR, TAKE_TWO, TAKE_JOKER, RETRACT = 0, 1, 2, 3, 4, 5


def stacked(dealer: int = 0, hands=None, feet=None, upcard=None, stock=()) -> list[str]:
    """A 216-card stacked deck (top first) giving these seats these hands/feet, this first
    discard and these stock cards on top; the rest is filled with plain cards, red threes last.
    Positions come from the engine's deal plan."""
    hands, feet = hands or {}, feet or {}
    plan = deal_plan(6, {}, dealer)
    pool = Counter(manna_deck())
    deck: list[int | None] = [None] * len(plan)

    def positions(zone: str) -> list[int]:
        return [i for i, z in enumerate(plan) if z == zone]

    def put(pos: int, name: str) -> None:
        cid = card_id(name)
        assert pool[cid] > 0, f"no copy of {name} left"
        pool[cid] -= 1
        deck[pos] = cid

    for zone, by_seat in (("hand", hands), ("foot", feet)):
        for seat, cards in by_seat.items():
            slots = positions(f"{zone}:{seat}")
            assert len(cards) <= len(slots), f"seat {seat} gets {len(slots)} {zone} cards"
            for pos, name in zip(slots, cards):
                put(pos, name)
    if upcard is not None:
        put(positions("discard")[0], upcard)
    slots = positions("stock")
    assert len(stock) <= len(slots)
    for pos, name in zip(slots, stock):
        put(pos, name)
    rest = list(pool.elements())
    random.Random(0).shuffle(rest)
    # Plain cards first: no red three or wild card lands where a test did not put one.
    rest.sort(key=lambda x: (x == 52 or x % 13 == 1 or x % 13 == 2))
    rest.sort(key=lambda x: x != 52 and x % 13 == 2 and x // 13 >= 2)
    it = iter(rest)
    for i in range(len(deck)):
        if deck[i] is None:
            deck[i] = next(it)
    return [card_str(x) for x in deck]


def game_with(dealer: int = 0, **kwargs):
    options = {k: kwargs.pop(k) for k in ("target", "wild_sevens", "mixed_sevens", "foot_penalty")
               if k in kwargs}
    return new_game("manna", seed=0, dealer=dealer, deck=stacked(dealer, **kwargs), **options)


def position(game, player: int, hand, melds0=(), melds1=(), **kw):
    """Install a position (engine test hook); card names accepted."""
    def ids(xs):
        return [card_id(x) if isinstance(x, str) else x for x in xs]
    if kw.get("stock") is not None:
        kw["stock"] = ids(kw["stock"])
    set_position(game._state, player, ids(hand), [ids(m) for m in melds0],
                 [ids(m) for m in melds1], kw.pop("opened0", False),
                 kw.pop("opened1", False), kw.pop("stage", 1),
                 ids(kw.pop("pile", [])), **kw)
    return game
