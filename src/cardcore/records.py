"""Match records: provably fair deals and ``cardcore.verify``.

The format and the scheme are documented in docs/server.md, "Fair deals and match records".

A table of ``cardcore serve`` deals from a seed nobody alone chose and, at the match end,
publishes a *record*: the signed save of the match, the revealed seed material and how the
match ended. Anyone can check it with ``verify`` (``cardcore verify RECORD [--key K]``).

The fairness scheme ``"sha256-v1"`` (all hashes SHA-256, hex in JSON):

- the server draws ``server_seed`` (32 random bytes) and ``nonce`` (16 random bytes);
- ``commitment = SHA-256(server_seed || nonce)`` over the raw bytes, published at creation
  (the nonce keeps the commitment from being a plain hash of the seed alone);
- the client may send ``client_seed``, 1 to ``MAX_CLIENT_SEED`` printable ASCII characters;
- the deal seed is ``int(SHA-256(server_seed || client_seed)[:8], big-endian) >> 1`` (63 bits;
  ``client_seed`` as its ASCII bytes, empty when none was sent), the ``seed`` of the save.

At the end the record reveals ``server_seed`` and ``nonce``: anyone recomputes the commitment
and the seed, rebuilds the game from that seed and the options and replays every move.

Formats: 2 (cardcore 0.5) is a match record with the actual cards (cardcore.match_record,
``"format": "cardcore-record"``: every deal's cards, every action's cards and moves) with the
fields of format 1 besides, the digest and HMAC over all of it; ``verify`` also checks that
its cards are those the rules deal and move in its save's match. 1 (cardcore 0.4): the save,
the seed material and how the match ended, without the cards; ``verify`` still reads it.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from cardcore._version import __version__
from cardcore.errors import ConfigError, echo
from cardcore.match_record import FORMAT as CARDS_FORMAT
from cardcore.saves import MAX_SAVE_CHARS, _mac, canonical_bytes

__all__ = ["verify", "key_id", "key_named", "RecordError", "Fairness", "make_record", "commitment_of", "deal_seed",
           "check_client_seed", "RECORD_FORMAT", "SCHEME", "MAX_CLIENT_SEED", "ENDINGS"]

RECORD_FORMAT = 2
READ_FORMATS = (1, 2)                  # format 1 (0.4, no cards) is still verified
SCHEME = "sha256-v1"
SERVER_SEED_BYTES = 32
NONCE_BYTES = 16
MAX_CLIENT_SEED = 64
ENDINGS = ("over", "forfeit")          # by the rules; a seat's clock ran out (forfeit)
SEED_BITS = 63
MAX_RECORD_CHARS = MAX_SAVE_CHARS + 65536


class RecordError(ValueError):
    """A record that does not verify; ``check`` names the failed check: "format",
    "signature", "commitment", "seed", "moves", "complete", "timeouts" or "cards"."""

    def __init__(self, check: str, message: str) -> None:
        super().__init__(f"{check}: {message}")
        self.check = check


def commitment_of(server_seed: str, nonce: str) -> str:
    """``SHA-256(server_seed || nonce)`` over the bytes of the two hex strings, as hex."""
    return hashlib.sha256(bytes.fromhex(server_seed) + bytes.fromhex(nonce)).hexdigest()


def deal_seed(server_seed: str, client_seed: str | None) -> int:
    """The deal seed: the first 8 bytes of ``SHA-256(server_seed || client_seed)``,
    big-endian, shifted right by one (a 63-bit int)."""
    data = bytes.fromhex(server_seed) + (client_seed or "").encode("ascii")
    return int.from_bytes(hashlib.sha256(data).digest()[:8], "big") >> (64 - SEED_BITS)


def check_client_seed(value: Any) -> str | None:
    """A client's seed contribution as given, or ConfigError naming ``client_seed``."""
    if value is None:
        return None
    if not isinstance(value, str) or not 0 < len(value) <= MAX_CLIENT_SEED \
            or not all(" " <= ch <= "~" for ch in value):
        raise ConfigError(f"client_seed must be 1..{MAX_CLIENT_SEED} printable ASCII "
                          f"characters, not {echo(value)}", "client_seed")
    return value


@dataclass(frozen=True)
class Fairness:
    """The seed material of one table: secret until the match ends."""

    server_seed: str
    nonce: str
    client_seed: str | None = None

    @classmethod
    def fresh(cls, client_seed: str | None = None) -> Fairness:
        """New random seed material, with the client's contribution (checked)."""
        return cls(secrets.token_hex(SERVER_SEED_BYTES), secrets.token_hex(NONCE_BYTES),
                   check_client_seed(client_seed))

    @property
    def commitment(self) -> str:
        """``SHA-256(server_seed || nonce)``, published at creation."""
        return commitment_of(self.server_seed, self.nonce)

    @property
    def seed(self) -> int:
        """The deal seed (``deal_seed``)."""
        return deal_seed(self.server_seed, self.client_seed)

    def public(self) -> dict[str, Any]:
        """What everybody may see before the end."""
        return {"scheme": SCHEME, "commitment": self.commitment, "client_seed": self.client_seed}

    def revealed(self) -> dict[str, Any]:
        """What the record reveals."""
        return {**self.public(), "server_seed": self.server_seed, "nonce": self.nonce}

    def to_json(self) -> str:
        """As the server stores it (secret until the end)."""
        return json.dumps(self.revealed())

    @classmethod
    def from_json(cls, text: str) -> Fairness:
        """Back from ``to_json``."""
        data = json.loads(text)
        return cls(data["server_seed"], data["nonce"], data.get("client_seed"))


def make_record(game: Any, *, table: str, fairness: Fairness | None, ended: str = "over",
                forfeit: int | None = None, timeouts: list[dict[str, Any]] | None = None,
                key: bytes | str | None = None, names: list[str] | None = None
                ) -> dict[str, Any]:
    """The record of a finished match: its match record with the actual cards
    (``export_record``, the seats named ``names``), its save (signed with ``key`` when
    given), the revealed seed material, how it ended, the moves a clock made; a ``digest``
    over the whole record and, with a key, an ``hmac`` (the save's own scheme: saves.py)."""
    from cardcore.match_record import export_record
    body: dict[str, Any] = {
        **export_record(game, names=names),
        "record": RECORD_FORMAT, "cardcore": __version__, "table": table, "game": game.name,
        "ended": ended, "forfeit": forfeit, "timeouts": list(timeouts or []),
        "fairness": None if fairness is None else fairness.revealed(),
        "save": json.loads(game.to_json(key)),
    }
    if key is not None:                 # signed over too: which key, never the key itself
        body["key_id"] = key_id(key)
    data = canonical_bytes(body)
    body["digest"] = hashlib.sha256(data).hexdigest()
    if key is not None:
        body["hmac"] = _mac(key, data)
    return body


def key_id(key: bytes | str) -> str:
    """A short name for a record key that gives nothing of it away: the first 12 hex digits
    of its SHA-256. Records carry it (``key_id``), so a verifier holding several keys (a
    ring, retired keys) checks with the one the record names."""
    raw = key if isinstance(key, bytes) else key.encode()
    return hashlib.sha256(raw).hexdigest()[:12]


def key_named(record: Mapping[str, Any], keys: Iterable[bytes | str]) -> bytes | str:
    """Of ``keys`` (a ring: the current key, previous and retired ones), the one whose id
    the record names; ``RecordError`` ("signature") when none is. A record of 0.4, which
    names no key, gets the first of ``keys`` that its hmac matches (newest last)."""
    ring = list(keys)
    named = record.get("key_id") if isinstance(record, Mapping) else None
    if named is None:
        for key in reversed(ring):
            try:
                _check_signature(record, key)
                return key
            except RecordError:
                continue
        if not ring:
            raise RecordError("signature", "no key given")
        raise RecordError("signature", "no key given matches the hmac: the record was "
                                       "changed, or signed with another key")
    for key in ring:
        if key_id(key) == named:
            return key
    raise RecordError("signature", f"the record was signed with key {echo(named)}, which is "
                                   "not among the keys given (a key removed from the ring?)")


# ------------------------------------------------------------------------------ verify
def _parse(record: str | bytes | Mapping[str, Any]) -> Mapping[str, Any]:
    if isinstance(record, (bytes, bytearray)):
        try:
            record = bytes(record).decode("utf-8")
        except UnicodeDecodeError:
            raise RecordError("format", "not UTF-8 text") from None
    if isinstance(record, str):
        if len(record) > MAX_RECORD_CHARS:
            raise RecordError("format", f"{len(record)} characters; a record has at most "
                                        f"{MAX_RECORD_CHARS}")
        try:
            record = json.loads(record)
        except (ValueError, RecursionError) as e:
            raise RecordError("format", f"not JSON: {str(e)[:80]}") from None
    if not isinstance(record, Mapping):
        raise RecordError("format", "a record is a JSON object")
    if record.get("record") not in READ_FORMATS or type(record.get("record")) is not int:
        raise RecordError("format", f"unknown record format {echo(record.get('record'))} "
                                    f"(this cardcore reads {', '.join(map(str, READ_FORMATS))})")
    if record["record"] >= 2 and record.get("format") != CARDS_FORMAT:
        raise RecordError("format", f"a format-2 record is a {CARDS_FORMAT} (its 'format')")
    for name, kind in (("table", str), ("game", str), ("ended", str), ("save", Mapping),
                       ("timeouts", list), ("digest", str)):
        if not isinstance(record.get(name), kind):
            raise RecordError("format", f"field {name!r} missing or not a {kind.__name__}")
    return record


def _check_signature(record: Mapping[str, Any], key: bytes | str | None) -> None:
    try:
        data = canonical_bytes(record)
    except (TypeError, ValueError):
        raise RecordError("format", "the record holds values that are not JSON") from None
    if not hmac.compare_digest(str(record["digest"]), hashlib.sha256(data).hexdigest()):
        raise RecordError("signature", "the digest does not match: the record was changed "
                                       "after it was written")
    if key is not None:
        mac = record.get("hmac")
        if not isinstance(mac, str):
            raise RecordError("signature", "a key was given but the record carries no hmac")
        named = record.get("key_id")
        if named is not None and named != key_id(key):
            raise RecordError("signature", f"signed with another key: the record names key "
                                           f"{echo(named)}, this key is {key_id(key)}")
        if not hmac.compare_digest(mac, _mac(key, data)):
            raise RecordError("signature", "the hmac does not match this key: the record "
                                           "was changed, or signed with another key")


def _check_fairness(fair: Any, save: Mapping[str, Any]) -> None:
    if not isinstance(fair, Mapping) or fair.get("scheme") != SCHEME:
        raise RecordError("commitment", f"fairness must be an object of scheme {SCHEME!r}")
    try:
        server_seed, nonce = str(fair["server_seed"]), str(fair["nonce"])
        expected = commitment_of(server_seed, nonce)
        seed = deal_seed(server_seed, check_client_seed(fair.get("client_seed")))
    except (KeyError, ValueError, UnicodeEncodeError) as e:
        raise RecordError("commitment", f"bad seed material: {str(e)[:80]}") from None
    if len(server_seed) != 2 * SERVER_SEED_BYTES or len(nonce) != 2 * NONCE_BYTES:
        raise RecordError("commitment", "server_seed is 32 bytes and nonce 16 bytes (hex)")
    if not hmac.compare_digest(str(fair.get("commitment")), expected):
        raise RecordError("commitment", "SHA-256(server_seed || nonce) is not the commitment "
                                        "published at creation")
    if save.get("seed") != seed:
        raise RecordError("seed", f"the save's seed {echo(save.get('seed'))} is not the deal "
                                  f"seed {seed} of the revealed seeds")
    if save.get("deck") is not None:
        raise RecordError("seed", "the save stacks a deck: the deal did not come from the seed")


def verify(record: str | bytes | Mapping[str, Any], key: bytes | str | None = None, *,
           keys: Iterable[bytes | str] | None = None) -> dict[str, Any]:
    """Check a match record (``GET /api/tables/{id}/record``); returns a summary (game,
    table, moves, winners, whether the deal was committed and the record keyed) or raises
    ``RecordError`` naming the failed check.

    Checked always: the record's and its save's digests; the commitment against the revealed
    ``server_seed`` and ``nonce``; that the save's seed is the deal seed of those and the
    ``client_seed`` (and no deck was stacked); that the game rebuilt from that seed and the
    options replays every move legally to the generator state saved; that the match is over
    (or ended by the forfeit of the seat to move); that every clock timeout names the seat
    that was to move. With ``key``: the record's and the save's HMACs, so nothing can have
    been changed by anyone without the key. Without a key a digest can be recomputed by a
    forger: the deal is still proven (the commitment), the moves only proven legal.
    ``keys`` (instead of ``key``): a ring of keys, current, previous and retired; the one
    the record's ``key_id`` names checks it (``key_named``)."""
    from cardcore.registry import load_game

    data = _parse(record)
    if keys is not None:
        key = key_named(data, keys)
    _check_signature(data, key)
    save = data["save"]
    if save.get("game") != data["game"]:
        raise RecordError("format", "the record's game is not its save's")
    fair = data.get("fairness")
    if fair is not None:
        _check_fairness(fair, save)
    try:
        game = load_game(dict(save), key=key)
    except ValueError as e:
        text = str(e).removeprefix("load_game: ")
        check = "signature" if "hmac" in text or "digest" in text else "moves"
        raise RecordError(check, f"the save: {text[:200]}") from None
    ended, forfeit = data["ended"], data.get("forfeit")
    if ended == "over":
        if not game.is_over or forfeit is not None:
            raise RecordError("complete", f"the log ends after {len(save['actions'])} moves, "
                                          "before the match is over (a truncated record)")
    elif ended == "forfeit":
        if game.is_over or type(forfeit) is not int or forfeit != game.current_player:
            raise RecordError("complete", "a forfeit must be by the seat to move at the end "
                                          "of the log, before the match is over")
    else:
        raise RecordError("format", f"ended must be one of {', '.join(ENDINGS)}, not "
                                    f"{echo(ended)}")
    _check_timeouts(data["timeouts"], save, game)
    if data["record"] >= 2:
        _check_cards(data, game)
    winners = game.winners if forfeit is None else forfeit_winners(game, forfeit)
    return {"game": game.name, "table": data["table"], "moves": len(save["actions"]),
            "ended": ended, "forfeit": forfeit, "winners": winners, "scores": game.scores,
            "committed": fair is not None, "keyed": key is not None,
            "key_id": None if key is None else key_id(key)}


def _check_cards(record: Mapping[str, Any], game: Any) -> None:
    """Format 2: the record's cards (deals, actions, rounds, result) are those the rules make
    in the match its save holds (``import_record``)."""
    from cardcore.match_record import import_record
    try:
        rebuilt = import_record(record)
    except ValueError as e:
        raise RecordError("cards", f"{str(e)[:200]}") from None
    if rebuilt.action_log() != game.action_log() or rebuilt.seed != game.seed \
            or rebuilt.chosen_cards() != game.chosen_cards() or rebuilt.options != game.options:
        raise RecordError("cards", "the cards are those of another match than the save's")


def _check_timeouts(timeouts: list[Any], save: Mapping[str, Any], game: Any) -> None:
    """Each timeout ``{"seat", "move", "by"}``: the seat was the one to move before move
    number ``move`` (0-based; the forfeit's is the log's length)."""
    if not timeouts:
        return
    from cardcore.registry import new_game
    replay = new_game(game.name, players=game.num_players, seed=game.seed, **game.options)
    actions = list(save["actions"])
    at = 0
    for t in timeouts:
        if not isinstance(t, Mapping) or type(t.get("move")) is not int \
                or not at <= t["move"] <= len(actions):
            raise RecordError("timeouts", f"bad timeout entry {echo(t)}")
        while at < t["move"]:
            replay.apply(actions[at])
            at += 1
        if replay.current_player != t.get("seat"):
            raise RecordError("timeouts", f"move {t['move']}: seat {echo(t.get('seat'))} timed "
                                          f"out, but seat {replay.current_player} was to move")


def forfeit_winners(game: Any, seat: int) -> list[int]:
    """The winners when ``seat`` forfeits: every seat not on its side (``Game.sides_of``)."""
    sides = type(game).sides_of(game.num_players, game.options)
    return [s for s in range(game.num_players) if sides[s] != sides[seat]]
