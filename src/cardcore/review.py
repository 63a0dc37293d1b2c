"""Game review: how a seat's moves compare with the best ones a search finds, decision by
decision, from the seat's information only (``cardcore review``).

``review(game, seat, level=5)`` replays ``game``'s log from its deal. At each decision of
``seat`` with more than one legal move, the level's search (``ISMCTSBot.suggest``: worlds
drawn from what the seat could see, never the others' hidden cards) estimates every legal move;
the chosen move's estimate is compared with the best one's. A move whose estimate is more than
``threshold`` (0.10 by default, a share of wins or of the points margin) below the best is a
mistake. The search is seeded per decision (``bot_seed(seed, move number, seat)``) and bound
by iterations only (the level's ``think_ms`` is dropped), so a review is the same on every
machine, and the same for two deals that differ only in cards hidden from the seat. The
estimates are a search's: a small loss (a few hundredths) is within its noise, and searches of
other seeds may flag other moves near the threshold.
``review_lines`` writes it as text in English or Russian.
"""
from __future__ import annotations

import json
from typing import Any

from cardcore.bots import BotSpec, LEVELS, make_bot, parse_bot_spec
from cardcore.errors import ConfigError, echo
from cardcore.game import Game, is_int
from cardcore.i18n import _, check_lang, ngettext, use
from cardcore.registry import game_class, load_game, new_game

__all__ = ["DEFAULT_THRESHOLD", "load_for_review", "review", "review_lines", "search_spec"]

DEFAULT_THRESHOLD = 0.10
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
        if not is_int(iterations) or not 1 <= iterations <= 1_000_000:
            raise ConfigError(f"iterations must be an int 1..1000000, not {echo(iterations)}",
                              "iterations")
        params["iterations"] = iterations
    return BotSpec(spec.name, tuple(sorted(params.items())))


def _fresh(game: Game) -> Game:
    """``game``'s configuration (players, seed, stacked deck, options) before any move."""
    save = json.loads(game.to_json())
    return new_game(save["game"], players=save["players"], seed=save["seed"],
                    deck=save["deck"], **save["options"])


def review(game: Game, seat: int, level: int = 5, threshold: float = DEFAULT_THRESHOLD,
           seed: int = 0, iterations: int | None = None) -> dict[str, Any]:
    """The review of ``seat``'s decisions in ``game`` (finished or not): per decision the move
    number, the round (the round, deal or hand it falls in, from 1: the round-end events
    before it, plus one), the chosen and the best move with their estimates, the loss
    (best − chosen) and whether it is a mistake (loss > ``threshold``); and a summary.
    JSON-serializable."""
    if not is_int(seat) or not 0 <= seat < game.num_players:
        raise ConfigError(f"seat must be 0..{game.num_players - 1}, not {echo(seat)}", "seat")
    if isinstance(threshold, bool) or not isinstance(threshold, (int, float)) \
            or not 0 <= threshold <= 1:
        raise ConfigError(f"threshold must be a number 0..1, not {echo(threshold)}",
                          "threshold")
    if not is_int(seed) or seed < 0:
        raise ConfigError(f"seed must be a non-negative int, not {echo(seed)}", "seed")
    from cardcore.simulation import bot_seed

    spec = search_spec(game.name, level, iterations)
    position = _fresh(game)
    decisions: list[dict[str, Any]] = []
    rounds_ended = seen = 0        # round-end events so far: the round is the next one
    for number, action_id in enumerate(game.action_log()):
        if position.current_player == seat and len(position.legal_action_ids()) > 1:
            events = position.events(seat, seen)
            seen += len(events)
            rounds_ended += sum(e["kind"] == position.round_end_event for e in events)
            advisor = make_bot(spec, bot_seed(seed, number, seat))
            hints = advisor.suggest(position, seat=seat, top=len(position.legal_action_ids()))
            estimate = {h["action"].id: float(h["estimate"]) for h in hints}
            chosen = estimate.setdefault(action_id, 0.0)  # a move the search never tried
            # The best move is the search's choice (the most visited); a chosen move it
            # rates at least as high is as good.
            best_id = hints[0]["action"].id
            if chosen >= estimate[best_id]:
                best_id = action_id
            loss = estimate[best_id] - chosen
            decisions.append({
                "move": number, "round": rounds_ended + 1,
                "chosen": str(position.action_from_id(action_id)), "chosen_estimate": chosen,
                "best": str(position.action_from_id(best_id)), "best_estimate": estimate[best_id],
                "loss": loss, "mistake": loss > threshold,
                "legal": len(position.legal_action_ids()),
            })
        position.apply(action_id)
    mistakes = [d for d in decisions if d["mistake"]]
    return {
        "game": game.name, "seat": seat, "level": level, "search": str(spec), "seed": seed,
        "threshold": threshold, "decisions": decisions,
        "summary": {"decisions": len(decisions), "mistakes": len(mistakes),
                    "mean_loss": sum(d["loss"] for d in decisions) / len(decisions)
                    if decisions else 0.0,
                    "best_moves": sum(d["chosen"] == d["best"] for d in decisions),
                    "over": game.is_over, "winners": game.winners},
    }


def review_lines(result: dict[str, Any], lang: str = "en") -> list[str]:
    """The review as lines of text in ``lang``: one per decision, mistakes marked, then the
    summary."""
    lang = check_lang(lang)
    with use(lang, game_class(result["game"])):
        lines = [_("Review of seat {seat} in {game} by a search of level {level} ({search}); "
                   "a mistake loses more than {threshold:.0%}.").format(
            seat=result["seat"], game=game_class(result["game"]).title, level=result["level"],
            search=result["search"], threshold=result["threshold"])]
        for d in result["decisions"]:
            if d["chosen"] == d["best"]:
                line = _("move {move}: {chosen} ({chosen_share:.0%}), the best move").format(
                    move=d["move"], chosen=d["chosen"], chosen_share=d["chosen_estimate"])
            else:
                line = _("move {move}: {chosen} ({chosen_share:.0%}); best {best} "
                         "({best_share:.0%}), {loss:.0%} less").format(
                    move=d["move"], chosen=d["chosen"], chosen_share=d["chosen_estimate"],
                    best=d["best"], best_share=d["best_estimate"], loss=d["loss"])
            lines.append(("✗ " if d["mistake"] else "  ") + line
                         + (" — " + _("mistake") if d["mistake"] else ""))
        s = result["summary"]
        lines.append(ngettext("{count} decision reviewed", "{count} decisions reviewed",
                              s["decisions"]).format(count=s["decisions"]) + "; " + ngettext(
            "{count} mistake", "{count} mistakes", s["mistakes"]).format(count=s["mistakes"])
            + "; " + _("best move {best} times; mean loss {loss:.1%}.").format(
            best=s["best_moves"], loss=s["mean_loss"]))
    return lines


def load_for_review(data: bytes | str) -> Game:
    """A game from a save (``Game.to_json``, ``cardcore play --save``) or a match record
    (``GET /api/tables/ID/record``); ConfigError if it is neither."""
    if len(data) > MAX_REVIEW_BYTES:
        raise ConfigError(f"a save or record for review has at most {MAX_REVIEW_BYTES:,} "
                          f"bytes", "review")
    try:
        parsed = json.loads(data)
    except ValueError:
        raise ConfigError("not a saved game or match record: not JSON", "review") from None
    if isinstance(parsed, dict) and "record" in parsed and isinstance(parsed.get("save"), dict):
        parsed = parsed["save"]
    try:
        return load_game(parsed)
    except ValueError as e:
        raise ConfigError(f"not a saved game or match record: {str(e)[:120]}",
                          "review") from None
