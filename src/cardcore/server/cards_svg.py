"""Card pictures as SVG, drawn here (no external assets): ``card_svg("10H")``, ``card_svg("JK")``
and ``card_svg("back")``. The server serves them at ``/cards/<card>.svg`` for any client.

Suits are drawn as paths, so a picture looks the same whatever fonts a client has; ranks are
text in the client's sans-serif font.
"""
from __future__ import annotations

from functools import lru_cache

from cardcore.cards import card_id, card_str

__all__ = ["card_svg", "CARD_WIDTH", "CARD_HEIGHT"]

CARD_WIDTH = 100
CARD_HEIGHT = 140
RED = "#c0282d"
BLACK = "#1b1b1f"

SUIT_PATHS = {
    "H": "M50 92C22 68 2 50 2 29 2 13 14 2 28 2c10 0 18 6 22 15C54 8 62 2 72 2c14 0 26 11 26 "
         "27 0 21-20 39-48 63z",
    "D": "M50 2 88 50 50 98 12 50z",
    "S": "M50 2C78 28 98 44 98 63c0 15-11 25-25 25-9 0-16-4-20-10 1 10 5 16 13 22H34c8-6 12-12 "
         "13-22-4 6-11 10-20 10C13 88 2 78 2 63 2 44 22 28 50 2z",
    "C": "M50 4a21 21 0 0 1 17 33 21 21 0 1 1-12 28c1 14 5 25 13 33H32c8-8 12-19 13-33A21 21 0 "
         "1 1 33 37 21 21 0 0 1 50 4z",
}

# Pip centres (x, y) in a 100x140 card for ranks 2..10; pips below the middle are turned.
PIPS = {
    2: [(50, 32), (50, 108)],
    3: [(50, 32), (50, 70), (50, 108)],
    4: [(32, 32), (68, 32), (32, 108), (68, 108)],
    5: [(32, 32), (68, 32), (50, 70), (32, 108), (68, 108)],
    6: [(32, 32), (68, 32), (32, 70), (68, 70), (32, 108), (68, 108)],
    7: [(32, 32), (68, 32), (50, 51), (32, 70), (68, 70), (32, 108), (68, 108)],
    8: [(32, 32), (68, 32), (50, 51), (32, 70), (68, 70), (50, 89), (32, 108), (68, 108)],
    9: [(32, 30), (68, 30), (32, 56), (68, 56), (50, 70), (32, 84), (68, 84), (32, 110),
        (68, 110)],
    10: [(32, 30), (68, 30), (50, 43), (32, 56), (68, 56), (32, 84), (68, 84), (50, 97),
         (32, 110), (68, 110)],
}
RANK_VALUES = {"A": 1, "J": 11, "Q": 12, "K": 13}


def _suit(suit: str, x: float, y: float, size: float, turned: bool = False) -> str:
    scale = size / 100
    turn = f" rotate(180 {x} {y})" if turned else ""
    return (f'<path d="{SUIT_PATHS[suit]}" transform="{turn} translate({x - size / 2:.1f} '
            f'{y - size / 2:.1f}) scale({scale:.3f})"/>')


def _frame(body: str, title: str, fill: str = "#fffdf8") -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {CARD_WIDTH} {CARD_HEIGHT}" '
            f'width="{CARD_WIDTH}" height="{CARD_HEIGHT}" role="img" aria-label="{title}">'
            f'<title>{title}</title>'
            f'<rect x="1" y="1" width="98" height="138" rx="8" fill="{fill}" stroke="#555" '
            f'stroke-width="1.5"/>{body}</svg>')


def _corner(rank: str, suit: str, color: str) -> str:
    size = 15 if len(rank) == 1 else 13
    index = (f'<text x="11" y="20" font-family="Helvetica, Arial, sans-serif" '
             f'font-size="{size}" font-weight="700" text-anchor="middle" fill="{color}">'
             f'{rank}</text>' + _suit(suit, 11, 31, 11))
    return f'<g fill="{color}">{index}<g transform="rotate(180 50 70)">{index}</g></g>'


def _face(rank: str, suit: str, color: str) -> str:
    return (f'<rect x="22" y="24" width="56" height="92" rx="4" fill="none" stroke="{color}" '
            f'stroke-width="1.5"/>'
            f'<text x="50" y="78" font-family="Georgia, serif" font-size="44" font-weight="700" '
            f'text-anchor="middle" fill="{color}">{rank}</text>'
            f'<g fill="{color}">{_suit(suit, 50, 98, 18)}{_suit(suit, 50, 40, 14, True)}</g>')


def _joker() -> str:
    star = ("M50 38 57 58 78 58 61 70 67 90 50 78 33 90 39 70 22 58 43 58z")
    letters = "".join(f'<text x="12" y="{26 + 13 * i}" font-family="Helvetica, Arial, sans-serif" '
                      f'font-size="12" font-weight="700" text-anchor="middle" fill="#6a1b9a">'
                      f'{ch}</text>' for i, ch in enumerate("JOKER"))
    return (f'<path d="{star}" fill="#6a1b9a" stroke="#f5b700" stroke-width="2"/>'
            f'{letters}<g transform="rotate(180 50 70)">{letters}</g>')


def _back() -> str:
    return ('<defs><pattern id="p" width="10" height="10" patternUnits="userSpaceOnUse">'
            '<path d="M5 0 10 5 5 10 0 5z" fill="#3c5a99"/></pattern></defs>'
            '<rect x="7" y="7" width="86" height="126" rx="5" fill="#24396b"/>'
            '<rect x="10" y="10" width="80" height="120" rx="4" fill="url(#p)"/>')


@lru_cache(maxsize=None)
def card_svg(name: str) -> str:
    """The SVG picture of a card notation (any accepted spelling), of "JK" or of "back";
    ValueError for anything else."""
    if name.lower() == "back":
        return _frame(_back(), "card back", "#f4f4f4")
    text = card_str(card_id(name))                 # ValueError for a non-card
    if text == "JK":
        return _frame(_joker(), "joker")
    rank, suit = text[:-1], text[-1]
    color = RED if suit in "DH" else BLACK
    value = RANK_VALUES.get(rank) or int(rank)
    if value == 1:
        centre = f'<g fill="{color}">{_suit(suit, 50, 70, 44)}</g>'
    elif value > 10:
        centre = _face(rank, suit, color)
    else:
        turned = [y > 72 for _, y in PIPS[value]]
        centre = (f'<g fill="{color}">' + "".join(
            _suit(suit, x, y, 20, t) for (x, y), t in zip(PIPS[value], turned)) + "</g>")
    return _frame(_corner(rank, suit, color) + centre, text)
