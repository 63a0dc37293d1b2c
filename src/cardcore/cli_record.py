"""``cardcore record``: match records with the actual cards (cardcore.match_record).

    cardcore record export SAVE -o RECORD [--seat S] [--names A,B]
    cardcore record import RECORD -o SAVE
    cardcore record schema

Kept apart from cli.py: the command group adds one line there."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from cardcore.errors import ConfigError, echo

MAX_INPUT_BYTES = 256 * 1024 * 1024      # a save or record read here, at most


def add_parser(sub: Any) -> None:
    """``cardcore record ACTION`` among the CLI's subcommands."""
    record = sub.add_parser("record", help="match records with the actual cards: export a "
                            "save, import a record, print the format's schema",
                            description="Match records (docs/api.md, \"Match records with the "
                            "actual cards\"): one "
                            "JSON file per match that names every card, readable without "
                            "cardcore.")
    actions = record.add_subparsers(dest="record_command", metavar="ACTION", required=True)
    p = actions.add_parser("export", help="write the record of a save (with --seat: what "
                           "that seat saw, hidden cards as ??, no seed)")
    p.add_argument("save", help="a save (Game.to_json, `cardcore play --save`) or a record "
                   "of `cardcore serve` (either format), or -")
    p.add_argument("-o", "--out", required=True, help="the record file to write, or -")
    p.add_argument("--seat", type=int, default=None, help="redact for this seat")
    p.add_argument("--names", default=None, help="the seats' names, comma-separated")
    p.set_defaults(func=cmd_export)
    p = actions.add_parser("import", help="rebuild the save of a full record, every action "
                           "checked against the rules")
    p.add_argument("record", help="a full record (not a seat's redaction), or -")
    p.add_argument("-o", "--out", required=True, help="the save file to write, or -")
    p.set_defaults(func=cmd_import)
    p = actions.add_parser("schema", help="print the JSON Schema of the record format")
    p.set_defaults(func=cmd_schema)


def records_flag(p: argparse.ArgumentParser) -> None:
    """``--records DIR`` of ``simulate`` and ``tournament``."""
    p.add_argument("--records", metavar="DIR", default=None,
                   help="write each game's match record (cardcore-record, the actual cards) "
                        "into DIR; the same games, played through Python, so slower")


def _read(path: str, what: str) -> bytes:
    try:
        if path == "-":
            return sys.stdin.buffer.read(MAX_INPUT_BYTES + 1)
        with open(path, "rb") as f:
            return f.read(MAX_INPUT_BYTES + 1)
    except OSError as e:
        raise ConfigError(f"cannot read {echo(path)}: {e.strerror}", what) from None


def _write(path: str, text: str) -> None:
    if path == "-":
        sys.stdout.write(text + "\n")
        return
    try:
        Path(path).write_text(text + "\n", encoding="utf-8")
    except OSError as e:
        raise ConfigError(f"cannot write {echo(path)}: {e.strerror}", "out") from None


def cmd_export(args: argparse.Namespace, console: Any) -> int:
    from cardcore.match_record import dumps, export_record
    from cardcore.registry import load_game
    data: Any = _read(args.save, "save")
    try:
        parsed = json.loads(data)
    except ValueError:
        parsed = None
    if isinstance(parsed, dict) and isinstance(parsed.get("record"), int) \
            and isinstance(parsed.get("save"), dict):
        data = parsed["save"]           # a server's record (format 1 or 2): its save
    try:
        game = load_game(data)
    except ValueError as e:
        raise ConfigError(str(e), "save") from None
    names = None if args.names is None else args.names.split(",")
    if args.seat is not None and not 0 <= args.seat < game.num_players:
        raise ConfigError(f"--seat must be 0..{game.num_players - 1}, not {echo(args.seat)}",
                          "seat")
    try:
        record = export_record(game, seat=args.seat, names=names)
    except ValueError as e:
        raise ConfigError(str(e), "names") from None
    _write(args.out, dumps(record))
    return 0


def cmd_import(args: argparse.Namespace, console: Any) -> int:
    from cardcore.match_record import import_record
    try:
        game = import_record(_read(args.record, "record"))
    except ValueError as e:
        raise ConfigError(f"the record: {e}", "record") from None
    _write(args.out, game.to_json())
    return 0


def cmd_schema(args: argparse.Namespace, console: Any) -> int:
    from cardcore.match_record import RECORD_SCHEMA
    sys.stdout.write(json.dumps(RECORD_SCHEMA, indent=2) + "\n")
    return 0
