"""The server's own words (docs/server.md, "Errors"): the templates of its refusals, each the
msgid of its message catalogs (English and Russian, ``cardcore/locale``), in one place. A
refusal carries its template as ``message_id`` and the values of its fields (``Words``), and
is put in the reader's language where it leaves (``render``): by its id, never by reading
its English back. A refusal without fields is its own template (``ApiError("no such table")``).
"""
from __future__ import annotations

from typing import Any

from cardcore.errors import Words
from cardcore.i18n import DEFAULT_LANG, LANGUAGES, N_, use
from cardcore.texts import words_text

__all__ = ["SERVER_MESSAGES", "render", "STALE_ACTION", "STALE_TAKEBACK", "MESSAGE_RATE",
           "HINT_RATE", "NOT_AN_OPTION", "TAKEBACK_PEOPLE", "TAKEBACK_BOOL", "SINCE_RANGE",
           "NOT_YOUR_TURN"]

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

# Every refusal a person at the web table meets (tables.py, app.py, takeback.py, the
# socket): tests/test_server_refusal_words.py holds each to a Russian text with its fields.
SERVER_MESSAGES = (
    STALE_ACTION, STALE_TAKEBACK, MESSAGE_RATE, HINT_RATE, NOT_AN_OPTION, TAKEBACK_PEOPLE,
    TAKEBACK_BOOL, SINCE_RANGE,
    N_("the match is over"),
    N_("the match is over: a seat forfeited on time"),
    N_("the match is over: its moves are final"),
    N_("the table was abandoned: nobody moved for too long"),
    N_("the table was deleted"),
    N_("no such table"),
    N_("you have no move to take back yet"),
    N_("a take-back at this table is under way; look again"),
    N_("this table has no take-backs (create it with \"takeback\": true)"),
    N_("the table moved on meanwhile (a move made through another server process); look again"),
    N_("storage failed; try again"),
    N_("storage failed; reconnect"),
    N_("storage failed: nothing was changed"),
    N_("storage failed: the action was not accepted"),
    N_("spectators cannot act: connect with a seat token"),
    N_("hints are for the seat to move, at its turn"),
    N_("hints are for a seat: give its token"),
    N_("bad token: it is not a token of this table"),
)


def render(words: Words, lang: str, game: Any = None, suffix: str = "") -> str:
    """``words`` in ``lang`` (the game's catalog first when ``game``, a game class, is
    given), then ``suffix`` (a rule ID stays as written); English: as made."""
    if lang == DEFAULT_LANG or lang not in LANGUAGES:
        return words.english() + suffix
    with use(lang, game):
        return words_text(words, game) + suffix
