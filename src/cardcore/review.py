"""Game review: how a seat's moves compare with the best ones a search finds, decision by
decision, from the seat's information only (``cardcore review``).

``review(game, seat)`` replays ``game``'s log from its deal. At each decision of ``seat`` with
more than one legal move, the reference estimates every legal move: ``searches`` (5) seeded
searches (``ISMCTSBot.suggest``: worlds drawn from what the seat could see, never the others'
hidden cards), each move's estimate the mean over the searches with a 95% t-interval across
them. The best move is the reference's (the most visited over the searches, or the chosen
one if its mean is as high); the loss is best − chosen, its interval a paired t interval
over the searches; a decision is a mistake only when that whole interval lies above
``threshold`` (0.10 by default, a share of wins or of the points margin): the loss is
significantly larger than the threshold, so noise near it does not flag a move under one
seed and not the next (the stability test: a decision flagged under one of three seeds is
flagged under all three in >= 80% of cases, pooled over every game).

The reference (``reference_spec``) is configurable: ``reference="ismcts:iterations=..."`` or
``"level:N"``; the default is the game's own (``Game.review_reference``, declared with its
levels; level 5's search without its time cap where a game declares none) run ``searches``
times. The reference's move, the decision's best, is the one the searches visited most in
all (a root-parallel ensemble: pooled visits played stronger than the highest mean estimate);
``ReferenceBot`` plays it, and benchmarks/review_reference.py measures it against the levels
(docs/bots.md has the figures). A game that declares ``review_exploration`` splits the two
jobs (``estimate_spec``): its reference's searches, at a playing exploration, pick the move,
and one search of the same spec at the wider exploration per search (the same seed)
estimates every move, so that a move the player chose and the reference dislikes still has
an estimate from more than a few playouts. Searches are seeded per
decision (``bot_seed``) and bound by iterations only, so a review is the same on every
machine, and the same for two deals that differ only in cards hidden from the seat. ``review_batch`` reviews many matches and pools mistakes per
decision with an interval. ``review_lines`` and ``batch_lines`` write them as text in English
or Russian.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from collections.abc import Iterable
from typing import Any

from cardcore.bots import BotSpec, LEVELS, make_bot, parse_bot_spec
from cardcore.bots.base import Bot
from cardcore.errors import ConfigError, echo
from cardcore.game import Game, is_int
from cardcore.i18n import _, check_lang, ngettext, use
from cardcore.registry import game_class, load_game, new_game
from cardcore.tournament import Z95, wilson_interval

__all__ = ["DEFAULT_THRESHOLD", "DEFAULT_SEARCHES", "DEFAULT_TOP", "REFERENCE_FACTOR",
           "Reference", "ReferenceBot", "estimate_spec", "load_for_review", "reference_spec",
           "review", "batch_lines", "review_batch", "review_lines", "search_spec"]

DEFAULT_THRESHOLD = 0.10
DEFAULT_SEARCHES = 5        # seeded searches per decision: their spread is the interval
MAX_SEARCHES = 10
CONFIDENCE = 0.95          # of every interval of a review (T975, Z95)
DEFAULT_TOP = 3             # candidates listed per decision
# The default reference searches this many times level 5's iterations per search (and
# DEFAULT_SEARCHES searches): benchmarks/review_reference.py measures it against the levels.
REFERENCE_FACTOR = 1
# Student's t 97.5th percentiles for 1..10 degrees of freedom (the normal's beyond): a
# table rather than scipy for the few numbers a review needs.
T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228)
# A review estimates every legal move, not only the one to play: a wider exploration than a
# playing bot's spreads the visits, so a move the search dislikes still gets an estimate from
# more than a handful of playouts (planted blunders were flagged more often in a test game).
REVIEW_EXPLORATION = 3.0
MAX_REVIEW_BYTES = 8 * 1024 * 1024          # a save or record read for review, at most


def search_spec(game_name: str, level: int, iterations: int | None = None) -> BotSpec:
    """The search a review at ``level`` runs: the level's ISMCTS spec (level 5's for a level
    without a search) without its time cap and with ``REVIEW_EXPLORATION``, ``iterations``
    replacing the level's if given."""
    if not is_int(level) or level not in LEVELS:
        raise ConfigError(f"level must be an int 1..5, not {echo(level)}", "level")
    levels = game_class(game_name).levels
    spec = parse_bot_spec(levels[level])
    if spec.name != "ismcts":
        spec = parse_bot_spec(levels[5])
    params = {k: v for k, v in spec.params if k != "think_ms"}
    params["exploration"] = REVIEW_EXPLORATION
    if iterations is not None:
        params["iterations"] = _check_iterations(iterations)
    return BotSpec(spec.name, tuple(sorted(params.items())))


def _check_iterations(iterations: Any) -> int:
    if not is_int(iterations) or not 1 <= iterations <= 1_000_000:
        raise ConfigError(f"iterations must be an int 1..1000000, not {echo(iterations)}",
                          "iterations")
    return int(iterations)


def reference_spec(game_name: str, reference: str | BotSpec | None = None,
                   iterations: int | None = None) -> BotSpec:
    """The search each of a review's searches runs. ``None``: the default reference, the
    game's ``review_reference`` (an ismcts spec, as given), or where it declares none level
    5's search with ``REFERENCE_FACTOR`` times its iterations, no time cap and
    ``REVIEW_EXPLORATION``; ``"level:N"``: that level's (``search_spec``); an ``ismcts`` spec
    as given (``exploration`` ``REVIEW_EXPLORATION`` unless it sets one; a ``think_ms`` is
    refused: a review is bound by iterations, the same on every machine). ``iterations``
    replaces the spec's. ConfigError (option "reference") for another bot."""
    if reference is None:
        declared = game_class(game_name).review_reference
        if declared is not None:
            return reference_spec(game_name, declared, iterations)
        spec = search_spec(game_name, 5)
        params = dict(spec.params)
        params["iterations"] = REFERENCE_FACTOR * int(params.get("iterations", 1000))
        if iterations is not None:
            params["iterations"] = _check_iterations(iterations)
        return BotSpec(spec.name, tuple(sorted(params.items())))
    spec = parse_bot_spec(reference)
    if spec.name == "level":
        level: Any = dict(spec.params).get("level")
        return search_spec(game_name, level if is_int(level) else 0, iterations)
    if spec.name != "ismcts":
        raise ConfigError(f"a reference is an ismcts spec or level:N, not {echo(str(spec))}",
                          "reference")
    params = dict(spec.params)
    if "think_ms" in params:
        raise ConfigError("a reference is bound by iterations, not think_ms (a review must be "
                          "the same on every machine)", "reference")
    params.pop("seed", None)
    params.setdefault("exploration", REVIEW_EXPLORATION)
    if iterations is not None:
        params["iterations"] = _check_iterations(iterations)
    return BotSpec(spec.name, tuple(sorted(params.items())))


def estimate_spec(game_name: str, reference: str | BotSpec | None = None,
                  iterations: int | None = None) -> BotSpec | None:
    """The search that estimates every move where it is not the reference's own: for the
    default reference (``reference`` None) of a game that declares ``review_exploration``,
    the reference's spec at that exploration (``iterations`` replacing its iterations too);
    else None (the reference's searches pick the move and estimate every move)."""
    exploration = game_class(game_name).review_exploration if reference is None else None
    if exploration is None:
        return None
    params = dict(reference_spec(game_name, None, iterations).params)
    params["exploration"] = float(exploration)
    return BotSpec("ismcts", tuple(sorted(params.items())))


def _fresh(game: Game) -> Game:
    """``game``'s configuration (players, seed, stacked deck, options) before any move."""
    save = json.loads(game.to_json())
    return new_game(save["game"], players=save["players"], seed=save["seed"],
                    deck=save["deck"], **save["options"])


def _t95(n: int) -> float:
    """Student's t 97.5th percentile for ``n`` - 1 degrees of freedom (n >= 2)."""
    return T975[n - 2] if n - 2 < len(T975) else Z95


def _interval(values: list[float]) -> tuple[float, float]:
    """The mean of ``values`` and the half-width of its 95% t-interval (inf below 2 values)."""
    n = len(values)
    mean = sum(values) / n if n else 0.0
    if n < 2:
        return mean, math.inf
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    return mean, _t95(n) * sd / math.sqrt(n)


def _bounds(mean: float, half: float, low: float = 0.0) -> list[float]:
    return [max(low, mean - half), min(1.0, mean + half)]


@dataclass(frozen=True)
class _Move:
    """One legal move's estimates at a decision: one per search that tried it."""

    id: int
    estimates: tuple[float | None, ...]
    visits: int

    @property
    def tried(self) -> list[float]:
        return [e for e in self.estimates if e is not None]

    @property
    def mean(self) -> float:
        return _interval(self.tried)[0]


class Reference:
    """A review's reference: ``searches`` seeded searches of ``spec`` per decision, each
    estimating every legal move from one seat's information; the reference's move is the one
    the searches visited most in all (``ReferenceBot`` plays it). With ``estimates`` (a
    spec, ``estimate_spec``), each search of ``spec`` only picks the move (its visits) and a
    search of ``estimates`` with the same seed gives every move's estimate."""

    def __init__(self, spec: BotSpec, searches: int = DEFAULT_SEARCHES,
                 estimates: BotSpec | None = None) -> None:
        # two searches at least: one gives no interval, so no loss would be significant
        if not is_int(searches) or not 2 <= searches <= MAX_SEARCHES:
            raise ConfigError(f"searches must be an int 2..{MAX_SEARCHES}, not "
                              f"{echo(searches)}", "searches")
        self.spec, self.searches, self.estimates = spec, searches, estimates

    @classmethod
    def of(cls, game_name: str, reference: str | BotSpec | None = None,
           searches: int = DEFAULT_SEARCHES, iterations: int | None = None,
           level: int | None = None) -> Reference:
        """The reference a review or a ``ReferenceBot`` uses: ``level``'s search if a level
        is given (``search_spec``), else ``reference_spec``'s, with ``estimate_spec``'s
        estimates (only the default reference of a game that declares
        ``review_exploration`` has any)."""
        if level is not None:
            return cls(search_spec(game_name, level, iterations), searches)
        return cls(reference_spec(game_name, reference, iterations), searches,
                   estimate_spec(game_name, reference, iterations))

    def estimate(self, position: Game, seat: int, seed: int, number: int) -> dict[int, _Move]:
        """Every legal move's estimates at ``position`` (``seat`` to move), the searches
        seeded from ``seed`` and the move number: the same for the same arguments."""
        from cardcore.simulation import bot_seed

        legal = [int(i) for i in position.legal_action_ids()]
        found: dict[int, list[float | None]] = {i: [] for i in legal}
        visits = dict.fromkeys(legal, 0)
        for j in range(self.searches):
            # search 0 keeps the seed of a one-search review (earlier releases' reviews)
            search_seed = bot_seed(seed if j == 0 else bot_seed(seed, j, -1), number, seat)
            hints = make_bot(self.spec, search_seed).suggest(position, seat=seat,
                                                             top=len(legal))
            got = {h["action"].id: h for h in hints if h["visits"] > 0}
            rated = got if self.estimates is None else {
                h["action"].id: h for h in make_bot(self.estimates, search_seed).suggest(
                    position, seat=seat, top=len(legal)) if h["visits"] > 0}
            for i in legal:
                found[i].append(float(rated[i]["estimate"]) if i in rated else None)
                visits[i] += int(got[i]["visits"]) if i in got else 0
        return {i: _Move(i, tuple(found[i]), visits[i]) for i in legal}

    @staticmethod
    def best(moves: dict[int, _Move]) -> int:
        """The move the searches visited most in all, the higher mean estimate among equals
        (then the first legal one). Pooled visits, not the highest mean: a move a search
        seldom tried can have a high mean by luck, and visits are what a search plays by."""
        return max(moves.values(), key=lambda m: (m.visits, bool(m.tried), m.mean)).id


class ReferenceBot(Bot):
    """A bot that plays a review's reference move: ``ReferenceBot(game_name, reference=None,
    searches=5, seed=None, iterations=None)`` (``reference_spec``'s arguments), so that the reference can be
    measured against the levels (benchmarks/review_reference.py)."""

    name = "reference"

    def __init__(self, game_name: str, reference: str | BotSpec | None = None,
                 searches: int = DEFAULT_SEARCHES, seed: int | None = None,
                 iterations: int | None = None) -> None:
        super().__init__(seed)
        self.reference = Reference.of(game_name, reference, searches, iterations)
        self._seed = 0 if seed is None else seed
        self._moves = 0

    def choose_id(self, game: Game) -> int:
        ids = game.legal_action_ids()
        if len(ids) == 0:
            raise ValueError("the game is over: there is no action to choose")
        if len(ids) == 1:
            return int(ids[0])
        self._moves += 1
        seat = game.current_player
        assert seat is not None
        return self.reference.best(self.reference.estimate(game, seat, self._seed,
                                                           self._moves))


def _candidate(game: Game, move: _Move) -> dict[str, Any]:
    mean, half = _interval(move.tried)   # a move no search tried: 0, interval [0, 1]
    return {"move": str(game.action_from_id(move.id)), "estimate": mean,
            "interval": _bounds(mean, half), "visits": move.visits}


def review(game: Game, seat: int, level: int | None = None,
           threshold: float = DEFAULT_THRESHOLD, seed: int = 0, iterations: int | None = None,
           *, reference: str | BotSpec | None = None, searches: int = DEFAULT_SEARCHES,
           top: int = DEFAULT_TOP) -> dict[str, Any]:
    """The review of ``seat``'s decisions in ``game`` (finished or not). The reference is
    ``reference`` (``reference_spec``: None is the default reference), or ``level``'s search
    if a level is given (not both); ``searches`` seeded searches of it estimate every legal
    move per decision. Per decision: the move number, the round (the round, deal or hand it
    falls in, from 1: the round-end events before it, plus one), the chosen and the best move
    (the reference's: the most visited over the searches, or the chosen one if its mean is
    as high) with their mean estimates and 95% intervals across the searches, the ``top``
    candidates, the loss (best − chosen) with its interval (a paired t
    interval over the searches), and whether it is a mistake: a loss whose whole interval
    lies above ``threshold`` (significantly more than the threshold). And a summary, with
    mistakes per decision and its Wilson interval. JSON-serializable."""
    if not is_int(seat) or not 0 <= seat < game.num_players:
        raise ConfigError(f"seat must be 0..{game.num_players - 1}, not {echo(seat)}", "seat")
    if isinstance(threshold, bool) or not isinstance(threshold, (int, float)) \
            or not 0 <= threshold <= 1:
        raise ConfigError(f"threshold must be a number 0..1, not {echo(threshold)}",
                          "threshold")
    if not is_int(seed) or seed < 0:
        raise ConfigError(f"seed must be a non-negative int, not {echo(seed)}", "seed")
    if not is_int(top) or not 1 <= top <= 100:
        raise ConfigError(f"top must be an int 1..100, not {echo(top)}", "top")
    if level is not None and reference is not None:
        raise ConfigError("give a level or a reference, not both", "reference")
    ref = Reference.of(game.name, reference, searches, iterations, level)
    spec = ref.spec
    position = _fresh(game)
    decisions: list[dict[str, Any]] = []
    rounds_ended = seen = 0        # round-end events so far: the round is the next one
    for number, action_id in enumerate(game.action_log()):
        if position.current_player == seat and len(position.legal_action_ids()) > 1:
            events = position.events(seat, seen)
            seen += len(events)
            rounds_ended += sum(e["kind"] == position.round_end_event for e in events)
            decisions.append(_decision(position, ref, seat, seed, number, rounds_ended + 1,
                                       int(action_id), threshold, top))
        position.apply(action_id)
    mistakes = sum(d["mistake"] for d in decisions)
    return {
        "game": game.name, "seat": seat, "level": level, "reference": str(spec),
        "search": str(spec), "searches": ref.searches,
        "estimates": None if ref.estimates is None else str(ref.estimates),
        "seed": seed, "threshold": threshold,
        "decisions": decisions,
        "summary": {"decisions": len(decisions), "mistakes": mistakes,
                    "mistakes_per_decision": mistakes / len(decisions) if decisions else 0.0,
                    "interval": list(wilson_interval(mistakes, len(decisions))),
                    "mean_loss": sum(d["loss"] for d in decisions) / len(decisions)
                    if decisions else 0.0,
                    "best_moves": sum(d["chosen"] == d["best"] for d in decisions),
                    "over": game.is_over, "winners": game.winners},
    }


def _decision(position: Game, ref: Reference, seat: int, seed: int, number: int,
              round_number: int, action_id: int, threshold: float, top: int
              ) -> dict[str, Any]:
    """One decision's entry of ``review``."""
    moves = ref.estimate(position, seat, seed, number)
    chosen = moves[action_id]
    best = moves[ref.best(moves)]
    # A chosen move at least as good as the reference's by the means is the best; one no
    # search tried counts 0 (and its loss is never significant: no pair to test).
    chosen_mean = chosen.mean if chosen.tried else 0.0
    if chosen_mean >= best.mean:
        best = chosen
    loss = best.mean - chosen_mean if best is not chosen else 0.0
    pairs = [b - c for b, c in zip(best.estimates, chosen.estimates)
             if b is not None and c is not None]
    half = _interval(pairs)[1] if best is not chosen else 0.0
    # the best first (the reference's move, or the chosen one if its mean is as high), then
    # the others the searches tried by their means
    ranked = [best] + sorted((m for m in moves.values() if m.tried and m is not best),
                             key=lambda m: -m.mean)[:top - 1]
    return {
        "move": number, "round": round_number,
        "chosen": str(position.action_from_id(action_id)),
        "chosen_estimate": chosen_mean, "chosen_interval": _bounds(chosen_mean,
                                                                     _interval(chosen.tried)[1]),
        "best": str(position.action_from_id(best.id)), "best_estimate": best.mean,
        "best_interval": _bounds(best.mean, _interval(best.tried)[1]),
        "loss": loss, "loss_interval": _bounds(loss, half, low=-1.0),
        "mistake": loss - half > threshold,
        "legal": len(moves), "candidates": [_candidate(position, m) for m in ranked],
    }


def _share(value: float) -> str:
    return f"{value:.0%}"


def review_lines(result: dict[str, Any], lang: str = "en") -> list[str]:
    """The review as lines of text in ``lang``: one per decision, mistakes marked with their
    loss's interval and the top candidates (estimate and interval each), then the summary."""
    lang = check_lang(lang)
    with use(lang, game_class(result["game"])):
        lines = [_("Review of seat {seat} in {game} by {search}, {searches} searches a "
                   "decision; a mistake loses more than {threshold:.0%} with {confidence:.0%} "
                   "confidence.").format(
            seat=result["seat"], game=game_class(result["game"]).title,
            search=result["search"], searches=result["searches"],
            threshold=result["threshold"], confidence=CONFIDENCE)]
        if result.get("estimates"):      # older results have no such key
            estimated = _("Every move's estimate by {estimates} with the same seeds.")
            lines[0] += " " + estimated.format(estimates=result["estimates"])
        for d in result["decisions"]:
            if d["chosen"] == d["best"]:
                line = _("move {move}: {chosen} ({chosen_share:.0%}), the best move").format(
                    move=d["move"], chosen=d["chosen"], chosen_share=d["chosen_estimate"])
            else:
                line = _("move {move}: {chosen} ({chosen_share:.0%}); best {best} "
                         "({best_share:.0%}), {loss:.0%} less").format(
                    move=d["move"], chosen=d["chosen"], chosen_share=d["chosen_estimate"],
                    best=d["best"], best_share=d["best_estimate"], loss=d["loss"])
            if not d["mistake"]:
                lines.append("  " + line)
                continue
            low, high = d["loss_interval"]
            lines.append("✗ " + line + f" [{_share(low)}, {_share(high)}] — " + _("mistake"))
            lines.append("    " + _("candidates:") + " " + "; ".join(
                f"{c['move']} {_share(c['estimate'])} [{_share(c['interval'][0])}, "
                f"{_share(c['interval'][1])}]" for c in d["candidates"]))
        s = result["summary"]
        lines.append(ngettext("{count} decision reviewed", "{count} decisions reviewed",
                              s["decisions"]).format(count=s["decisions"]) + "; " + ngettext(
            "{count} mistake", "{count} mistakes", s["mistakes"]).format(count=s["mistakes"])
            + "; " + _("best move {best} times; mean loss {loss:.1%}.").format(
            best=s["best_moves"], loss=s["mean_loss"]))
    return lines


def batch_lines(result: dict[str, Any], lang: str = "en") -> list[str]:
    """A batch review (``review_batch``) as lines of text in ``lang``: one per review, then
    mistakes per decision with its interval."""
    lang = check_lang(lang)
    with use(lang):
        lines = [_("{name}, seat {seat}: {mistakes} of {decisions} decisions are "
                   "mistakes").format(**r) for r in result["reviews"]]
        s = result["summary"]
        lines.append(_("{records} records, {decisions} decisions, {mistakes} mistakes: "
                       "{rate:.3f} mistakes per decision, {confidence:.0%} interval "
                       "[{low:.3f}, {high:.3f}] (by {search}).").format(
            records=s["records"], decisions=s["decisions"], mistakes=s["mistakes"],
            rate=s["mistakes_per_decision"], low=s["interval"][0], high=s["interval"][1],
            search=result["reference"], confidence=CONFIDENCE))
    return lines


def load_for_review(data: bytes | str) -> Game:
    """A game from a save (``Game.to_json``, ``cardcore play --save``), a server's match
    record (``GET /api/tables/ID/record``) or a full ``cardcore-record`` (``cardcore record
    export``, rebuilt by ``import_record``); ConfigError if it is none of them."""
    from cardcore.match_record import FORMAT, MatchRecordError, import_record

    if len(data) > MAX_REVIEW_BYTES:
        raise ConfigError(f"a save or record for review has at most {MAX_REVIEW_BYTES:,} "
                          f"bytes", "review")
    try:
        parsed = json.loads(data)
    except ValueError:
        raise ConfigError("not a saved game or match record: not JSON", "review") from None
    if isinstance(parsed, dict) and "record" in parsed and isinstance(parsed.get("save"), dict):
        parsed = parsed["save"]
    elif isinstance(parsed, dict) and parsed.get("format") == FORMAT:
        try:
            return import_record(parsed)
        except MatchRecordError as e:
            raise ConfigError(f"not a record to review: {str(e)[:120]}", "review") from None
    try:
        return load_game(parsed)
    except ValueError as e:
        raise ConfigError(f"not a saved game or match record: {str(e)[:120]}",
                          "review") from None


def _ratio_interval(units: list[tuple[int, int]]) -> list[float]:
    """The 95% interval of mistakes per decision pooled over ``units`` (mistakes, decisions):
    a ratio estimate with the units (a seat in a record) as clusters, since one player's
    decisions in one match are not independent; t with units - 1 degrees of freedom; the
    Wilson interval of the pooled counts for a single unit."""
    decisions = sum(d for _, d in units)
    mistakes = sum(m for m, _ in units)
    if len(units) < 2 or decisions == 0:
        return list(wilson_interval(mistakes, decisions))
    rate = mistakes / decisions
    n = len(units)
    variance = n / (n - 1) * sum((m - rate * d) ** 2 for m, d in units) / decisions ** 2
    half = _t95(n) * math.sqrt(variance)
    return [max(0.0, rate - half), min(1.0, rate + half)]


def review_batch(games: Iterable[tuple[str, Game]], seat: int | None = None,
                 **options: Any) -> dict[str, Any]:
    """The reviews of many matches, ``(name, game)`` pairs (a file's name, say): ``seat``'s
    decisions in each (None: every seat's), each with ``review(game, seat, **options)``.
    Per review its name, seat, decisions and mistakes; the summary pools them: decisions,
    mistakes, mistakes per decision and its 95% interval (``_ratio_interval``: each reviewed
    seat of a match is a cluster), mean loss. JSON-serializable."""
    reviews: list[dict[str, Any]] = []
    loss_sum = 0.0
    first: dict[str, Any] | None = None
    for name, game in games:
        seats = range(game.num_players) if seat is None else [seat]
        for s in seats:
            result = review(game, s, **options)
            first = first or result
            summary = result["summary"]
            loss_sum += summary["mean_loss"] * summary["decisions"]
            reviews.append({"name": name, "game": game.name, "seat": s,
                            "decisions": summary["decisions"], "mistakes": summary["mistakes"],
                            "mean_loss": summary["mean_loss"], "winners": summary["winners"]})
    if first is None:
        raise ConfigError("a batch review needs at least one save or record", "review")
    decisions = sum(r["decisions"] for r in reviews)
    mistakes = sum(r["mistakes"] for r in reviews)
    return {
        "reference": first["reference"], "searches": first["searches"], "seed": first["seed"],
        "threshold": first["threshold"], "seat": seat, "reviews": reviews,
        "summary": {"records": len({r["name"] for r in reviews}), "reviews": len(reviews),
                    "decisions": decisions, "mistakes": mistakes,
                    "mistakes_per_decision": mistakes / decisions if decisions else 0.0,
                    "interval": _ratio_interval([(r["mistakes"], r["decisions"])
                                                 for r in reviews]),
                    "mean_loss": loss_sum / decisions if decisions else 0.0},
    }
