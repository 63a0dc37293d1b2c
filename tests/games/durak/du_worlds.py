"""An independent judge of Durak's sampled worlds, written from the rulebook's DU-11.3 (not
from kernel.c): from what a seat saw (its events) and a world's hands, whether some deal and
some draws could have led there.

Every card a seat got from the deal or the stock (its *own* cards) is either still in its hand,
never seen on the table, or was first seen on the table when that seat played it. Each own
card fills one of the seat's places: six dealt at the start, one per card it drew, at the time
it drew it. A card played must have come before the play; a late card (a trump below the one
shown, or any trump when none was shown, with DU-3.1; the face-up trump card) never fills a
dealt place; the trump card fills the place where everybody saw it drawn; the shown trump a
dealt one. The world is possible when every other seat's own cards fill its places (a
matching, found by augmenting paths)."""
from __future__ import annotations

from dataclasses import dataclass, field

from cardcore.cards import card_id
from cardcore.games.durak._state import card_power

DEALT = -1                      # the time of the deal's places
NEVER = 10**9                   # the deadline of a card still in the hand


@dataclass
class Seat:
    places: list[int] = field(default_factory=lambda: [DEALT] * 6)   # the time of each place
    played: dict[int, int] = field(default_factory=dict)              # own card -> first play
    trump_place: int | None = None                                    # when it drew the trump card


class Record:
    """What a seat saw, read from its events (``update`` reads the ones since the last)."""

    def __init__(self, game, seat: int) -> None:
        self.game, self.seat = game, seat
        self.players = game.num_players
        self.lowest_trump_rule = game.options["first_attacker"] == "lowest_trump"
        self.seats = [Seat() for _ in range(self.players)]
        self.public: set[int] = set()               # every card that has been on the table
        self.trump_card = -1
        self.shown: int | None = None
        self.read = 0
        self.update()

    def update(self) -> Record:
        for e in self.game.events(self.seat, since=self.read):
            self.read += 1
            t, kind = e["n"], e["kind"]
            cards = [card_id(c) for c in e["cards"]]
            if kind == "trump":
                self.trump_card = cards[0]
            elif kind == "first_attack":
                self.shown = cards[0] if cards else None
            elif kind in ("attack", "beat", "transfer"):
                if cards[0] not in self.public:
                    self.seats[e["player"]].played[cards[0]] = t
                    self.public.add(cards[0])
            elif kind == "draw":
                me = self.seats[e["player"]]
                me.places += [t] * (len(cards) + e.get("hidden", 0))
                if e["stock_size"] == 0:      # DU-7.3: the last card drawn is the trump card
                    me.trump_place = t
        return self

    def late(self, card: int) -> bool:
        if card == self.trump_card and self.players < 6:
            return True
        if not self.lowest_trump_rule or card // 13 != self.trump_card // 13:
            return False
        return self.shown is None or card_power(card) < card_power(self.shown)


def _match(cards: list[tuple[int, int]], places: list[int], allowed) -> bool:
    owner: list[int | None] = [None] * len(places)

    def place(i: int, seen: set[int]) -> bool:
        for j in range(len(places)):
            if j in seen or not allowed(cards[i], places[j]):
                continue
            seen.add(j)
            if owner[j] is None or place(owner[j], seen):
                owner[j] = i
                return True
        return False

    return all(place(i, set()) for i in range(len(cards)))


def impossible(record: Record, world) -> list[str]:
    """The seats whose own cards cannot fill their places in ``world`` (a state with
    ``hand(p)``), each with its own cards; empty when the world is possible."""
    wrong = []
    for p, info in enumerate(record.seats):
        if p == record.seat:
            continue
        own = list(info.played.items())
        own += [(c, NEVER) for c in world.hand(p) if c not in record.public]
        assert len(own) == len(info.places), (p, own, info.places)

        def allowed(item: tuple[int, int], when: int, info: Seat = info) -> bool:
            card, deadline = item
            if when >= deadline:
                return False
            if card == record.trump_card and record.players < 6:
                return when == info.trump_place
            if card == record.shown:
                return when == DEALT
            return when != DEALT or not record.late(card)

        if not _match(own, info.places, allowed):
            wrong.append(f"seat {p}: {sorted(c for c, _ in own)}")
    return wrong
