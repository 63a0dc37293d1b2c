"""``cardcore serve``: the table server and the web table (server.md, docs/server.md).

    from cardcore.server import create_app
    app = create_app("tables.sqlite3", bot_delay=0.4)     # an ASGI app: uvicorn, hypercorn, ...

Needs the ``server`` extra: ``pip install ".[server]"`` in a checkout (cardcore.extras).
"""
from __future__ import annotations

import gc
import os
from pathlib import Path
from typing import Iterable, Sequence

from cardcore.server.app import MAX_BODY, WS_FRAME_CAP, create_app
from cardcore.server.limits import Limits
from cardcore.server.logs import RedactTokens, log_config

__all__ = ["create_app", "serve", "Limits", "RedactTokens", "MAX_BODY", "DEFAULT_DB",
           "DEFAULT_BOT_DELAY"]

DEFAULT_DB = "cardcore-tables.sqlite3"
DEFAULT_BOT_DELAY = 0.4
SERVER_GC_THRESHOLDS = (50_000, 10, 10)     # gc.set_threshold in `cardcore serve`'s process


def serve(host: str = "127.0.0.1", port: int = 8000, db: str | Path = DEFAULT_DB,
          bot_delay: float = DEFAULT_BOT_DELAY, max_tables: int | None = None,
          message_rate: float | None = None, synchronous: str = "full",
          log_level: str = "info", *, limits: Limits | None = None,
          allow_origins: Iterable[str] = (), allow_hosts: Iterable[str] = (),
          log_format: str = "text", forwarded_allow_ips: str | None = None,
          bots: str | Sequence[str] = (), drain: float = 0.0,
          quiet_health_checks: bool | None = None) -> None:
    """Run the server with uvicorn until interrupted (docs/server.md).

    ``drain``: seconds the first SIGTERM keeps the server up with ``/readyz`` answering 503
    before it shuts down (drain.py; 0: at once). ``quiet_health_checks``: leave /livez,
    /readyz and /healthz out of the access log (None: ``CARDCORE_QUIET_HEALTH_CHECKS``).

    HTTP is parsed by h11, whose head limit (``limits.max_header_bytes``) refuses an oversized
    request before it is buffered; connections per address and the head's deadline are
    connections.py's. Client addresses are the peers' unless
    ``forwarded_allow_ips`` names the proxies whose ``X-Forwarded-For`` is believed."""
    import uvicorn

    from cardcore.server.backpressure import bounded_protocol    # uvicorn's protocol, bounded
    from cardcore.server.connections import AddressSlots, guarded_http, trusted_proxies
    from cardcore.server.drain import DrainingServer

    from cardcore.server.in_use import SERVE_APP_NAME

    # libpq names the connections after this: `cardcore admin restore` sees the servers in
    # pg_stat_activity (in_use.py).
    os.environ.setdefault("PGAPPNAME", SERVE_APP_NAME)
    limits = limits or Limits()
    app = create_app(db, bot_delay, max_tables=max_tables, message_rate=message_rate,
                     synchronous=synchronous, limits=limits, allow_origins=allow_origins,
                     allow_hosts=allow_hosts, bots=bots)
    tables = app.state.tables
    app.state.access.enabled = True         # observe.py's line, with the request's duration
    if quiet_health_checks is not None:
        app.state.access.quiet_health = quiet_health_checks
    slots = AddressSlots(limits.max_connections_per_address,
                         exempt=trusted_proxies(forwarded_allow_ips))
    tables.metrics.connection_counts = slots.counts
    config = uvicorn.Config(app, host=host, port=port, log_level=log_level,
                            log_config=log_config(log_format, log_level),
                            access_log=False,           # observe.py writes it, timed
                            # h11, with connections per address and a deadline on each head
                            http=guarded_http(slots, limits.head_timeout, tables.refused),
                            h11_max_incomplete_event_size=limits.max_header_bytes,
                            limit_concurrency=limits.max_connections,
                            ws_max_size=max(WS_FRAME_CAP, limits.max_message + 1),
                            server_header=False,
                            proxy_headers=forwarded_allow_ips is not None,
                            forwarded_allow_ips=forwarded_allow_ips,
                            ws_per_message_deflate=False,   # CPU, not bandwidth, is scarce
                            ws=bounded_protocol(limits.max_outbox_bytes, limits.send_timeout,
                                                lambda: tables.refused("slow_reader"),
                                                slots.give))
    server = DrainingServer(config, tables, drain)
    # The server process is ours: the objects of start-up never need collecting, and a
    # young-generation pass every 700 allocations costs more than the cycles it finds (the
    # load benchmark: p99 60 -> 48 ms, 0.62 -> 0.52 ms of CPU per action).
    gc.freeze()
    gc.set_threshold(*SERVER_GC_THRESHOLDS)
    server.run()
