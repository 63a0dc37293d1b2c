"""Shared helpers for the conformance suite: configurations and the per-action invariants."""
from __future__ import annotations

import json
import random
from typing import Any, Iterator

import cardcore
from cardcore.cards import card_str
from cardcore.game import Game
from cardcore.registry import game_class, new_game


def all_configs() -> list[tuple[str, dict[str, Any]]]:
    """(game name, new_game kwargs) for every registered game and its conformance configs."""
    configs = []
    for name in cardcore.available_games():
        for config in game_class(name).conformance_configs:
            configs.append((name, dict(config)))
    return configs


def config_id(param: tuple[str, dict[str, Any]]) -> str:
    name, config = param
    return name + "-" + "-".join(f"{k}={v}" for k, v in sorted(config.items()))


def composition(game: Game) -> list[int]:
    return sorted(game.deck_for(game.num_players, game.options))


def hidden_twin(name: str, seed: int, trial: int, swaps: int = 6) -> tuple[Game, Game, int]:
    """Two deals of ``name`` (seeded ``seed``) that differ only in cards the seat to move
    cannot see: a deck shuffled by ``trial``, and the same deck with ``swaps`` swaps of
    positions hidden from that seat. Returns (game, twin, seat)."""
    cards = composition(new_game(name, seed=seed))
    deck = [card_str(c) for c in random.Random(trial).sample(cards, len(cards))]
    game = new_game(name, seed=seed, deck=deck)
    seat = game.current_player
    assert seat is not None
    hidden = game.hidden_deck_positions(seat)
    rng = random.Random(trial)
    swapped = list(deck)
    for _ in range(swaps):
        i, j = rng.sample(hidden, 2)
        swapped[i], swapped[j] = swapped[j], swapped[i]
    return game, new_game(name, seed=seed, deck=swapped), seat


def snapshot(game: Game) -> str:
    """Everything observable about a game, hidden cards included, as one string."""
    return json.dumps({
        "views": [game.view(p) for p in range(game.num_players)],
        "json": json.loads(game.to_json()),
        "cards": game.all_cards(),
        "legal": list(game.legal_action_ids()),
        "current": game.current_player,
        "over": game.is_over,
        "scores": game.scores,
        "winners": game.winners,
    }, sort_keys=True)


def random_steps(game: Game, rng: random.Random, limit: int = 200_000) -> Iterator[int]:
    """Apply uniformly random legal actions until the game is over; yield each id applied."""
    for _ in range(limit):
        if game.is_over:
            return
        ids = game.legal_action_ids()
        action = ids[rng.randrange(len(ids))]
        game.apply(action)
        yield action
    raise AssertionError(f"{game.name} did not end within {limit} actions")


def played(config: tuple[str, dict[str, Any]], seed: int, limit: int = 4000) -> Game:
    """A game of ``config`` after up to ``limit`` seeded random actions (or to its end)."""
    name, kwargs = config
    game = new_game(name, seed=seed, **kwargs)
    for i, _ in enumerate(random_steps(game, random.Random(seed))):
        if i + 1 >= limit:
            break
    return game


def check_invariants(game: Game) -> None:
    """Invariants that hold after every action (design.md)."""
    assert game.all_cards() == composition(game), "card conservation"
    ids = list(game.legal_action_ids())
    assert ids == sorted(set(ids)), "legal ids ascending and unique"
    assert (len(ids) == 0) == game.is_over, "legal actions empty exactly when over"
    assert all(0 <= i < game.num_distinct_actions for i in ids)
    if game.is_over:
        assert game.current_player is None and game.winners
    else:
        assert game.current_player is not None and game.winners == []
    for p in range(game.num_players):
        view = game.view(p)
        json.dumps(view)
        assert view["legal_actions"] == ([game.action_from_id(i).label for i in ids]
                                         if game.current_player == p else [])
        assert len(view["hand"]) == view["hand_sizes"][p]
