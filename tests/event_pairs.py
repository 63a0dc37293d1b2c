"""Stacked-deck pairs: two games whose decks differ only in cards seat 0 cannot see, played
with the same actions; while a seat's views agree, its events must agree too (a seat's
events never reveal more than its view). Each game's tests run it on its configurations."""
from __future__ import annotations

import random
from typing import Any, Callable, Collection

from cardcore import new_game
from cardcore.cards import card_str


def _swap_pairs(game, seat, deck, rng, count, accept=lambda i, j: True):
    hidden = game.hidden_deck_positions(seat)
    pairs = []
    while len(pairs) < count:
        i, j = rng.sample(hidden, 2)
        if deck[i] != deck[j] and accept(i, j):
            pairs.append((i, j))
    return pairs


def _compare_pair(name, kwargs, deck, swapped, seed, policy_seed, steps, loud):
    """Play both games with the same actions (legal in both); while a seat's view has been
    the same in both at every step so far, its events must be the same too. Returns the
    highest round index reached with seat 0's view still equal. ``loud``: ids to play only
    when nothing else is legal in both (a move that shows a hand, say)."""
    a = new_game(name, seed=seed, deck=deck, **kwargs)
    b = new_game(name, seed=seed, deck=swapped, **kwargs)
    seats = list(range(a.num_players))
    equal = {s: a.view(s) == b.view(s) for s in seats}
    assert equal[0]
    seen = {s: 0 for s in seats}
    rng = random.Random(policy_seed)
    reached = 0
    for _ in range(steps):
        for s in seats:
            if equal[s]:
                ea, eb = a.events(s, since=seen[s]), b.events(s, since=seen[s])
                assert ea == eb, (name, s)
                seen[s] += len(ea)
        if not equal[0] or a.is_over:
            break
        reached = max(reached, a._state.round_index)
        common = sorted(set(a.legal_action_ids()) & set(b.legal_action_ids()))
        if not common:
            break
        quiet = [i for i in common if i not in loud]       # keep loud moves for last
        action = rng.choice(quiet or common)
        a.apply(action)
        b.apply(action)
        for s in seats:
            equal[s] = equal[s] and a.view(s) == b.view(s)
    return a._state.round_index if equal[0] and a.is_over else reached   # ended unseen: all of it


def check_event_pairs(name: str, kwargs: dict[str, Any], steps: int,
                      accept: Callable[[list[str], int, int], bool] = lambda deck, i, j: True,
                      loud: Collection[int] = ()) -> None:
    """Eight swapped pairs of one stacked deck; at least two must get past the first deal
    with seat 0's view unchanged. ``accept(deck, i, j)`` may narrow the positions swapped."""
    probe = new_game(name, seed=1, **kwargs)
    composition = [card_str(c) for c in probe.deck_for(probe.num_players, probe.options)]
    rng = random.Random(17)
    deck = rng.sample(composition, len(composition))
    game = new_game(name, seed=1, deck=deck, **kwargs)
    past_first_deal = 0
    for k, (i, j) in enumerate(_swap_pairs(game, 0, deck, rng, 8,
                                           lambda i, j: accept(deck, i, j))):
        swapped = list(deck)
        swapped[i], swapped[j] = swapped[j], swapped[i]
        if _compare_pair(name, kwargs, deck, swapped, 1, k, steps, set(loud)) >= 1:
            past_first_deal += 1
    assert past_first_deal >= 2
