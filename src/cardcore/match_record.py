"""Match records with the actual cards: the ``cardcore-record`` format (docs/api.md, "Match
records with the actual cards").

A save (cardcore.saves) is a seed and action ids: only cardcore can replay it. A match record
is one JSON object per match that carries the cards themselves, so a reviewer, a viewer or a
data set reads it without the engine:

- the header: ``format`` ("cardcore-record"), ``version``, ``game``, ``cardcore`` (the
  engine's version), ``players``, ``names``, ``sides``, ``options``, ``seed`` and ``deck``
  (null in a redacted record), ``seat`` (null: the full record; else whose redaction),
  ``zones`` (the configuration's zones, ``Game.zones_of``);
- ``deals``: per deal its round, the action it follows (null: the first), every zone's cards
  right after it and its events;
- ``actions``: per action its step ``n``, ``seat``, ``id``, ``label``, ``kind``, ``cards`` and
  ``moves`` (the action's own event's), ``time`` (when it was made, if known), ``chosen``
  (the exact cards of ``Game.apply(..., cards=)``, when the save has them) and ``events``
  (every event of the step but a deal's);
- ``rounds``: per round its number, the action that ended it, its breakdown and the scores;
- ``result``: over or not, the winners, scores and returns.

The events are ``Game.events``' without their words (``text``, ``reason``, a breakdown row's
``text``: a language's, not the match's). In the full record every card is named; a
redaction for seat S (``export_record(..., seat=S)``) is built from ``events(S)`` and
``view(S)`` only, a card S did not see written ``??`` (PHH's ``????``, mjai's ``?``), and
carries no seed, no stacked deck and no private field of an event S did not see: nothing
from which a hidden card follows. ``import_record`` rebuilds the save of a full record: the
configuration from its header, each action from its seat and label by the rules
(``Game.apply(label, player=seat)``), and the record made again from that game must be the
one given, or ``MatchRecordError`` names the first step that differs.

The layout borrows from hanab.live's JSON (one object: players' names, options, the seed and
the explicit cards of the deal), from mjai (events as a viewer saw them, unseen cards as a
placeholder) and from PHH (required header fields, optional metadata such as names and
times). ``RECORD_SCHEMA`` is its JSON Schema (``cardcore record schema`` prints it).
``trajectories`` reads a full record as decisions for offline learning (docs/rl.md); the
table server's record (cardcore.records, format 2) is a record of this format with
``SERVER_FIELDS`` besides.
"""
from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from cardcore._version import __version__
from cardcore.cards import CARD_NAMES
from cardcore.errors import IllegalActionError, echo
from cardcore.events import DEAL_EVENT
from cardcore.game import Game
from cardcore.saves import PARAMETERS
from cardcore.schema_parts import CARD

__all__ = ["FORMAT", "VERSION", "HIDDEN", "RECORD_SCHEMA", "MatchRecordError", "export_record",
           "import_record", "record_events", "read_record", "dumps", "Step", "trajectories",
           "MAX_RECORD_BYTES", "SERVER_FIELDS"]

FORMAT = "cardcore-record"
VERSION = 1
HIDDEN = "??"                         # a card the record's seat did not see
MAX_RECORD_BYTES = 256 * 1024 * 1024  # a long match's full record is a few MB
WORDS = ("text", "reason")            # an event's words: a language's, not the match's


class MatchRecordError(ValueError):
    """A record that cannot be read or imported; ``step`` is the action (0-based) where it
    goes wrong, None for the header."""

    def __init__(self, message: str, step: int | None = None) -> None:
        super().__init__(message if step is None else f"step {step}: {message}")
        self.step = step


# ------------------------------------------------------------------------------ export
def _names(cards: Sequence[int]) -> list[str]:
    return [CARD_NAMES[c] for c in cards]


def _full_event(raw: Any, n: int) -> dict[str, Any]:
    """An event as a seat that sees every zone would get it (``_render``'s fields, every card
    named, private fields included)."""
    event: dict[str, Any] = {"n": n, "kind": raw.kind, "player": raw.player,
                             "cards": _names(raw.cards)}
    if raw.auto:
        event["auto"] = True
    event.update(_plain(raw.public))        # (the fields above are JSON values already)
    if raw.private:
        event.update(_plain(raw.private))
    event["moves"] = [{"from": a, "to": b, "cards": _names(c)} for a, b, c in raw.moves]
    if raw.new_zones:
        event["new_zones"] = [_plain(z) for z in raw.new_zones]
    return event


def _seat_event(event: Mapping[str, Any]) -> dict[str, Any]:
    """``events(seat)``'s event without its words, unseen cards written ``??``."""
    out = {k: v for k, v in event.items() if k not in WORDS and k != "hidden"}
    if event.get("hidden"):
        out["cards"] = [*event["cards"], *[HIDDEN] * int(event["hidden"])]
    out["moves"] = [{"from": m["from"], "to": m["to"],
                     "cards": m["cards"] if "cards" in m else [HIDDEN] * int(m["count"])}
                    for m in event.get("moves", [])]
    scored = event.get("breakdown")
    if isinstance(scored, Mapping):
        out["breakdown"] = {**scored, "components": [
            {k: v for k, v in c.items() if k != "text"} for c in scored["components"]]}
    return _plain(out)


def _plain(event: dict[str, Any]) -> dict[str, Any]:
    """JSON values only (a narrator's tuples become lists, keys texts), so records compare
    equal: what a JSON round trip gives, without writing the text."""
    return {_key(k): _plain_value(v) for k, v in event.items()}


def _plain_value(value: Any) -> Any:
    if isinstance(value, dict):
        return {_key(k): _plain_value(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain_value(v) for v in value]
    return value


def _key(key: Any) -> str:
    """A key as JSON writes it (json.dumps: texts as they are, numbers and the constants as
    their JSON text)."""
    return key if isinstance(key, str) else json.loads(json.dumps({key: 0})).popitem()[0]


def _zones(game: Game, seat: int | None) -> dict[str, list[str]]:
    """Every zone's cards now: all of them (``seat`` None), or as ``view(seat)`` shows them."""
    if seat is None:
        return {z: _names(c) for z, c in game._zone_table().cards(game._state).items()}
    return {z: c if isinstance(c, list) else [HIDDEN] * int(c["count"])
            for z, c in game.view(seat)["zones"].items()}


def _fresh(game: Game) -> Game:
    """``game``'s configuration before any move (its save's header, not its log)."""
    from cardcore.registry import new_game
    save = json.loads(game.to_json())
    return new_game(save["game"], players=save["players"], seed=save["seed"],
                    deck=save["deck"], **save["options"])


def _split(events: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """A step's events: those before its deal (if it deals), and the deal's."""
    for i, e in enumerate(events):
        if e["kind"] == DEAL_EVENT:
            return events[:i], events[i:]
    return events, []


def export_record(game: Game, *, seat: int | None = None, names: Sequence[str] | None = None,
                  times: Sequence[str | None] | None = None) -> dict[str, Any]:
    """The match record of ``game`` (finished or not) as JSON values: the full record, or
    with ``seat`` what that seat saw. ``names``: a name per seat (default "Seat k");
    ``times``: per action of the log, when it was made (ISO 8601 text) or None."""
    save = json.loads(game.to_json())
    log: list[int] = save["actions"]
    if seat is not None:
        seat = game._seat(seat)
    names = [f"Seat {s}" for s in range(game.num_players)] if names is None else list(names)
    if len(names) != game.num_players or not all(isinstance(n, str) for n in names):
        raise ValueError(f"names: one text per seat ({game.num_players}), not {echo(names)}")
    times = [None] * len(log) if times is None else list(times)
    if len(times) != len(log):
        raise ValueError(f"times: one per action ({len(log)}), not {len(times)}")
    chosen = game.chosen_cards()
    replay = _fresh(game)
    cls = type(game)
    # The full record reads the events the game has told already (each step's are those from
    # its start to the next's); only a seat's record tells the replay again, as that seat.
    raws: list[Any] | None = None
    starts: list[int] | None = None
    if seat is None and game._origin is None:
        told = game._narrate()
        raws = told.raw[:]
        starts = [*told.starts, len(raws)]

    def events_from(start: int, n: int | None = None) -> list[dict[str, Any]]:
        if raws is not None and starts is not None:
            end = starts[0 if n is None else n + 1]
            return [_full_event(r, start + i) for i, r in enumerate(raws[start:end])]
        if seat is None:
            return [_full_event(r, start + i)
                    for i, r in enumerate(replay._narrate().raw[start:])]
        return [_seat_event(e) for e in replay.events(seat, start)]

    first = events_from(0)
    deals = [{"round": 1, "after": None, "zones": _zones(replay, seat), "events": first}]
    actions: list[dict[str, Any]] = []
    rounds: list[dict[str, Any]] = []
    for n, action_id in enumerate(log):
        mover = replay.current_player
        label = replay.action_from_id(action_id).label
        start = replay.event_count() if starts is None else starts[n]
        if n in chosen:
            replay.apply(action_id, cards=chosen[n])
        else:
            replay.apply(action_id)
        step, deal = _split(events_from(start, n))
        own = next((e for e in step if not e.get("auto")), None)
        # a seat that did not see the cards an action names gets its kind, id None
        seen = seat is None or (own is not None and own.get("id") is not None)
        entry: dict[str, Any] = {
            "n": n, "seat": mover, "id": action_id if seen else None,
            "label": label if seen else None,
            "kind": None if own is None else own["kind"],
            "cards": [] if own is None else own["cards"],
            "moves": [] if own is None else own["moves"],
            "time": times[n]}
        if n in chosen and (seat is None or seat == mover):
            entry["chosen"] = list(chosen[n])
        entry["events"] = step
        actions.append(entry)
        for e in step:
            if isinstance(e.get("breakdown"), Mapping):
                rounds.append({"round": len(rounds) + 1, "after": n,
                               "breakdown": e["breakdown"], "scores": e.get("scores")})
        if deal:
            deals.append({"round": len(deals) + 1, "after": n, "zones": _zones(replay, seat),
                          "events": deal})
    over = replay.is_over
    return {
        "format": FORMAT, "version": VERSION, "cardcore": __version__, "game": game.name,
        "players": game.num_players, "names": names,
        "sides": list(cls.sides_of(game.num_players, game.options)),
        "options": dict(save["options"]),
        "seed": save["seed"] if seat is None else None,
        "deck": save["deck"] if seat is None else None,
        "seat": seat,
        "zones": cls.zones_of(game.num_players, **game.options),
        "deals": deals, "actions": actions, "rounds": rounds,
        "result": {"over": over, "winners": replay.winners if over else [],
                   "scores": replay.scores, "returns": list(replay.returns())},
    }


def dumps(record: Mapping[str, Any]) -> str:
    """A record as the text of its file: compact JSON, one line, UTF-8 safe."""
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


# ------------------------------------------------------------------------------ read
def read_record(data: str | bytes | Mapping[str, Any]) -> dict[str, Any]:
    """A record from its text (or already parsed), its header checked; MatchRecordError
    else. The body is checked by ``import_record`` against the rules."""
    if isinstance(data, (bytes, bytearray)):
        if len(data) > MAX_RECORD_BYTES:
            raise MatchRecordError(f"{len(data)} bytes; a record has at most "
                                   f"{MAX_RECORD_BYTES}")
        try:
            data = bytes(data).decode("utf-8")
        except UnicodeDecodeError:
            raise MatchRecordError("not UTF-8 text") from None
    if isinstance(data, str):
        if len(data) > MAX_RECORD_BYTES:
            raise MatchRecordError(f"{len(data)} characters; a record has at most "
                                   f"{MAX_RECORD_BYTES}")
        try:
            data = json.loads(data)
        except (ValueError, RecursionError) as e:
            raise MatchRecordError(f"not JSON: {str(e)[:80]}") from None
    if not isinstance(data, Mapping):
        raise MatchRecordError("a record is a JSON object")
    if data.get("format") != FORMAT:
        raise MatchRecordError(f"format must be {FORMAT!r}, not {echo(data.get('format'))}")
    if type(data.get("version")) is not int or data["version"] != VERSION:
        raise MatchRecordError(f"unknown version {echo(data.get('version'))} (this cardcore "
                               f"reads {VERSION})")
    for name, kind in (("game", str), ("players", int), ("options", Mapping),
                       ("names", list), ("deals", list), ("actions", list), ("rounds", list),
                       ("result", Mapping)):
        value = data.get(name)
        if not isinstance(value, kind) or isinstance(value, bool):
            raise MatchRecordError(f"field {name!r} missing or not a {kind.__name__}")
    return dict(data)


def record_events(record: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every event of a record in order (as ``Game.events`` numbers them): each deal's and
    each action's, interleaved where they happened."""
    deals: dict[int | None, list[dict[str, Any]]] = {}
    for deal in record["deals"]:
        deals.setdefault(deal["after"], []).extend(deal["events"])
    out = list(deals.get(None, []))
    for action in record["actions"]:
        out += action["events"]
        out += deals.get(action["n"], [])
    return out


def _first_difference(given: Mapping[str, Any], made: Mapping[str, Any]) -> str | None:
    """Where a record differs from the one the rules make (names and times aside)."""
    for key in ("game", "players", "sides", "options", "seed", "deck", "zones"):
        if given.get(key) != made[key]:
            return f"header field {key!r}"
    for i, (a, b) in enumerate(zip(given["deals"], made["deals"])):
        if a != b:
            return f"deal {i + 1} (round {b['round']}): its cards or events"
    if len(given["deals"]) != len(made["deals"]):
        return f"{len(given['deals'])} deals, not the {len(made['deals'])} the rules deal"
    if given["rounds"] != made["rounds"]:
        return "the rounds' breakdowns"
    if given["result"] != made["result"]:
        return "the result"
    return None


def import_record(data: str | bytes | Mapping[str, Any]) -> Game:
    """The game of a full record, rebuilt by the rules (``game.to_json()`` is its save):
    the configuration from the header, each action from its seat and label (the id, cards
    and moves the record gives must be the ones the rules make), then the whole record made
    again must be the one given. MatchRecordError names the first step that differs; a
    redacted record (``seat`` not null) cannot be imported: it carries no seed."""
    from cardcore.registry import new_game

    record = read_record(data)
    if record.get("seat") is not None:
        raise MatchRecordError(f"this record is seat {echo(record['seat'])}'s redaction: it "
                               "carries no seed and hides cards, so no save follows from it; "
                               "import the full record")
    seed = record.get("seed")
    if type(seed) is not int:
        raise MatchRecordError(f"field 'seed' must be an int in a full record, not "
                               f"{echo(seed)}")
    if not all(isinstance(k, str) for k in record["options"]):
        raise MatchRecordError("option names must be strings")
    clash = sorted(k for k in record["options"] if k in PARAMETERS)
    if clash:
        raise MatchRecordError(f"options may not repeat the parameter(s) {', '.join(clash)}")
    try:
        game = new_game(record["game"], players=record["players"], seed=seed,
                        deck=record.get("deck"), **record["options"])
    except ValueError as e:
        raise MatchRecordError(f"the header: {str(e)[:200]}") from None
    times: list[str | None] = []
    for n, entry in enumerate(record["actions"]):
        if not isinstance(entry, Mapping) or entry.get("n") != n:
            raise MatchRecordError(f"action entry is not an object numbered {n}", n)
        seat, label = entry.get("seat"), entry.get("label")
        if game.is_over:
            raise MatchRecordError("the match is already over", n)
        if seat != game.current_player:
            raise MatchRecordError(f"seat {echo(seat)} acts, but seat {game.current_player} "
                                   f"is to move", n)
        if not isinstance(label, str):
            raise MatchRecordError(f"label must be an action's notation, not {echo(label)}", n)
        chosen = entry.get("chosen")
        try:
            action = game.action_from_id(game._resolve(label))
            if entry.get("id") != action.id:
                raise MatchRecordError(f"{echo(label)} is action id {action.id}, not "
                                       f"{echo(entry.get('id'))}", n)
            game.apply(label, player=seat, cards=chosen)
        except IllegalActionError as e:
            raise MatchRecordError(f"{echo(label)} by seat {seat} is not legal: "
                                   f"{str(e)[:160]}", n) from None
        time = entry.get("time")
        times.append(time if isinstance(time, str) else None)
    names = record["names"]
    if len(names) != game.num_players or not all(isinstance(x, str) for x in names):
        raise MatchRecordError(f"names: one text per seat, not {echo(names)}")
    made = export_record(game, names=names, times=times)
    for n, (a, b) in enumerate(zip(record["actions"], made["actions"])):
        if a != b:
            field = next((k for k in b if a.get(k) != b[k]), "a field the rules do not make")
            raise MatchRecordError(f"its {field!r} is not what the rules make", n)
    where = _first_difference(record, made)
    if where is not None:
        raise MatchRecordError(f"{where} is not what the rules make")
    return game


# ------------------------------------------------------------------------------ trajectories
@dataclass(frozen=True)
class Step:
    """One decision of a trajectory: the acting ``seat``'s ``observation``
    (``Game.observation_tensor``), the legal-action ``mask``, the ``action`` id taken, the
    ``reward`` it got (the seat's return when the match ended with this action, else 0.0),
    and whether the match ended here (``done``)."""

    n: int
    seat: int
    observation: npt.NDArray[np.float32]
    mask: npt.NDArray[np.bool_]
    action: int
    reward: float
    done: bool


def trajectories(data: str | bytes | Mapping[str, Any], seat: int | None = None
                 ) -> Iterator[Step]:
    """The decisions of a full record, for offline learning: the record imported (checked
    by the rules), then replayed, a ``Step`` per action (only ``seat``'s, when given). The
    rewards are sparse: a seat's return comes with its last step of a finished match."""
    record = read_record(data)
    game = import_record(record)
    movers = [entry["seat"] for entry in record["actions"]]     # checked by the import
    last = {mover: n for n, mover in enumerate(movers)}
    final = list(game.returns())
    chosen = game.chosen_cards()
    replay = _fresh(game)
    for n, action_id in enumerate(game.action_log()):
        mover = movers[n]
        if seat is None or seat == mover:
            observation = np.asarray(replay.observation_tensor(mover), dtype=np.float32)
            mask = replay.legal_action_mask()
        replay.apply(action_id, cards=chosen.get(n))
        if seat is None or seat == mover:
            done = game.is_over and last[mover] == n
            yield Step(n, mover, observation, mask, action_id,
                       float(final[mover]) if done else 0.0, done)


# ------------------------------------------------------------------------------ schema
def _obj(props: dict[str, Any], required: Sequence[str] | None = None,
         closed: bool = True) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "object", "properties": props,
                           "required": list(props if required is None else required)}
    if closed:
        out["additionalProperties"] = False
    return out


def _d(schema: dict[str, Any], text: str) -> dict[str, Any]:
    return {**schema, "description": text}


# Written out where used (no $defs): the table server's record schema embeds these fields.
_SHOWN = {"description": "a card (10H, QS, JK), or ?? for one the record's seat did not see",
          "anyOf": [CARD, {"const": HIDDEN}]}
_CARDS = {"type": "array", "items": _SHOWN}
_SEAT = {"type": "integer", "minimum": 0}
_OPT_SEAT = {"anyOf": [_SEAT, {"type": "null"}]}
_MOVE = _obj({"from": _d({"type": "string"}, "the zone the cards leave"),
              "to": _d({"type": "string"}, "the zone they enter"),
              "cards": _d(_CARDS, "the cards, in order")})
_MOVES = {"type": "array", "items": _MOVE}
_EVENT = _obj({
    "n": _d({"type": "integer", "minimum": 0}, "the event's index (Game.events)"),
    "kind": _d({"type": "string"}, "the event's kind (cardcore schema GAME event)"),
    "player": _d(_OPT_SEAT, "the seat it concerns, or null"),
    "cards": _d(_CARDS, "the cards it names"),
    "moves": _d(_MOVES, "the cards that changed zone"),
}, closed=False)
_EVENTS = {"type": "array", "items": _d(_EVENT, "an event of Game.events without its words; "
                                        "its other fields are the game's (cardcore schema "
                                        "GAME event)")}
_ZONES = {"type": "object", "additionalProperties": _CARDS}
# The table server's record (cardcore.records, format 2) is a cardcore-record with these
# fields besides (docs/server.md, "Fair deals and match records"; ``cardcore schema GAME
# record`` describes them exactly).
SERVER_FIELDS = ("record", "table", "ended", "forfeit", "timeouts", "fairness", "save",
                 "digest", "hmac", "key_id")

RECORD_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://cardcore.dev/schemas/cardcore-record-1.json",
    "title": "cardcore-record",
    "description": "one match of a cardcore game with the actual cards (docs/api.md, "
                   "\"Match records with the actual cards\")",
    **_obj({
        "format": _d({"const": FORMAT}, "always cardcore-record"),
        "version": _d({"const": VERSION}, "the format's version"),
        "cardcore": _d({"type": "string"}, "the engine version that wrote it"),
        "game": _d({"type": "string"}, "the game's name (cardcore games)"),
        "players": _d({"type": "integer", "minimum": 1}, "the number of seats"),
        "names": _d({"type": "array", "items": {"type": "string"}}, "a name per seat"),
        "sides": _d({"type": "array", "items": {"type": "integer", "minimum": 0}},
                    "each seat's side (partners share one)"),
        "options": _d({"type": "object"}, "every option of the game, by name"),
        "seed": _d({"anyOf": [{"type": "integer"}, {"type": "null"}]},
                   "the deal seed; null in a redacted record"),
        "deck": _d({"anyOf": [{"type": "array", "items": CARD}, {"type": "null"}]},
                   "a stacked deck (top first), or null; null in a redacted record"),
        "seat": _d(_OPT_SEAT, "null: the full record; else the seat whose view it is"),
        "zones": _d({"type": "array", "items": {"type": "object"}},
                    "the configuration's zones (Game.zones_of)"),
        "deals": _d({"type": "array", "items": _obj({
            "round": _d({"type": "integer", "minimum": 1}, "the round it deals"),
            "after": _d({"anyOf": [{"type": "integer", "minimum": 0}, {"type": "null"}]},
                        "the action it follows; null for the first deal"),
            "zones": _d(_ZONES, "every zone's cards right after the deal (bottom to top)"),
            "events": _d(_EVENTS, "the deal's events"),
        })}, "per deal, the cards dealt"),
        "actions": _d({"type": "array", "items": _obj({
            "n": _d({"type": "integer", "minimum": 0}, "the action's index in the log"),
            "seat": _d(_SEAT, "the seat that acted"),
            "id": _d({"anyOf": [{"type": "integer", "minimum": 0}, {"type": "null"}]},
                     "the action id; null where the record's seat did not see it"),
            "label": _d({"anyOf": [{"type": "string"}, {"type": "null"}]},
                        "the action's notation; null where the record's seat did not see it"),
            "kind": _d({"anyOf": [{"type": "string"}, {"type": "null"}]}, "the action's kind"),
            "cards": _d(_CARDS, "the cards the action named or moved"),
            "moves": _d(_MOVES, "the action's own moves"),
            "time": _d({"anyOf": [{"type": "string"}, {"type": "null"}]},
                       "when it was made (ISO 8601), if known"),
            "chosen": _d({"type": "array", "items": CARD},
                         "the exact cards chosen (Game.apply(..., cards=))"),
            "events": _d(_EVENTS, "the step's events, a deal's apart"),
        }, required=("n", "seat", "id", "label", "kind", "cards", "moves", "time", "events"))},
            "per action, in order"),
        "rounds": _d({"type": "array", "items": _obj({
            "round": _d({"type": "integer", "minimum": 1}, "the round's number"),
            "after": _d({"type": "integer", "minimum": 0}, "the action that ended it"),
            "breakdown": _d({"type": "object"}, "its scoring breakdown (the event's)"),
            "scores": _d({"anyOf": [{"type": "array", "items": {"type": "integer"}},
                                    {"type": "null"}]}, "the scores after it"),
        })}, "per round, its breakdown"),
        "result": _d(_obj({
            "over": _d({"type": "boolean"}, "whether the match is over"),
            "winners": _d({"type": "array", "items": _SEAT}, "the winning seats"),
            "scores": _d({"type": "array", "items": {"type": "integer"}}, "the scores"),
            "returns": _d({"type": "array", "items": {"type": "number"}},
                          "each seat's return (Game.returns)"),
        }), "how the match stands at the record's end"),
        **{name: {"description": f"a table server's record: its {name!r} (docs/server.md)"}
           for name in SERVER_FIELDS},
    }, required=("format", "version", "cardcore", "game", "players", "names", "sides",
                 "options", "seed", "deck", "seat", "zones", "deals", "actions", "rounds",
                 "result")),
}
