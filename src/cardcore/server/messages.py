"""The server's own words (docs/server.md, "Errors"): the templates of its refusals, each the
msgid of its message catalogs (English and Russian, ``cardcore/locale``), in one place. A
refusal carries its template as ``message_id`` and the values of its fields (``Words``), and
is put in the reader's language where it leaves (``render``): by its id, never by reading
its English back. A refusal without fields is its own template (``ApiError(NO_SUCH_TABLE)``,
``ApiError(403, N_("auth needs a token"))``): an id is always a marked text, never one made
with its values in it.
"""
from __future__ import annotations

from typing import Any

from cardcore.errors import Words
from cardcore.i18n import DEFAULT_LANG, LANGUAGES, N_, use
from cardcore.texts import words_text

__all__ = ["SERVER_MESSAGES", "render", "STALE_ACTION", "STALE_TAKEBACK", "MESSAGE_RATE",
           "HINT_RATE", "NOT_AN_OPTION", "TAKEBACK_PEOPLE", "TAKEBACK_BOOL", "SINCE_RANGE",
           "NOT_YOUR_TURN", "MUST_BE_INT", "INT_RANGE", "BODY_NOT_OBJECT", "UNKNOWN_FIELD",
           "BODY_TOO_BIG", "ACTION_REQUIRED", "NO_SUCH_GAME", "LANG_CHOICE", "BAD_TOKEN",
           "CREATOR_TOKEN", "NOT_FOUND", "STORAGE_RETRY", "NO_SUCH_TABLE",
           "TAKEBACK_UNDER_WAY", "MOVED_ON", "TABLE_DELETED"]

# Templates with fields, filled where the refusal is made.
STALE_ACTION = N_("stale: the action was sent after event {after}, but the table has {count} "
                  "events; look again")
STALE_TAKEBACK = N_("stale: the take-back was sent after event {after}, but the table has "
                    "{count} events; look again")
MESSAGE_RATE = N_("too many messages: at most {rate} per second")
HINT_RATE = N_("at most {rate} hints per second per seat")
NOT_AN_OPTION = N_("options: {name} is not a game option")
TAKEBACK_PEOPLE = N_("takeback: a table with take-backs has exactly one person's seat (the "
                     "others bots), not {count}: a take-back would undo another person's moves")
TAKEBACK_BOOL = N_("takeback must be true or false, not {value}")
SINCE_RANGE = N_("since must be an int 0..{count} (the event count), not {value}")
NOT_YOUR_TURN = N_("it is seat {seat}'s turn, not seat {other}'s")

# Templates more than one module refuses with (a field's name stays as written: ``{field}``).
MUST_BE_INT = N_("{field} must be an int")
INT_RANGE = N_("{field} must be an int {low}..{high}")
BODY_NOT_OBJECT = N_("the body must be a JSON object")
UNKNOWN_FIELD = N_("unknown field {name}")
BODY_TOO_BIG = N_("the body is over {limit} bytes")
ACTION_REQUIRED = N_("action is required (an id or a notation)")
NO_SUCH_GAME = N_("no such game")
LANG_CHOICE = N_("lang must be one of {languages}")
BAD_TOKEN = N_("bad token")
CREATOR_TOKEN = N_("deleting a table needs its creator token (Authorization: Bearer "
                   "CREATOR_TOKEN)")
NOT_FOUND = N_("not found")
STORAGE_RETRY = N_("storage failed; try again")
NO_SUCH_TABLE = N_("no such table")
TAKEBACK_UNDER_WAY = N_("a take-back at this table is under way; look again")
TABLE_DELETED = N_("the table was deleted")
MOVED_ON = N_("the table moved on meanwhile (a move made through another server process); "
              "look again")

# The templates above, each a refusal of the server; the others are marked ``N_()`` where they
# are made. tests/test_server_refusal_words.py finds every refusal the server makes (its
# constructors in server/ and server/routes/) and holds each to a template with its fields
# and a Russian text.
SERVER_MESSAGES = (
    STALE_ACTION, STALE_TAKEBACK, MESSAGE_RATE, HINT_RATE, NOT_AN_OPTION, TAKEBACK_PEOPLE,
    TAKEBACK_BOOL, SINCE_RANGE, NOT_YOUR_TURN, MUST_BE_INT, INT_RANGE, BODY_NOT_OBJECT,
    UNKNOWN_FIELD, BODY_TOO_BIG, ACTION_REQUIRED, NO_SUCH_GAME, LANG_CHOICE, BAD_TOKEN,
    CREATOR_TOKEN, NOT_FOUND, STORAGE_RETRY, NO_SUCH_TABLE, TAKEBACK_UNDER_WAY, TABLE_DELETED,
    MOVED_ON,
)


def render(words: Words, lang: str, game: Any = None, suffix: str = "") -> str:
    """``words`` in ``lang`` (the game's catalog first when ``game``, a game class, is
    given), then ``suffix`` (a rule ID stays as written); English: as made."""
    if lang == DEFAULT_LANG or lang not in LANGUAGES:
        return words.english() + suffix
    with use(lang, game):
        return words_text(words, game) + suffix
