"""The web table draws every game from the state alone (issue 31, item 8): the zones, the
events' moves and texts, the actions' moves and cards. A game's ``web/board.js`` holds layout
hints only (data: which zones go where, fan or stack, which view fields are facts and their
words), and the shared table code names no game, no game's own action kind and no rule."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardcore import schemas
from cardcore.registry import available_games, game_class
from test_generic_table import forbidden, hits, kinds_in

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "cardcore"
STATIC = PACKAGE / "server" / "static"
CODE = re.compile(r"=>|\bfunction\b|\bdocument\b|\bwindow\b|\bfetch\b|\bclass\b|\bnew\b|\bif\b|\breturn\b")
IMPORT = re.compile(r'^import \{ N_ \} from "/static/i18n\.js";$', re.MULTILINE)


def _strip_comments(text: str) -> str:
    return re.sub(r"^\s*//.*$", "", text, flags=re.MULTILINE)


@pytest.mark.parametrize("game", available_games())
def test_a_games_board_js_is_layout_hints_only(game):
    path = PACKAGE / "games" / game / "web" / "board.js"
    text = path.read_text(encoding="utf-8")
    assert not (path.parent / "words.js").exists()
    body = _strip_comments(text)
    assert IMPORT.search(body), "board.js imports N_ (to mark its words) and nothing else"
    assert len(re.findall(r"^import ", body, re.MULTILINE)) == 1
    assert re.findall(r"^export (?:const|let|var|function|class) (\w+)", body, re.MULTILINE) == ["layout"]
    code = re.sub(r'"[^"]*"', '""', IMPORT.sub("", body))        # the words aside
    assert not CODE.search(code), CODE.search(code)
    assert "FROM_HAND" not in text and "MOVE_WORDS" not in text


def test_the_checks_catch_code():
    assert CODE.search("const f = (v) => v.stake;")
    assert CODE.search("export function board(v) {}")


def _own_kinds() -> set[str]:
    """The action kinds a game has that not every game has (a kind every game shares, such as
    the match's end, is the model's, not a game's)."""
    per_game = [kinds_in(schemas.schema(name, "action")) for name in available_games()]
    return set().union(*per_game)


@pytest.mark.parametrize("path", sorted(STATIC.glob("*.js")), ids=lambda p: p.name)
def test_the_shared_table_code_names_no_game_kind_or_rule(path):
    text = path.read_text(encoding="utf-8")
    games = {k: v for k, v in forbidden().items()
             if k in available_games() or k.endswith("-") or k in {game_class(g).title for g in available_games()}
             or k in {g.replace("_", " ") for g in available_games()}}
    assert not hits(text, games), hits(text, games)
    # No game's action kind as a string in the code (`a.kind === "discard"`).
    literals = set(re.findall(r'"([a-z_]+)"', _strip_comments(text)))
    assert not literals & _own_kinds(), sorted(literals & _own_kinds())
