"""``cardcore admin``: the command line of cardcore.server.admin (docs/operations.md).

Kept apart from the server package so that ``cardcore --help`` works without the server
extra: each action imports the server's modules only when it runs."""
from __future__ import annotations

import argparse
import json
import os
import time
from typing import Any, Callable

from cardcore.i18n import LANGUAGES

# The key ring's variable (cardcore.server.record_keys), named here without importing it.
RECORD_KEY_FILE_ENV = "CARDCORE_RECORD_KEY_FILE"


# ------------------------------------------------------------------ the command line
def add_parser(sub: Any) -> None:
    """``cardcore admin ACTION`` among the CLI's subcommands."""
    admin = sub.add_parser("admin", help="operate a server's table store: list tables, end "
                           "one, free a seat, rotate the record key, back up and restore",
                           description="Operate the table store of `cardcore serve` "
                           "(docs/operations.md). Servers running on the store notice a "
                           "change within seconds.")
    commands = admin.add_subparsers(dest="admin_command", metavar="ACTION", required=True)

    def action(name: str, help_text: str, func: Callable[..., int],
               db: bool = True) -> argparse.ArgumentParser:
        p: argparse.ArgumentParser = commands.add_parser(name, help=help_text,
                                                         description=help_text)
        # Its refusals in the reader's language (cli.main renders a ConfigError in --lang).
        p.add_argument("--lang", default="en", metavar="LANG",
                       help=f"language of the refusals: {', '.join(LANGUAGES)} (default en)")
        if db:
            p.add_argument("--db", default="cardcore-tables.sqlite3",
                           help="the store: a SQLite file or a postgresql:// URL, as given to "
                                "`cardcore serve` (default: cardcore-tables.sqlite3)")
        p.set_defaults(func=func)
        return p

    p = action("list", "list the open tables (with --all, ended ones too), listed or not, "
               "with the server process serving each", cmd_list)
    p.add_argument("--all", action="store_true", help="ended tables too")
    p.add_argument("--json", action="store_true", help="print JSON")
    p = action("end", "end an open table as closed by the operator", cmd_end)
    p.add_argument("table", help="the table's id")
    p = action("free-seat", "free a person's seat: the token stops working, the seat "
               "opens to a claim", cmd_free_seat)
    p.add_argument("table", help="the table's id")
    p.add_argument("seat", type=int, help="the seat")
    p = action("rotate-key", "add a new record key to a key ring (the servers sign with it "
               "from the next record on; older records still verify)", cmd_rotate_key, db=False)
    p.add_argument("--key-file", default=os.environ.get(RECORD_KEY_FILE_ENV),
                   required=RECORD_KEY_FILE_ENV not in os.environ, metavar="RING",
                   help=f"the ring the servers read ({RECORD_KEY_FILE_ENV})")
    p = action("backup", "copy the store while servers run (SQLite's backup API; pg_dump)",
               cmd_backup)
    p.add_argument("out", help="the backup file to write")
    p.add_argument("--force", action="store_true", help="overwrite OUT")
    p = action("restore", "put a backup in place of the store (refused while a server uses "
               "it)",
               cmd_restore)
    p.add_argument("backup", help="a file written by `cardcore admin backup`")
    p.add_argument("--force", action="store_true",
                   help="replace a store that holds tables")


def cmd_list(args: argparse.Namespace, console: Any) -> int:
    from cardcore.server.admin import list_tables
    rows = list_tables(args.db, include_over=args.all)
    if args.json:
        console.out(json.dumps(rows), highlight=False)
        return 0
    if not rows:
        console.print("no tables" if args.all else "no open tables", highlight=False)
        return 0
    for row in rows:
        state = row["ended"] or ("over" if row["over"] else "open")
        people = ", ".join(f"{seat}: {row['names'].get(seat, '(unnamed)')}"
                           for seat in row["taken_seats"]) or "none"
        created = time.strftime("%Y-%m-%d %H:%M", time.gmtime(row["created"]))
        served = f"process {row['process']}" if row["process"] else "no process"
        console.print(f"{row['table']}  {row['game']}  {row['players']} players  "
                      f"{row['moves']} moves  {state}  people: {people}  {served}  "
                      f"created {created} UTC",
                      highlight=False, markup=False, soft_wrap=True)
    return 0


def cmd_end(args: argparse.Namespace, console: Any) -> int:
    from cardcore.server.admin import end_table
    end_table(args.db, args.table)
    console.print(f"table {args.table} closed", highlight=False, markup=False)
    return 0


def cmd_free_seat(args: argparse.Namespace, console: Any) -> int:
    from cardcore.server.admin import free_seat
    name = free_seat(args.db, args.table, args.seat)
    held = "" if name is None else f" (held by {name})"
    console.print(f"seat {args.seat} of table {args.table} freed{held}", highlight=False,
                  markup=False)
    return 0


def cmd_rotate_key(args: argparse.Namespace, console: Any) -> int:
    from cardcore.server.record_keys import rotate
    ident = rotate(args.key_file)
    console.print(f"new record key {ident} added to {args.key_file}", highlight=False,
                  markup=False)
    return 0


def cmd_backup(args: argparse.Namespace, console: Any) -> int:
    from cardcore.server.admin import backup
    out = backup(args.db, args.out, force=args.force)
    console.print(f"backed up to {out} ({out.stat().st_size} bytes)", highlight=False,
                  markup=False)
    return 0


def cmd_restore(args: argparse.Namespace, console: Any) -> int:
    from cardcore.server.admin import restore
    restore(args.backup, args.db, force=args.force)
    console.print(f"restored {args.backup}", highlight=False, markup=False)
    return 0
