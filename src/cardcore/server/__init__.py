"""``cardcore serve``: the table server and the web table (server.md, docs/server.md).

    from cardcore.server import create_app
    app = create_app("tables.sqlite3", bot_delay=0.4)     # an ASGI app: uvicorn, hypercorn, ...

Needs the ``server`` extra: ``pip install "cardcore[server]"``.
"""
from __future__ import annotations

import gc
import logging
import re
from pathlib import Path

from cardcore.server.app import MAX_BODY, create_app

__all__ = ["create_app", "serve", "MAX_BODY", "DEFAULT_DB", "DEFAULT_BOT_DELAY"]

DEFAULT_DB = "cardcore-tables.sqlite3"
DEFAULT_BOT_DELAY = 0.4
SERVER_GC_THRESHOLDS = (50_000, 10, 10)     # gc.set_threshold in `cardcore serve`'s process
_TOKEN_IN_TEXT = re.compile(r"(token=)[^&\s\"']*", re.IGNORECASE)


class RedactTokens(logging.Filter):
    """Log lines never carry a seat token: ``?token=...`` is written ``?token=[redacted]``."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if "token=" in message.lower():
            record.msg = _TOKEN_IN_TEXT.sub(r"\1[redacted]", message)
            record.args = ()
        return True


def serve(host: str = "127.0.0.1", port: int = 8000, db: str | Path = DEFAULT_DB,
          bot_delay: float = DEFAULT_BOT_DELAY, max_tables: int = 1000,
          message_rate: float = 20.0, synchronous: str = "full",
          log_level: str = "info") -> None:
    """Run the server with uvicorn until interrupted."""
    import uvicorn

    app = create_app(db, bot_delay, max_tables=max_tables, message_rate=message_rate,
                     synchronous=synchronous)
    config = uvicorn.Config(app, host=host, port=port, log_level=log_level,
                            ws_max_size=MAX_BODY, server_header=False,
                            ws_per_message_deflate=False)   # CPU, not bandwidth, is scarce
    server = uvicorn.Server(config)
    # The server process is ours: the objects of start-up never need collecting, and a
    # young-generation pass every 700 allocations costs more than the cycles it finds (the
    # load benchmark: p99 60 -> 48 ms, 0.62 -> 0.52 ms of CPU per action).
    gc.freeze()
    gc.set_threshold(*SERVER_GC_THRESHOLDS)
    for name in ("uvicorn.access", "uvicorn.error", "uvicorn"):
        logging.getLogger(name).addFilter(RedactTokens())
    server.run()
