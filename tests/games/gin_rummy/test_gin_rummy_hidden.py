"""Gin Rummy sample_hidden (games/gin_rummy.md, GR-10): worlds are drawn among the deals
consistent with what the seat saw, and never contradict its view, tensor or events.

The reburied eight of a shuffled deal (GR-10.3) is checked against an independent model: the
game's chance as OpenSpiel has it (every card dealt or drawn uniformly from the cards left, a
turned-up eight going back among them), conditioned on what the seat saw by rejection."""
from __future__ import annotations

import random
from collections import Counter

import numpy as np

from cardcore import new_game
from cardcore.cards import card_id, card_str

from gr_helpers import ce, chi2_bound, chi2_fit, chi2_homogeneity


def where(state, card) -> object:
    """The seat holding ``card`` (one deck), or "stock"."""
    return next((p for p in range(state.num_players) if card in state.hand(p)), "stock")


def zone_classes(state, seat) -> dict:
    """Per other seat, its count of unknown cards of each source class; and the stock's."""
    out = {p: Counter(c for _, c in state.source_classes(p))
           for p in range(state.num_players) if p != seat}
    out["stock"] = Counter({state.stock_class: state.stock_size - len(state.stock_bottom_known())})
    return out


def check_world(game, world, seat) -> None:
    """Nothing the seat can observe differs (GR-10: a world never contradicts the seat)."""
    assert world.view(seat) == game.view(seat)
    assert np.array_equal(world.observation_tensor(seat), game.observation_tensor(seat))
    assert world.all_cards() == game.all_cards()
    assert zone_classes(world._state, seat) == zone_classes(game._state, seat)


# ---------------------------------------------------------------- GR-10.3, the reference model
def steer(game, observer: int, rounds: int) -> list[tuple[int, str, list[int]]]:
    """A fixed line of play: seat 1 draws once and plays on its first turn, then draws two and
    passes; seat 2 always draws two and passes; the observer plays its lowest card, else draws
    two and passes. Returns (seat, action, cards drawn) per action."""
    log: list[tuple[int, str, list[int]]] = []
    turns: Counter = Counter()

    def act(text: str) -> None:
        seat = game.current_player
        game.apply(text)
        log.append((seat, text, game._state.last_drawn()))

    def plays() -> list[str]:
        return [str(a) for a in game.legal_actions() if a.kind == "play"]

    while not game.is_over and turns[game.current_player] < rounds:
        seat = game.current_player
        turns[seat] += 1
        if seat == observer and plays():
            act(plays()[0])
        elif seat == 1 and turns[seat] == 1:
            act("draw")
            act(plays()[0] if plays() else "draw")
        else:
            act("draw")
            act("draw")
            act("pass")
        if game.phase == "nominate":
            act("nominate C")
    return log


def urn_model(fresh, log, observer: int, trials: int, seed: int, eight: int) -> Counter:
    """Where the eight is, in the deals consistent with what ``observer`` saw (rejection):
    every card another seat gets is uniform among the cards left that the observer does not
    see later (dealt to it, turned up, drawn by it); a play by another seat must be of a card it
    holds. Written from the rules alone, without the kernel's sampler."""
    state = fresh._state
    players, dealer = fresh.num_players, state.dealer
    per_hand = 7 if players == 2 else 5
    mine = state.hand(observer)
    turn_ups = state.reburied() + state.discard()[:1]
    my_draws = [c for seat, _, drawn in log if seat == observer for c in drawn]
    rng = random.Random(seed)
    found: Counter = Counter()
    for _ in range(trials):
        left = set(range(52))
        later = set(mine) | set(turn_ups) | set(my_draws)      # seen by the observer later
        hands: list[list[int]] = [[] for _ in range(players)]
        dealt_to_me = iter(mine)
        for i in range(players * per_hand):
            seat = (dealer + 1 + i) % players
            card = next(dealt_to_me) if seat == observer else rng.choice(sorted(left - later))
            left.remove(card)
            hands[seat].append(card)
        for card in turn_ups:
            left.remove(card)
            later.discard(card)
            if card_str(card).startswith("8"):
                left.add(card)                                 # back into the deck
        drawn_by_me = iter(my_draws)
        consistent = True
        for seat, action, _ in log:
            if action == "draw":
                card = next(drawn_by_me) if seat == observer else rng.choice(sorted(left - later))
                later.discard(card)
                left.remove(card)
                hands[seat].append(card)
            elif action.startswith("play"):
                card = card_id(action.split()[1])
                if card not in hands[seat]:
                    consistent = False
                    break
                hands[seat].remove(card)
        if consistent:
            found[next((p for p in range(players) if eight in hands[p]), "stock")] += 1
    return found


def reburied_scenario():
    """The first seeded 3-player deal with one eight put back into the stock, whose steered
    play leaves it unseen by seat 0, with seat 1 having played one card and seat 2 none."""
    for seed in range(1000):
        game = new_game("gin_rummy", players=3, seed=seed, max_draw_cards=2)
        if len(game._state.reburied()) != 1:
            continue
        fresh = game.clone()
        log = steer(game, 0, 3)
        eight = game._state.reburied()[0]
        plays = Counter(seat for seat, action, _ in log if action.startswith("play"))
        if not game.is_over and eight not in game._state.hand(0) and plays[1] == 1 \
                and plays[2] == 0 and eight not in game._state.discard():
            return game, fresh, log, eight
    raise AssertionError("no scenario found")


def test_gr_10_3_a_reburied_eight_is_placed_by_its_exact_posterior():
    game, fresh, log, eight = reburied_scenario()
    assert game._state.reburied_tracked == [eight]
    reference = urn_model(fresh, log, 0, 24_000, 1, eight)
    sampled: Counter = Counter()
    for seed in range(5000):
        world = game.sample_hidden(0, seed)
        sampled[where(world._state, eight)] += 1
        if seed < 50:
            check_world(game, world, 0)
    zones = ["stock", 1, 2]
    stat, df = chi2_homogeneity([reference[z] for z in zones], [sampled[z] for z in zones])
    assert sum(reference.values()) > 2500 and stat < chi2_bound(df), (reference, sampled)
    # The test can tell a wrong rule apart: spreading the eight over the unseen places of the
    # seats that drew (by hand size) is far from the reference.
    sizes = game._state.hand_sizes()
    places = [game._state.stock_size, sizes[1], sizes[2]]
    naive = [n / sum(places) for n in places]
    assert chi2_fit([reference[z] for z in zones], naive) > 10 * chi2_bound(2)


def test_gr_10_3_a_seat_that_has_not_drawn_never_gets_the_reburied_eight():
    for seed in range(400):
        game = new_game("gin_rummy", players=4, seed=seed)
        eights = game._state.reburied_tracked
        if not eights:
            continue
        first = game.current_player
        game.apply("draw")                                     # only the first seat draws
        seat = (first + 2) % 4
        for k in range(60):
            world = game.sample_hidden(seat, k)._state
            for e in eights:
                if e not in game._state.hand(seat):
                    assert where(world, e) in ("stock", first)
        return
    raise AssertionError("no deal with an eight put back")


# ---------------------------------------------------------------- GR-10.1 sources after a reshuffle
def reshuffled_game():
    """3 players, a stacked deck: six plays, seat 1 drains the stock (the discard but its top
    becomes the stock, GR-6.1), draws one more and plays; seat 2 draws one and plays; seat 0
    draws one."""
    hands = {1: ["7H", "7S", "6C", "KD", "3S"], 2: ["7C", "5S", "AD", "9C", "2D"],
             0: ["7D", "9S", "4H", "5H", "QC"]}
    game = ce(hands=hands, turn_up=["9H"], reshuffle=True, max_draw_cards=100, seed=8)
    for action in ("play 7H", "play 7C", "play 7D", "play 7S", "play 5S", "play 9S"):
        game.apply(action)
    while game._state.reshuffles == 0:
        game.apply("draw")
    for action in ("draw", "play 9D", "draw", "play 2D", "draw"):
        game.apply(action)
    return game


def test_gr_10_1_cards_are_redealt_within_their_source():
    game = reshuffled_game()
    state = game._state
    reshuffled = {card_id(c) for c in ("9H", "7H", "7C", "7D", "7S", "5S")}   # 9S stayed on top
    assert state.stock_class == 1 and game.view(0)["top_card"] == "2D"
    known = zone_classes(state, 0)
    assert known[1][1] == 1 and known[2][1] == 1 and known["stock"] == Counter({1: 3})
    unknown_reshuffled = sorted(reshuffled - set(state.hand(0)))
    unknown_dealt = sorted(c for p in (1, 2) for c, k in state.source_classes(p) if k == 0)
    probe_new, probe_old = unknown_reshuffled[0], unknown_dealt[0]
    new_at: Counter = Counter()
    old_at: Counter = Counter()
    for seed in range(4000):
        world = game.sample_hidden(0, seed)
        if seed < 40:
            check_world(game, world, 0)
        assert set(world._state.stock()) <= reshuffled               # never an old card
        new_at[where(world._state, probe_new)] += 1
        old_at[where(world._state, probe_old)] += 1
    assert old_at["stock"] == 0
    places_new = [known["stock"][1], known[1][1], known[2][1]]
    places_old = [known[1][0], known[2][0]]
    assert chi2_fit([new_at["stock"], new_at[1], new_at[2]],
                    [n / sum(places_new) for n in places_new]) < chi2_bound(2)
    assert chi2_fit([old_at[1], old_at[2]], [n / sum(places_old) for n in places_old]) < chi2_bound(1)


# ---------------------------------------------------------------- GR-10.2 known places
def test_gr_10_2_a_stacked_decks_reburied_eight_keeps_its_known_place():
    game = ce(hands={1: ["7H", "7S", "6C", "KD", "3S"]}, turn_up=["8C", "5H"],
              max_draw_cards=100)
    for seed in range(30):
        world = game.sample_hidden(0, seed)
        assert world._state.stock()[-1] == card_id("8C")
        check_world(game, world, 0)
    while game.view(0)["stock_size"]:
        game.apply("draw")                                        # seat 1 takes it last
    assert game.view(0)["known_eights"] == [[], ["8C"], []]
    for seed in range(30):
        world = game.sample_hidden(2, seed)
        assert card_id("8C") in world._state.hand(1)
        check_world(game, world, 2)
    game.apply("play 7H")                                         # the known 8C stays known
    game.apply("pass")
    game.apply("pass")
    game.apply("play 8C")
    assert game.view(0)["known_eights"] == [[], [], []]


# ---------------------------------------------------------------- GR-10.4 two decks
def test_gr_10_4_two_decks_do_not_track_a_reburied_eight():
    for seed in range(300):
        six = new_game("gin_rummy", players=6, seed=seed)
        if six._state.reburied():
            assert six._state.reburied_tracked == []
            world = six.sample_hidden(0, 1)
            check_world(six, world, 0)
            return
    raise AssertionError("no six-player deal with an eight put back")


def test_gr_10_4_two_decks_merge_sources_a_play_cannot_tell_apart():
    """Seat 3 holds a dealt 9C; the other 9C is played and reshuffled; seat 3 then draws from the
    new stock and plays a 9C: nobody can tell which source it left, so the two merge."""
    hands = {1: ["9C", "4D", "4S", "5D", "5S"], 2: ["4C", "6D", "6S", "10D", "10S"],
             3: ["9C", "JD", "JS", "QD", "QS"]}
    game = ce(6, hands=hands, turn_up=["9H"], reshuffle=True, max_draw_cards=104, seed=3)
    game.apply("play 9C")
    game.apply("play 4C")
    while game._state.reshuffles == 0:
        game.apply("draw")                                        # seat 3 drains the stock
    game.apply("draw")                                            # and takes a reshuffled card
    assert {k for _, k in game._state.source_classes(3)} == {0, 1}
    game.apply("play 9C")
    assert {k for p in range(6) for _, k in game._state.source_classes(p)} == {0}
    assert game._state.stock_class == 0
    for seed in range(20):
        check_world(game, game.sample_hidden(0, seed), 0)


def test_gr_10_4_at_most_eight_sources_the_oldest_merge():
    """A reshuffle while the hands hold cards of eight sources merges the two oldest."""
    for seed in range(200):
        game = new_game("gin_rummy", players=4, seed=seed, reshuffle=True, max_turns=2000,
                        max_draw_cards=10)
        rng = random.Random(seed)
        while not game.is_over:
            s = game._state
            held = {k for p in range(4) for _, k in s.source_classes(p)}
            shuffles = s.reshuffles
            ids = game.legal_action_ids()
            game.apply(ids[rng.randrange(len(ids))])
            live = {k for p in range(4) for _, k in s.source_classes(p)} | {s.stock_class}
            assert live <= set(range(8))
            if len(held) == 8 and s.reshuffles > shuffles and not game.is_over:
                assert len(live) <= 8 and s.stock_class in live
                for k in range(12):
                    check_world(game, game.sample_hidden(k % 4, k), k % 4)
                return
    raise AssertionError("no game needed a ninth source")


# ---------------------------------------------------------------- GR-10.5 only what the seat knows
def test_gr_10_5_worlds_depend_only_on_what_the_seat_knows():
    """A world drawn from another world of the same seat is the world drawn from the game: the
    samples read only public knowledge and the seat's own cards (reshuffles, a reburied eight,
    special cards and two decks included)."""
    cases = [reburied_scenario()[0], reshuffled_game()]
    for players, options in ((3, {"use_special_cards": True, "reshuffle": True}),
                             (6, {"reshuffle": True}), (2, {})):
        game = new_game("gin_rummy", players=players, seed=5, **options)
        rng = random.Random(5)
        for _ in range(60):
            if game.is_over:
                break
            ids = game.legal_action_ids()
            game.apply(ids[rng.randrange(len(ids))])
        cases.append(game)
    for game in cases:
        for seat in range(game.num_players):
            other = game.sample_hidden(seat, 99)
            for seed in (1, 2):
                a, b = game.sample_hidden(seat, seed), other.sample_hidden(seat, seed)
                assert [a.view(p) for p in range(a.num_players)] == \
                    [b.view(p) for p in range(b.num_players)]
                assert a._state.stock() == b._state.stock()
                check_world(game, a, seat)
            assert other.events(seat) == [] and other.action_log() == []   # its own history


def test_worlds_never_contradict_the_seat_in_random_games():
    for seed in range(12):
        rng = random.Random(seed)
        players = rng.choice([2, 3, 4, 5, 6])
        options = {"use_special_cards": rng.random() < 0.5, "reshuffle": rng.random() < 0.5,
                   "max_draw_cards": rng.choice([1, 3, 5])}
        game = new_game("gin_rummy", players=players, seed=seed, **options)
        step = 0
        while not game.is_over:
            if step % 5 == 0:
                seat = rng.randrange(players)
                world = game.sample_hidden(seat, step)
                check_world(game, world, seat)
                if world.current_player == seat:
                    assert world.legal_action_ids() == game.legal_action_ids()
            ids = game.legal_action_ids()
            game.apply(ids[rng.randrange(len(ids))])
            step += 1
