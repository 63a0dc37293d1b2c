"""Manna's action notation and the decoding of its 909 action ids (the protocol class and
the narrator share it)."""
from __future__ import annotations

from cardcore.cards import card_str
from cardcore.game import ActionSpec
from cardcore.games.manna._state import ACTION_LAYOUT, RANK_NAMES, meld_table

__all__ = ["GROUP_NAMES", "describe_action"]

GROUP_NAMES = RANK_NAMES + ("wild", "black3")      # meld groups: the ranks, wild, black threes


def _compact_label(name: str, new: bool, n: int, t: int, j: int) -> str:
    """The 0.1 notation of a meld (still accepted by ``apply``)."""
    verb = "new" if new else "add"
    if name == "black3":
        return f"new black3 n={n}"
    if name == "wild":
        return f"{verb} wild two={t} jk={j}"
    return f"{verb} {name} n={n} two={t} jk={j}"


def _meld_label(name: str, new: bool, n: int, t: int, j: int) -> str:
    """``meld K K K 2`` / ``add to K: K JK`` / ``meld 2 2 JK`` / ``meld 3 3 3``."""
    rank = "3" if name == "black3" else name
    words = [rank] * n + ["2"] * t + ["JK"] * j
    return ("meld " if new else f"add to {name}: ") + " ".join(words)


def describe_action(action_id: int) -> ActionSpec:
    lay = ACTION_LAYOUT
    if action_id == lay["draw"]:
        return ActionSpec("draw_stock", (), "draw")
    takes = {lay["take_add"]: ("add", "a"), lay["take_pair"]: ("pair", "bc"),
             lay["take_two"]: ("natural+two", "b"), lay["take_joker"]: ("natural+joker", "b")}
    if action_id in takes:
        how, ways = takes[action_id]
        return ActionSpec("take_pile", (), f"take {how}", {"with": how, "ways": ways})
    if action_id == lay["retract"]:
        return ActionSpec("retract", (), "retract")
    if action_id < lay["go_out"]:
        c = card_str(action_id - lay["discard"])
        return ActionSpec("discard", (c,), f"discard {c}")
    if action_id < lay["meld"]:
        c = card_str(action_id - lay["go_out"])
        return ActionSpec("go_out", (c,), f"out {c}")
    group, new, n, t, j = meld_table()[action_id - lay["meld"]]
    name = GROUP_NAMES[group]
    info = {"group": name, "new": bool(new), "naturals": n, "twos": t, "jokers": j,
            "compact": _compact_label(name, bool(new), n, t, j)}
    return ActionSpec("meld", (), _meld_label(name, bool(new), n, t, j), info)
