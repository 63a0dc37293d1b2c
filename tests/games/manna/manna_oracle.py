"""A plain-Python brute force of Manna's meld rules, written from games/manna.md independently
of the Cython engine, for the differential tests.

* ``legal_set(pos)``: every legal action of a position, as readable tuples
  (``("meld", group, new, n, t, j)``, ``("discard", card)``, ``("take", how)``...).
* ``reach(...)``: "can this turn still reach the initial-meld minimum", by depth-first search
  over single legal melds (memoised), not by the engine's DP.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from itertools import permutations

JOKER = 52
NATURAL_RANKS = (0, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)
WILD, BLACK3 = 13, 14
SEVEN, TWO, THREE = 6, 1, 2
POINTS = [20, 20, 5, 5, 5, 5, 5, 10, 10, 10, 10, 10, 10, 50]   # by rank, joker last


def rank(c: int) -> int:
    return 13 if c == JOKER else c % 13


def wild(c: int) -> bool:
    return c == JOKER or c % 13 == TWO


def red_three(c: int) -> bool:
    return c != JOKER and c % 13 == THREE and c // 13 >= 2


def black_three(c: int) -> bool:
    return c != JOKER and c % 13 == THREE and c // 13 < 2


def meld_valid(group: int, naturals: int, wilds: int, wild_sevens: bool) -> bool:
    size = naturals + wilds
    if not 3 <= size <= 7:
        return False
    if group == WILD:
        return naturals == 0
    if group == BLACK3:
        return wilds == 0
    if group == SEVEN and wilds and not wild_sevens:
        return False
    return naturals >= 2 and wilds <= 3


def canasta_kind(group: int, naturals: int, wilds: int) -> str | None:
    if naturals + wilds != 7 or group == BLACK3:
        return None
    if group == WILD:
        return "wild"
    if wilds:
        return "mixed"
    return "sevens" if group == SEVEN else "natural"


# ------------------------------------------------------------------ reachability (brute force)
def reach(nat, cred, twos, jokers, cred_twos, cred_jokers, ex_size, ex_wild, hand, points,
          need, foot, wild_sevens=False) -> bool:
    """Is there a sequence of legal melds this turn after which the counted points reach need?
    Melds: natural-rank and wild melds (black threes need going out, which an unopened team
    cannot do). A meld that completes a canasta is legal only if it reaches the minimum; any
    other meld must leave two cards in hand; a canasta brings the foot if ``foot``."""
    if points >= need:
        return True
    groups = tuple((ex_size[g], ex_wild[g]) for g in range(15))
    return _search(tuple(nat), tuple(cred), twos, jokers, cred_twos, cred_jokers, groups,
                   hand, points, need, foot, wild_sevens)


@lru_cache(maxsize=200_000)
def _search(nat, cred, twos, jokers, ctw, cjk, groups, hand, points, need, foot, wild_sevens):
    bound = points + 20 * ctw + 50 * cjk + sum(POINTS[r] * cred[r] for r in NATURAL_RANKS)
    if bound < need:
        return False
    for g in NATURAL_RANKS + (WILD,):
        size, wilds = groups[g]
        have = 0 if g == WILD else nat[g]
        # a new natural meld needs two naturals: n starts there (the loop skips, not tests)
        for n in range(2 if size == 0 and g != WILD else 0, min(have, 7) + 1):
            for t in range(min(twos, 7) + 1):
                for j in range(min(jokers, 7) + 1):
                    k = n + t + j
                    if k == 0 or size + k > 7:
                        continue
                    if not meld_valid(g, size - wilds + n, wilds + t + j, wild_sevens):
                        continue
                    gained = 0
                    c2 = list(cred)
                    if g != WILD:
                        used = min(n, cred[g])
                        gained += POINTS[g] * used
                        c2[g] -= used
                    ut, uj = min(t, ctw), min(j, cjk)
                    gained += 20 * ut + 50 * uj
                    total = points + gained
                    completes = size + k == 7
                    left = hand - k
                    if completes:
                        if total >= need and (foot or left >= 2):
                            return True
                        continue
                    if left < 2:
                        continue
                    if total >= need:
                        return True
                    n2 = list(nat)
                    if g != WILD:
                        n2[g] -= n
                    gr = list(groups)
                    gr[g] = (size + k, wilds + t + j)
                    if _search(tuple(n2), tuple(c2), twos - t, jokers - j, ctw - ut, cjk - uj,
                               tuple(gr), left, total, need, foot, wild_sevens):
                        return True
    return False


# ------------------------------------------------------------------ positions
@dataclass
class Position:
    """What the test hook ``manna._testing.set_position`` installs, for the player to move."""

    player: int
    hand: list[int]
    melds: list[list[list[int]]]          # per team, lists of card ids (7 = canasta)
    opened: list[bool]
    stage: int = 1                         # 0 draw, 1 meld
    pile: list[int] = field(default_factory=list)
    frozen: bool = False
    turn_points: int = 0
    committed: bool = False
    retracted: bool = False
    credit: list[int] | None = None        # per rank 0..12 and the joker
    foot_taken: bool = False
    foot: list[int] = field(default_factory=list)   # the player's foot if not taken
    need: tuple[int, int] = (50, 50)
    wild_sevens: bool = False
    sevens_either: bool = False            # MH-4.6: a mixed sevens canasta is one of sevens


def _group_of(cards: list[int]) -> int:
    nat = [c for c in cards if not wild(c)]
    if not nat:
        return WILD
    return BLACK3 if black_three(nat[0]) else nat[0] % 13


def _kind(pos: Position, g: int, naturals: int, wilds: int) -> str | None:
    """canasta_kind, with "mixed7" for a mixed sevens canasta that is also one of sevens."""
    kind = canasta_kind(g, naturals, wilds)
    return "mixed7" if kind == "mixed" and g == SEVEN and pos.sevens_either else kind


def _team_state(pos: Position, team: int):
    unfinished, types, canastas = {}, [], set()
    for cards in pos.melds[team]:
        g = _group_of(cards)
        nw = sum(wild(c) for c in cards)
        if len(cards) == 7 and g != BLACK3:
            types.append(_kind(pos, g, 7 - nw, nw))
            canastas.add(g)
        elif g != BLACK3:
            unfinished[g] = (len(cards), nw)
    return unfinished, types, canastas


ALL_TYPES = ("natural", "mixed", "wild", "sevens")
SERVES = {"natural": {"natural"}, "mixed": {"mixed"}, "wild": {"wild"}, "sevens": {"sevens"},
          "mixed7": {"mixed", "sevens"}}


def ready(kinds: list) -> bool:
    """MH-9.1 by brute force: four distinct canastas, one serving each type."""
    kept: list = []
    for k in kinds:                       # two of a kind are as good as more
        if kept.count(k) < 2:
            kept.append(k)
    return any(all(need in SERVES[kept[i]] for need, i in zip(ALL_TYPES, pick))
               for pick in permutations(range(len(kept)), 4))


def has_sevens(kinds: list) -> bool:
    """MH-7.1 / MH-8.3: a canasta of sevens."""
    return "sevens" in kinds or "mixed7" in kinds


def _counts(cards):
    out = [0] * 14
    for c in cards:
        out[rank(c)] += 1
    return out


def _foot_gain(pos: Position) -> int:
    return 0 if pos.foot_taken else sum(1 for c in pos.foot if not red_three(c))


def _hand_ok(left: int, can_out: bool, sevens_left: int) -> bool:
    if left >= 2:
        return True
    if not can_out:
        return False
    return left == 0 or sevens_left == 0


def _reach_after(pos, counts, credit, unfinished, hand, points, need):
    nat = [counts[r] if r < 13 else 0 for r in range(13)]
    cred = [min(credit[r], nat[r]) for r in range(13)]
    ex_size = [0] * 15
    ex_wild = [0] * 15
    for g, (s, w) in unfinished.items():
        ex_size[g], ex_wild[g] = s, w
    return reach(nat, cred, counts[TWO], counts[13], min(credit[TWO], counts[TWO]),
                 min(credit[13], counts[13]), ex_size, ex_wild, hand, points, need,
                 not pos.foot_taken, pos.wild_sevens)


def legal_melds(pos: Position) -> set:
    team = pos.player % 2
    if pos.retracted:
        return set()
    counts = _counts(pos.hand)
    black = sum(1 for c in pos.hand if black_three(c))
    credit = list(pos.credit) if pos.credit is not None else list(counts)
    unfinished, types, _ = _team_state(pos, team)
    need = pos.need[team]
    out = set()
    for g in NATURAL_RANKS + (WILD, BLACK3):
        for new in (True, False):
            if g == BLACK3 and not new:
                continue
            if new == (g in unfinished):
                continue
            size, wilds = (0, 0) if new else unfinished[g]
            have = black if g == BLACK3 else (0 if g == WILD else counts[g])
            # n, t, j: 0..7 each, never more than the hand holds (the loops stop there)
            for n in range(min(have, 7) + 1):
                for t in range(min(counts[TWO], 7) + 1):
                    for j in range(min(counts[13], 7) + 1):
                        k = n + t + j
                        if k == 0:
                            continue
                        if g == BLACK3 and (t or j):
                            continue
                        if not meld_valid(g, size - wilds + n, wilds + t + j, pos.wild_sevens):
                            continue
                        final = size + k
                        kind = _kind(pos, g, final - wilds - t - j, wilds + t + j)
                        opened = pos.opened[team]
                        total = pos.turn_points
                        c2 = list(credit)
                        if not opened:
                            key = THREE if g == BLACK3 else g
                            if g != WILD:
                                used = min(n, c2[key])
                                total += POINTS[key] * used
                            total += 20 * min(t, c2[TWO]) + 50 * min(j, c2[13])
                            if total >= need:
                                opened = True
                            elif kind:
                                continue      # no canasta while the minimum is short
                        left = len(pos.hand) - k + (_foot_gain(pos) if kind else 0)
                        tps = types + ([kind] if kind else [])
                        can_out = opened and ready(tps)
                        sevens_left = counts[SEVEN] - (n if g == SEVEN else 0)
                        if g == BLACK3 and not (can_out and left <= 1):
                            continue
                        if not _hand_ok(left, can_out, sevens_left):
                            continue
                        if not opened and pos.committed:
                            cnt = list(counts)
                            if g < 13:
                                cnt[g] -= n
                            cnt[TWO] -= t
                            cnt[13] -= j
                            if g != WILD and g != BLACK3:
                                c2[g] = max(0, c2[g] - n)
                            c2[TWO] = max(0, c2[TWO] - t)
                            c2[13] = max(0, c2[13] - j)
                            unf = dict(unfinished)
                            unf[g] = (final, wilds + t + j)
                            if not _reach_after(pos, cnt, c2, unf, left, total, need):
                                continue
                        out.add(("meld", g, new, n, t, j))
    return out


def legal_takes(pos: Position) -> set:
    team = pos.player % 2
    if not pos.pile:
        return set()
    top = pos.pile[-1]
    if wild(top) or top % 13 == THREE:
        return set()
    r = top % 13
    counts = _counts(pos.hand)
    unfinished, types, canastas = _team_state(pos, team)
    frozen = pos.frozen or not pos.opened[team]
    out = set()
    options = []   # (how, naturals, twos, jokers)
    if not frozen and r in unfinished:
        options.append(("add", 0, 0, 0))
    if not frozen and r not in canastas:
        if r not in unfinished:
            options.append(("pair", 2, 0, 0))
            if r != SEVEN or pos.wild_sevens:
                options.append(("two", 1, 1, 0))
                options.append(("joker", 1, 0, 1))
    elif r not in unfinished or unfinished[r][0] + 3 <= 7:
        options.append(("pair", 2, 0, 0))
    rest = pos.pile[:-1]
    for how, n, t, j in options:
        if counts[r] < n or counts[TWO] < t or counts[13] < j:
            continue
        size, wilds = unfinished.get(r, (0, 0))
        final = size + 1 + n + t + j
        kind = _kind(pos, r, final - wilds - t - j, wilds + t + j)
        left = len(pos.hand) - n - t - j + sum(1 for c in rest if not red_three(c))
        if kind:
            left += _foot_gain(pos)
        opened = pos.opened[team]
        points = POINTS[r] * (1 + n) + 20 * t + 50 * j
        if not opened and points >= pos.need[team]:
            opened = True
        tps = types + ([kind] if kind else [])
        sevens_left = counts[SEVEN] - (n if r == SEVEN else 0) + sum(
            1 for c in rest if c != JOKER and c % 13 == SEVEN)
        if not _hand_ok(left, opened and ready(tps), sevens_left):
            continue
        if not opened:
            cnt = list(counts)
            cnt[r] -= n
            cnt[TWO] -= t
            cnt[13] -= j
            credit = list(cnt)
            for c in rest:
                if not red_three(c):
                    cnt[rank(c)] += 1
            unf = dict(unfinished)
            unf[r] = (final, wilds + t + j)
            if not _reach_after(pos, cnt, credit, unf, left, points, pos.need[team]):
                continue
        out.add(("take", how))
    return out


def legal_set(pos: Position) -> set:
    """Every legal action of the position as readable tuples."""
    team = pos.player % 2
    if pos.stage == 0:
        return {("draw",)} | legal_takes(pos)
    out = legal_melds(pos)
    short = not pos.opened[team] and pos.turn_points > 0
    if short and not pos.committed and not pos.retracted:
        out.add(("retract",))
    _, types, _ = _team_state(pos, team)
    other_types = _team_state(pos, 1 - team)[1]
    sevens_free = has_sevens(types) and has_sevens(other_types)
    hand = pos.hand
    for c in set(hand):
        is_seven = c != JOKER and c % 13 == SEVEN
        only_sevens = all(x != JOKER and x % 13 == SEVEN for x in hand)
        if len(hand) >= 2 and not short and (not is_seven or sevens_free or only_sevens):
            out.add(("discard", c))
        if len(hand) == 1 and pos.opened[team] and ready(types) and not is_seven:
            out.add(("out", c))
    return out
