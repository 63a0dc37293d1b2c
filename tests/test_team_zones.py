"""Team zones follow ``Game.sides_of`` (issue 34): a fixture kernel whose four seats form the
sides [0, 0, 1, 1] (tests/fixtures/team_zones_state.pyx, compiled here into a temporary
folder) has a team pile per side seen only by that side's seats, not by ``seat % 2``; and the
shared zone table (cardcore.zones) and a Game's states follow the game's sides."""
from __future__ import annotations

from pathlib import Path

import pytest

from fixture_kernels import build_fixture_kernel

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests" / "fixtures" / "team_zones_state.pyx"
SIDES = [0, 0, 1, 1]
# The fixture kernel is compiled with the machine's C compiler: in the quick loop (-m "not
# slow") CI runs against the wheel, there is no compiler on PATH; the suite runs these.
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def kernel(tmp_path_factory):
    """The fixture kernel, built with Cython against this checkout's cardcore/_fast.pxd."""
    return build_fixture_kernel(FIXTURE, tmp_path_factory.mktemp("team_zones"))


def started(kernel, sides=SIDES):
    state = kernel.TeamZonesState()
    state.set_sides(sides)
    state.seed_rng(3)
    state.start()
    return state


def test_a_team_pile_is_seen_by_its_sides_seats_only(kernel):
    state = started(kernel)
    assert ("team_pile", "team", 2, "owner") in state.zones()
    seen = {seat: [state.zone_sees("team_pile", i, seat) for i in range(2)] for seat in range(4)}
    # [0, 0, 1, 1]: seats 0 and 1 see pile 0, seats 2 and 3 pile 1 (seat % 2 would give
    # seat 1 pile 1 and seat 2 pile 0)
    assert seen == {0: [True, False], 1: [True, False], 2: [False, True], 3: [False, True]}
    for seat in range(4):
        assert [state.zone_sees("hand", i, seat) for i in range(4)] == [i == seat for i in range(4)]


def test_the_sides_are_the_states_own_and_kept_by_its_copies(kernel):
    state = started(kernel, [1, 1, 0, 0])
    assert state.sides == (1, 1, 0, 0)
    assert state.zone_sees("team_pile", 1, 0) and not state.zone_sees("team_pile", 0, 0)
    assert state.clone().sides == (1, 1, 0, 0)
    assert state.sample_hidden(2, 9).sides == (1, 1, 0, 0)
    bare = kernel.TeamZonesState()
    assert bare.sides is None and not any(
        bare.zone_sees("team_pile", i, seat) for i in range(2) for seat in range(4))
    with pytest.raises(ValueError, match="one per seat"):
        bare.set_sides([0, 1])


def test_the_zone_table_follows_the_sides(kernel):
    """cardcore.zones.ZoneTable asks the state who sees each zone: a side's pile is its
    seats', and the match's one round ends with round_index moved."""
    from cardcore.zones import ZoneTable

    class Fixture:
        name = "team_zones"
        split_zones: dict = {}
        zone_layouts: dict = {}      # Game's default: no zone laid out
        deck_zone = "stock"
        zone_labels = {"hand": "cards in hand", "team_pile": "team pile", "stock": "stock"}

        @classmethod
        def sides_of(cls, players, options):
            return list(SIDES)

    state = started(kernel)
    game = Fixture()            # what ZoneTable reads of a Game: its class's declarations
    game.num_players, game.options, game._state = 4, {}, state
    table = ZoneTable(game)
    assert table.sight["team_pile:0"] == {0, 1} and table.sight["team_pile:1"] == {2, 3}
    assert [z["team"] for z in table.static if z["kind"] == "team_pile"] == [0, 1]
    assert [z["team"] for z in table.static if z["kind"] == "hand"] == SIDES
    while not state.is_over:
        state.apply(state.legal_ids()[0])
    assert state.round_index == 1
