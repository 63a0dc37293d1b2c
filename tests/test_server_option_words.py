"""Refusals of a table's options in the reader's language (issue 24): ``POST /api/tables``
with Accept-Language: ru answers the option checks' 422s (the game's option declarations,
the players, the clock) in Russian from the catalogs, the ``option`` field and the rule IDs
unchanged; in English the answer is the ConfigError's text as before."""
from __future__ import annotations

import re

import pytest

from cardcore.errors import ConfigError
from cardcore.game import CONFIG_REFUSALS, OPTION_PROBLEMS, OPTION_REFUSAL
from cardcore.i18n import translations
from cardcore.registry import game_class
from cardcore.server import create_app
from cardcore.server.clocks import CLOCK_REFUSALS
from cardcore.server.limits import Limits
from cardcore.texts import config_text

from game_cases import declared_params
from server_helpers import TestClient

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

CYRILLIC = re.compile("[а-яё]", re.I)
RULE = re.compile(r"\b[A-Z]{2}-[\d.]+[a-z]?\b")

# (game, players, body fields, the option named, a Russian word the answer must hold): each
# game's REFUSALS_IN_RUSSIAN (tests/games/<game>/cases.py).
CASES = declared_params("REFUSALS_IN_RUSSIAN")


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    with TestClient(create_app(tmp_path_factory.mktemp("words") / "t.sqlite3",
                                limits=Limits(create_burst=1000))) as c:
        yield c


def refused(client, game, players, fields, lang=None):
    headers = {"Accept-Language": lang} if lang else {}
    r = client.post("/api/tables", json={"game": game, "players": players, **fields},
                    headers=headers)
    assert r.status_code == 422, r.text
    return r.json()


@pytest.mark.parametrize("game,players,fields,option,word", CASES)
def test_an_option_refusal_is_russian_for_a_russian_reader(client, game, players, fields,
                                                           option, word):
    english = refused(client, game, players, fields)
    russian = refused(client, game, players, fields, "ru-RU,ru;q=0.9,en;q=0.5")
    assert english["option"] == russian["option"] == option
    assert set(russian) == set(english)
    assert not CYRILLIC.search(english["error"])
    assert word in russian["error"], russian
    assert RULE.findall(russian["error"]) == RULE.findall(english["error"])
    if option != "players":                          # the option's name is kept as written
        assert option.split(".")[-1] in russian["error"]


def test_english_answers_are_the_config_errors_text(client):
    """English (no header, or en) is exactly what the game's ConfigError says."""
    with pytest.raises(ConfigError) as caught:
        game_class("kings_stakes")(players=2, rounds=3)
    for lang in (None, "en"):
        assert refused(client, "kings_stakes", 2, {"options": {"rounds": 3}},
                       lang)["error"] == str(caught.value)
    assert "one per player" in str(caught.value)


def test_every_option_template_has_its_russian_and_the_same_fields():
    """A new check's message is met by the matcher only through these templates: each has a
    Russian text with the same {fields} (a missing one would leave English or fail)."""
    shared = translations("ru")
    field = re.compile(r"\{(\w+)\}")
    for template in (OPTION_REFUSAL, *OPTION_PROBLEMS, *CONFIG_REFUSALS, *CLOCK_REFUSALS):
        ru = shared.gettext(template)
        assert ru != template and CYRILLIC.search(ru), template
        assert sorted(field.findall(ru)) == sorted(field.findall(template)), template


def test_a_value_that_looks_like_a_template_stays_as_written():
    """The echoed value is filled in, never read as a template (braces, a colon)."""
    with pytest.raises(ConfigError) as caught:
        game_class("kings_stakes")(players=2, refill="{rule}: x")
    from cardcore.i18n import use
    with use("ru"):
        text = config_text(caught.value)
    assert text.startswith("параметр refill='{rule}: x': должен быть одним из") and \
        text.endswith("(KS-4.5, KS-7)"), text
