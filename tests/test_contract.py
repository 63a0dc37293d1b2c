"""The game contract (cardcore.contract, docs/adding-a-game.md): every game meets it, a game
that breaks it is refused at registration with the missing piece and the doc section named,
and the parts only play can show (the match end moves ``round_index``, team zones follow
``sides_of``) hold for every game."""
from __future__ import annotations

import re
import types
from pathlib import Path

import pytest

import cardcore
from cardcore import contract, registry
from cardcore.contract import DOC, REQUIREMENTS, GameContractError, check_game, problems
from cardcore.registry import game_classes

ROOT = Path(__file__).resolve().parents[1]
GAMES = game_classes()


def copy_of(base, **attrs):
    return type("BrokenGame", (base,), {"name": "broken_game", "title": "Broken Game",
                                        "__module__": __name__, **attrs})


@pytest.fixture
def own_registry(monkeypatch):
    monkeypatch.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))


@pytest.mark.parametrize("cls", GAMES, ids=lambda c: c.name)
def test_every_game_meets_the_contract(cls):
    assert problems(cls) == []
    check_game(cls)


def test_a_game_without_its_greedy_policy_is_refused_naming_it_and_the_section(own_registry):
    broken = copy_of(GAMES[0], greedy=None, rule_prefix="bad")
    with pytest.raises(GameContractError) as e:
        registry.register(broken)
    message = str(e.value)
    assert "'broken_game'" in message and "greedy" in message and "rule_prefix 'bad'" in message
    assert f"{DOC}#the-game-class" in message
    assert "broken_game" not in cardcore.available_games()
    assert isinstance(e.value, ImportError)


def test_benchmark_targets_are_known_figures_with_positive_numbers():
    assert not any("benchmark_targets" in p for p in problems(GAMES[0]))   # {} by default too
    for bad in ({"vector_steps_per_s": 0}, {"steps": 1e6}, {"bots_goal_factor": "fast"}, [1]):
        found = problems(copy_of(GAMES[0], benchmark_targets=bad))
        assert any("benchmark_targets" in p and f"{DOC}#the-game-class" in p for p in found), bad


def test_words_attributes_read_with_getattr_are_checked(monkeypatch):
    fake = types.SimpleNamespace(PHRASES={}, NOTATION="play 7H", move_note=None)
    monkeypatch.setattr(contract, "words_of", lambda cls: fake)
    found = problems(GAMES[0])
    assert any("words.NOTATION must be a sequence of (notation, meaning) string pairs" in p
               and f"{DOC}#words" in p for p in found), found
    monkeypatch.setattr(contract, "words_of", lambda cls: types.SimpleNamespace(NOTATION=()))
    assert any("words.PHRASES" in p for p in problems(GAMES[0]))
    monkeypatch.setattr(contract, "words_of", lambda cls: None)
    assert any("words is missing" in p for p in problems(GAMES[0]))


def test_every_language_needs_its_catalog_and_how_to_page(monkeypatch):
    monkeypatch.setattr(contract, "LANGUAGES", ("en", "ru", "xx"))
    found = problems(GAMES[0])
    assert any("no message catalog for xx" in p for p in found), found
    assert any("no how-to page for xx" in p and "#catalogs-and-how-to-pages" in p
               for p in found), found


def test_a_rulebook_needs_enough_rule_ids(monkeypatch):
    monkeypatch.setattr(contract, "MIN_RULE_IDS", 10**6)
    found = problems(GAMES[0])
    assert any("fewer than 1000000" in p and f"{DOC}#the-rulebook" in p for p in found)


def test_wild_names_cards_of_the_games_deck():
    """``wild`` (the cards a table marks as wild) must name cards of the game's deck: a
    typo or a card the game does not deal is refused, echoed."""
    cls = next(c for c in GAMES if c.wild)
    assert not any("wild" in p for p in problems(cls))
    for bad, echoed in ((("8X",), "8X"), ((*cls.wild, "ZZ"), "ZZ"), ("JK", "JK")):
        found = problems(copy_of(cls, wild=bad))
        assert any(p.startswith("the Game subclass's declarations: wild names") and echoed in p
                   and f"{DOC}#the-game-class" in p for p in found), (bad, found)
    # A card the game does not deal: a joker in a game dealt without jokers.
    jokerless = next(c for c in GAMES if "JK" not in _deck_notations(c))
    found = problems(copy_of(jokerless, wild=("JK",)))
    assert any("wild names ['JK']" in p for p in found), found


def _deck_notations(cls):
    from cardcore.cards import card_str
    game = cls(players=cls.short_match.players, seed=0, **dict(cls.short_match.options))
    return {card_str(c) for c in game.deck_for(game.num_players, game.options)}


def test_zone_labels_and_sides_are_checked():
    cls = GAMES[0]
    found = problems(copy_of(cls, zone_labels={}))
    assert any("zone_labels has no label for" in p and "#zones-and-sides" in p for p in found)
    wrong = copy_of(cls, sides_of=classmethod(lambda c, players, options: [0]))
    assert any("sides: one per seat" in p for p in problems(wrong)), problems(wrong)


@pytest.mark.parametrize("cls", GAMES, ids=lambda c: c.name)
def test_the_end_of_a_match_changes_round_index(cls):
    """The narrator sees a round end by ``round_index`` (cardcore.events): the match's last
    action must move it, or the last round is never told."""
    for seed in range(3):
        game = cardcore.new_game(cls.name, players=cls.short_match.players, seed=seed,
                                 **dict(cls.short_match.options))
        bot = cardcore.bots.make_bot("random", seed)
        while True:
            before = game.state.round_index
            game.apply(bot.choose(game))
            if game.is_over:
                break
        assert game.state.round_index != before, (cls.name, seed)


@pytest.mark.parametrize("cls", GAMES, ids=lambda c: c.name)
def test_team_zones_follow_sides_of(cls):
    """The Game gives each state it makes the sides of ``sides_of``; a clone and a sampled
    world keep them; a state told sides of the wrong length refuses them."""
    game = cardcore.new_game(cls.name, players=cls.short_match.players, seed=1,
                             **dict(cls.short_match.options))
    sides = tuple(cls.sides_of(game.num_players, game.options))
    assert game.state.sides == sides and game.clone().state.sides == sides
    assert game.state.sample_hidden(0, 5).sides == sides
    with pytest.raises(ValueError, match="one per seat"):
        game.state.clone().set_sides([0])
    for name, scope, instances, sight in game.state.zones():
        if scope == "team" and sight == "owner":
            for seat, side in enumerate(sides):
                assert [game.state.zone_sees(name, i, seat) for i in range(instances)] == [
                    i == side for i in range(instances)]


def test_the_recipe_lists_every_requirement_with_its_check():
    text = (ROOT / DOC).read_text(encoding="utf-8")
    headings = {re.sub(r"[^a-z0-9 -]", "", h.lower()).replace(" ", "-")
                for h in re.findall(r"^## (.+)$", text, re.M)}
    for req in REQUIREMENTS:
        assert req.section in headings, req.section
    for test in ("tests/test_rulebooks.py", "tests/test_contract.py", "tests/test_conformance.py",
                 "tests/test_bot_levels.py", "tests/test_ts_client.py"):
        assert test in text, test


def test_the_old_registry_spellings_are_a_declared_shim():
    """cardcore.game.new_game & co. (0.2) are aliases listed in cardcore._compat.MOVED_NAMES,
    each with the release that removes it; nothing patches cardcore.game."""
    import cardcore.game as protocol
    from cardcore._compat import MOVED_NAMES
    assert "new_game" not in vars(protocol)
    for (module, name), (home, removed) in MOVED_NAMES.items():
        assert module == "cardcore.game" and re.fullmatch(r"\d+\.\d+\.\d+", removed)
        with pytest.warns(DeprecationWarning, match=f"goes in {removed}"):
            assert getattr(protocol, name) is getattr(registry, name)
    with pytest.raises(AttributeError):
        protocol.no_such_name  # noqa: B018
