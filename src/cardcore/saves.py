"""Saves: ``Game.to_json`` and ``load_game`` (docs/api.md, "Saves").

A save is one JSON object: ``format`` (``SAVE_FORMAT``, 2), the configuration (game, players,
seed, stacked deck, every option), the action log, the generator state after the last action, a
``digest`` (SHA-256 of the canonical JSON of everything else) and, when written with a key, an
``hmac`` (HMAC-SHA256 of the same bytes under that key). Loading replays the log through the
checked ``apply``, so no save can produce a position the rules could not reach.

Formats
-------
3 (cardcore 0.4): format 2 plus ``cards``, written only when the log holds actions applied
with ``Game.apply(..., cards=)`` whose cards differ from the engine's own choice: an object
from the log index (a decimal string) to the chosen card notations, space-separated
(``{"17": "7H 7S JK"}``: one object, so a long match stays within ``MAX_CONTAINERS``); the
replay applies those actions with those cards. A loader before 0.4 refuses format 3 rather
than replay those melds with other suits; every save without chosen cards stays format 2.
2 (cardcore 0.2): as above. 1 (cardcore 0.1): the same fields without ``digest`` or ``hmac``,
and options only for what 0.1 had. A format-1 save loads with the rules it was played by: an
option it does not record takes the value the game declares in ``Game.format1_options`` (the
0.1 behaviour, e.g. ``going_out="optional"``), else the option's default (where
the default is the 0.1 behaviour). Saving a loaded game writes format 2 with every option.

What ``load_game`` detects
--------------------------
Always: data that is not a save (wrong types, ``format`` other than the int 1, 2 or 3, text over
``MAX_SAVE_CHARS``, JSON nested deeper than ``MAX_DEPTH`` or holding more than
``MAX_CONTAINERS`` lists/objects, options that repeat a parameter such as ``players``), unknown
games or options, an action illegal at its point of the replay, and a generator state that does
not match the replay (e.g. a log cut before a shuffle, a changed seed).

Without a key: in formats 2 and 3, any edit that did not recompute ``digest`` (a truncated action
log, changed options, a corrupted byte). A deliberate forger can recompute an unkeyed digest, so
without a key any game reachable by legal play from the saved configuration can be passed off.
A format-1 save of cardcore 0.1 has no digest, so none of those edits is detected in it: a
truncated log, a changed option or seed, or a changed action that is still legal loads as long
as the replay is legal and ends in the recorded generator state (the rng check catches a log
cut before a shuffle, a changed seed usually, nothing else). (A format-1 save that does carry
a digest, from the 0.2 development line, has it checked.) Turning a format-2 save into format 1 (drop
the digest, set ``format`` to 1) therefore skips the digest check: accept format 1 only from
a source you trust, or load with a key.

With a key: the ``hmac`` must match, so nothing can be changed without the key. ``load_game``
with a key refuses a save that has no ``hmac``, so it refuses every save of cardcore 0.1.

A save reveals every hand, every foot and stock and every future shuffle (it holds the seed):
never send one to a player who must not see them; hand it out only with a key and only to a
party that may know everything (e.g. a client-side cache that the server checks on return).
"""
from __future__ import annotations

import contextvars
import hashlib
import hmac
import json
import re
from collections.abc import Mapping, Sequence
from typing import Any, Callable

from cardcore._version import __version__
from cardcore.cards import card_str
from cardcore.errors import IllegalActionError, echo

__all__ = ["dump", "load", "MAX_SAVE_CHARS", "MAX_DEPTH", "MAX_CONTAINERS", "canonical_bytes",
           "CHOSEN_CARDS_FORMAT"]

SAVE_FORMAT = 2                      # what dump writes for a game without chosen cards
# A save whose log holds actions applied with ``cards=`` (exact cards, other than the engine's
# own choice): format 2 plus ``cards``. Loaders before 0.4 refuse it (an unknown format) rather
# than replay those actions with other suits; every other save stays format 2.
CHOSEN_CARDS_FORMAT = 3
# Set while a save's game is rebuilt: its options are checked against ``Option.saved``, the
# wider bounds earlier releases accepted, so a save keeps loading with the rules it was played by.
REPLAYING_SAVE: contextvars.ContextVar[bool] = contextvars.ContextVar("replaying_save",
                                                                      default=False)
FORMAT_0_1 = 1                       # cardcore 0.1: no digest, options of 0.1 only
MAX_SAVE_CHARS = 32 * 1024 * 1024   # ~6 million actions; a real match is far shorter
MAX_DEPTH = 4                        # save -> options -> value (a list at most)
MAX_CONTAINERS = 1000                # lists and objects in the whole save
PARAMETERS = ("players", "seed", "deck")
_SIGNATURE_FIELDS = ("digest", "hmac")
_TOKENS = re.compile(r'[\[\]{}]|"(?:[^"\\]|\\.)*"')


def canonical_bytes(body: Mapping[str, Any]) -> bytes:
    """The bytes the digest and the HMAC cover: sorted keys, no spaces, signatures left out."""
    payload = {k: v for k, v in body.items() if k not in _SIGNATURE_FIELDS}
    return json.dumps(payload, sort_keys=True, separators=(",", ":"),
                      ensure_ascii=True).encode("ascii")


def _key_bytes(key: bytes | str) -> bytes:
    """The HMAC key as bytes; an empty key would sign nothing anybody could not forge."""
    if isinstance(key, str):
        data = key.encode("utf-8")
    elif isinstance(key, (bytes, bytearray)):
        data = bytes(key)
    else:
        raise TypeError(f"a save key must be bytes or str, not {type(key).__name__}")
    if not data:
        raise ValueError("a save key must not be empty")
    return data


def _mac(key: bytes | str, data: bytes) -> str:
    return hmac.new(_key_bytes(key), data, hashlib.sha256).hexdigest()


def dump(name: str, players: int, seed: int, deck: Sequence[int] | None,
         options: Mapping[str, Any], log: list[int], rng: list[int],
         key: bytes | str | None, chosen: Mapping[int, Sequence[str]] | None = None) -> str:
    """The save of a game (``Game.to_json``): its configuration, its action log ``log`` and
    generator state ``rng`` (taken by the caller in one step), and the exact cards chosen
    (``chosen``: log index -> card notations), which make it a format-3 save."""
    body: dict[str, Any] = {
        "format": CHOSEN_CARDS_FORMAT if chosen else SAVE_FORMAT,
        "cardcore": __version__,
        "game": name,
        "players": players,
        "seed": seed,
        "deck": None if deck is None else [card_str(c) for c in deck],
        "options": dict(options),
        "actions": log,
        "rng": rng,
    }
    if chosen:
        body["cards"] = {str(i): " ".join(cards) for i, cards in sorted(chosen.items())}
    data = canonical_bytes(body)
    body["digest"] = hashlib.sha256(data).hexdigest()
    if key is not None:
        body["hmac"] = _mac(key, data)
    return json.dumps(body)


def _check_text(text: str) -> None:
    """Size and nesting caps before ``json.loads`` (deep nesting would recurse)."""
    if len(text) > MAX_SAVE_CHARS:
        raise ValueError(f"load_game: {len(text)} characters; a save has at most {MAX_SAVE_CHARS}")
    if text.count("[") + text.count("{") > MAX_CONTAINERS:
        raise ValueError(f"load_game: more than {MAX_CONTAINERS} lists/objects; not a save")
    depth = 0
    for match in _TOKENS.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise ValueError(f"load_game: JSON nested deeper than {MAX_DEPTH}; not a save")
        elif token in "]}":
            depth -= 1


def _check_structure(data: Any) -> None:
    """The same caps for a dict handed over already parsed (iterative: no recursion)."""
    stack = [(data, 1)]
    seen = 0
    while stack:
        value, depth = stack.pop()
        if isinstance(value, (dict, list, tuple)):
            seen += 1
            if depth > MAX_DEPTH:
                raise ValueError(f"load_game: nested deeper than {MAX_DEPTH}; not a save")
            if seen > MAX_CONTAINERS:
                raise ValueError(f"load_game: more than {MAX_CONTAINERS} lists/objects")
            items = value.values() if isinstance(value, dict) else value
            if isinstance(value, dict) or depth < MAX_DEPTH:
                stack.extend((v, depth + 1) for v in items
                             if isinstance(v, (dict, list, tuple)))


def _field(data: Mapping[str, Any], name: str, kind: type) -> Any:
    value = data.get(name)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise ValueError(f"load_game: field {name!r} missing or not a {kind.__name__}")
    return value


def _format1_options(cls: Any, options: dict[str, Any]) -> dict[str, Any]:
    """The options a format-1 (cardcore 0.1) save was played with: what it records, and for
    an option 0.1 did not have, the game's ``format1_options`` value (its 0.1 behaviour);
    options absent from both take their defaults."""
    return {**cls.format1_options, **options}


def _check_signatures(data: Mapping[str, Any], key: bytes | str | None) -> None:
    """Format 2: the digest must match; with a key the hmac too."""
    digest = data.get("digest")
    if not isinstance(digest, str):
        raise ValueError("load_game: the save has no digest (not written by Game.to_json)")
    try:
        signed = canonical_bytes(data)
    except (TypeError, ValueError):
        raise ValueError("load_game: the save holds values that are not JSON") from None
    if not hmac.compare_digest(digest, hashlib.sha256(signed).hexdigest()):
        raise ValueError("load_game: the digest does not match: the save was changed "
                         "(or corrupted) after it was written")
    if key is not None:
        mac = data.get("hmac")
        if not isinstance(mac, str):
            raise ValueError("load_game: a key was given but the save carries no hmac")
        if not hmac.compare_digest(mac, _mac(key, signed)):
            raise ValueError("load_game: the hmac does not match this key: the save was "
                             "changed, or written with another key")


def _chosen_cards(data: Mapping[str, Any], fmt: int, count: int) -> dict[int, list[str]]:
    """Format 3's ``cards``: {log index (a decimal string): "7H 7S JK"}, checked."""
    if fmt != CHOSEN_CARDS_FORMAT:
        return {}
    cards = data.get("cards")
    if not isinstance(cards, Mapping) or not cards:
        raise ValueError("load_game: a format-3 save needs 'cards' (log index -> card notations)")
    chosen: dict[int, list[str]] = {}
    for index, names in cards.items():
        if not (isinstance(index, str) and index.isdigit() and len(index) < 10
                and int(index) < count) or not isinstance(names, str):
            raise ValueError(f"load_game: 'cards' entry {echo(index)} is not a log index "
                             f"with card notations")
        chosen[int(index)] = names.split()
    return chosen


def load(data: str | bytes | Mapping[str, Any], key: bytes | str | None,
         game_class: Callable[[str], Any]) -> Any:
    """``load_game``: parse (with caps), check the signatures, then replay on a new game of
    the class ``game_class(name)`` gives (the registry's lookup)."""

    if key is not None:
        _key_bytes(key)                         # a bad key is refused before any parsing

    if isinstance(data, (bytes, bytearray)):
        if len(data) > MAX_SAVE_CHARS:
            raise ValueError(f"load_game: {len(data)} bytes; a save has at most {MAX_SAVE_CHARS}")
        try:
            data = bytes(data).decode("utf-8")
        except UnicodeDecodeError:
            raise ValueError("load_game: not UTF-8 text") from None
    if isinstance(data, str):
        _check_text(data)
        try:
            data = json.loads(data)
        except (json.JSONDecodeError, RecursionError) as e:
            raise ValueError(f"load_game: not JSON: {str(e)[:80]}") from None
    elif isinstance(data, Mapping):
        _check_structure(dict(data))
    if not isinstance(data, Mapping):
        raise ValueError("load_game: expected a JSON object")
    fmt = data.get("format")
    if type(fmt) is not int or fmt not in (FORMAT_0_1, SAVE_FORMAT, CHOSEN_CARDS_FORMAT):
        raise ValueError(f"load_game: unknown save format {echo(fmt)} (this cardcore reads "
                         f"the ints {FORMAT_0_1}, {SAVE_FORMAT} and {CHOSEN_CARDS_FORMAT})")
    name = _field(data, "game", str)
    players = _field(data, "players", int)
    seed = _field(data, "seed", int)
    options = _field(data, "options", dict)
    actions = _field(data, "actions", list)
    rng = _field(data, "rng", list)
    deck = data.get("deck")
    if deck is not None and not isinstance(deck, list):
        raise ValueError("load_game: field 'deck' must be null or a list of card notations")
    if not all(isinstance(k, str) for k in options):
        raise ValueError("load_game: option names must be strings")
    clash = sorted(k for k in options if k in PARAMETERS)
    if clash:
        raise ValueError(f"load_game: options may not repeat the parameter(s) {', '.join(clash)}")
    if fmt == FORMAT_0_1:
        # cardcore 0.1 wrote no digest; the 0.2 development line wrote format 1 with one.
        if "digest" in data or key is not None:
            _check_signatures(data, key)
        options = _format1_options(game_class(name), options)
    else:
        _check_signatures(data, key)
    replaying = REPLAYING_SAVE.set(True)
    try:
        game = game_class(name)(players=players, seed=seed, deck=deck, **options)
    finally:
        REPLAYING_SAVE.reset(replaying)
    chosen = _chosen_cards(data, fmt, len(actions))
    for index, action_id in enumerate(actions):
        if type(action_id) is not int:
            raise ValueError(f"load_game: action #{index} is not an int id")
        try:
            if index in chosen:
                game.apply(action_id, cards=chosen[index])
            else:
                game.apply(action_id)
        except IllegalActionError as e:
            raise ValueError(f"load_game: action #{index} (id {action_id}) is illegal: "
                             f"{str(e)[:120]}") from None
    if list(game._state.rng_state) != rng:
        raise ValueError("load_game: the generator state does not match the replayed game")
    return game
