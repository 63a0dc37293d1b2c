"""``/metrics`` and ``/healthz`` of the table server (docs/server.md, "Health and metrics").

One ``Metrics`` per server: its own Prometheus registry (so several apps in one process do not
collide), histograms filled as things happen, and gauges read from the tables at scrape time.
The watchdog marks a table *stalled* when the seat to move is a bot or a person with a socket
open and the table has not advanced for ``stall_after`` seconds.
"""
from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping, Protocol

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import Collector

from cardcore._version import __version__
from cardcore.server.observe import REQUEST_BUCKETS

if TYPE_CHECKING:
    from cardcore.server.responses import Health
    from cardcore.game import Game
    from cardcore.server.audience import Audience
    from cardcore.server.vitals import Vitals

__all__ = ["Metrics", "MeteredServer", "CONTENT_TYPE"]

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
FAST = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)


class MeteredRoom(Protocol):
    """What a scrape reads of a room (room.py's ``Room``)."""

    @property
    def ended(self) -> str | None: ...
    @property
    def game(self) -> Game: ...
    @property
    def audience(self) -> Audience: ...
    @property
    def runner(self) -> asyncio.Task[None] | None: ...
    @property
    def stalled(self) -> bool: ...
    @property
    def id(self) -> str: ...


class LeaseCounts(Protocol):
    """What a scrape reads of the leases (leases.py's ``Leases``)."""

    @property
    def until(self) -> Mapping[str, float]: ...
    @property
    def taken(self) -> int: ...
    @property
    def handed(self) -> int: ...
    @property
    def lost(self) -> int: ...
    def holds(self, table_id: str) -> bool: ...


class MeteredServer(Protocol):
    """What a scrape and ``/healthz`` read of the server (tables.py's ``TableServer``: not
    imported, tables.py imports this)."""

    @property
    def vitals(self) -> Vitals: ...
    @property
    def tables(self) -> Mapping[str, MeteredRoom]: ...
    @property
    def refusals(self) -> Mapping[str, int]: ...
    @property
    def metrics(self) -> Metrics: ...
    @property
    def reloads(self) -> int: ...
    @property
    def deleted(self) -> int: ...
    @property
    def abandoned(self) -> int: ...
    @property
    def leases(self) -> LeaseCounts | None: ...
    @property
    def process_id(self) -> str: ...


class Metrics:
    """The histograms and counters of one server, and the scrape of its gauges."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=False)
        self.actions = Counter("cardcore_actions", "actions applied, by who played them",
                               ["by"], registry=self.registry)
        self.action_seconds = Histogram(
            "cardcore_action_seconds", "a person's action, from its arrival to its commit "
            "(and the bot moves it triggers without a bot delay)", buckets=FAST,
            registry=self.registry)
        self.store_seconds = Histogram("cardcore_store_seconds", "one write to the store "
                                       "(a batch of commits, a new table, a deletion)",
                                       buckets=FAST, registry=self.registry)
        self.loop_lag = Histogram("cardcore_event_loop_lag_seconds", "how late the event "
                                  "loop woke a timer (vitals.py): every request, move and "
                                  "push of the process waited that long", buckets=FAST,
                                  registry=self.registry)
        self.bot_seconds = Histogram("cardcore_bot_think_seconds", "one bot move's thinking",
                                     buckets=FAST, registry=self.registry)
        self.bot_fallbacks = Counter("cardcore_bot_fallbacks", "plug-in bot seats handed "
                                     "to the fallback bot after failing on their turn",
                                     ["game"], registry=self.registry)
        self.stalls = Counter("cardcore_stalls", "tables found stalled by the watchdog",
                              registry=self.registry)
        self.bad_credentials = Counter("cardcore_bad_credentials", "wrong seat tokens, "
                                       "invites and creator tokens (guesses)",
                                       registry=self.registry)
        self.requests = Histogram("cardcore_request_seconds", "an HTTP request, from its "
                                  "arrival to its last byte, by route template and method",
                                  ["route", "method"], buckets=REQUEST_BUCKETS,
                                  registry=self.registry)
        self.socket_closes = Counter("cardcore_socket_closes", "WebSockets closed, by close "
                                     "code and by whom: app (the server's code), connection "
                                     "(the client, or uvicorn)", ["code", "by"],
                                     registry=self.registry)
        # Under `cardcore serve`: () -> (open connections, addresses, the most from one
        # address), from the connection guard (connections.py); None when embedded.
        self.connection_counts: Callable[[], tuple[int, int, int]] | None = None

    def attach(self, server: MeteredServer) -> None:
        self.registry.register(_Gauges(server))

    def render(self) -> bytes:
        return generate_latest(self.registry)


class _Gauges(Collector):
    """What is read from the tables when /metrics is scraped."""

    def __init__(self, server: MeteredServer) -> None:
        self.server = server

    def collect(self) -> Iterator[Any]:
        server = self.server
        yield from _table_families(server)
        in_memory = list(server.tables.values())
        connections = GaugeMetricFamily("cardcore_connections", "WebSocket connections",
                                        labels=["kind"])
        seats = spectators = outbox_total = outbox_max = bytes_total = bytes_max = 0
        for table in in_memory:
            for c in table.audience:
                if c.seat is None:
                    spectators += 1
                else:
                    seats += 1
                outbox_total += c.messages()
                outbox_max = max(outbox_max, c.messages())
                bytes_total += c.outbox_bytes()
                bytes_max = max(bytes_max, c.outbox_bytes())
        connections.add_metric(["seat"], seats)
        connections.add_metric(["spectator"], spectators)
        yield connections
        outbox = GaugeMetricFamily("cardcore_outbox_messages", "messages waiting in the "
                                   "sockets' outboxes", labels=["stat"])
        outbox.add_metric(["total"], outbox_total)
        outbox.add_metric(["max"], outbox_max)
        yield outbox
        outbox_bytes = GaugeMetricFamily("cardcore_outbox_bytes", "bytes waiting in the "
                                         "sockets' outboxes (queued, or being sent)",
                                         labels=["stat"])
        outbox_bytes.add_metric(["total"], bytes_total)
        outbox_bytes.add_metric(["max"], bytes_max)
        yield outbox_bytes
        refusals = CounterMetricFamily("cardcore_refusals", "requests and messages refused "
                                       "by a limit or a check, by reason", labels=["reason"])
        for reason, count in sorted(server.refusals.items()):
            refusals.add_metric([reason], count)
        yield refusals
        if server.metrics.connection_counts is not None:
            total, addresses, most = server.metrics.connection_counts()
            open_now = GaugeMetricFamily("cardcore_open_connections", "open TCP connections "
                                         "(WebSockets included), as counted against "
                                         "max_connections_per_address", labels=["stat"])
            open_now.add_metric(["total"], total)
            open_now.add_metric(["addresses"], addresses)
            open_now.add_metric(["max_per_address"], most)
            yield open_now
        stalled = GaugeMetricFamily("cardcore_tables_stalled", "tables whose seat to move is "
                                    "there (a bot, or a person with a socket) and which have "
                                    "not advanced for stall_after seconds")
        stalled.add_metric([], sum(1 for t in in_memory if t.stalled))
        yield stalled
        for name, value, text in (
                ("cardcore_tables_reloaded", server.reloads, "tables reloaded from the store"),
                ("cardcore_tables_deleted", server.deleted, "tables deleted"),
                ("cardcore_tables_abandoned", server.abandoned, "tables ended as abandoned")):
            family = CounterMetricFamily(name, text)
            family.add_metric([], value)
            yield family
        if server.leases is not None:               # a shared store (leases.py)
            yield from _lease_families(server.leases)


def _lease_families(leases: LeaseCounts) -> Iterator[Any]:
    """The leases' gauge and counters (a shared store's)."""
    held = GaugeMetricFamily("cardcore_leases_held", "tables this process serves "
                             "(their leases held)")
    held.add_metric([], len(leases.until))
    yield held
    moves = CounterMetricFamily("cardcore_lease_changes", "tables taken over "
                                "(taken), handed to another process that asked "
                                "(handed), or found lost at a renewal (lost)",
                                labels=["change"])
    for change, value in (("taken", leases.taken), ("handed", leases.handed),
                          ("lost", leases.lost)):
        moves.add_metric([change], value)
    yield moves


def health(server: MeteredServer) -> tuple[int, Health]:
    """``/healthz``: 200 while the store answers, 503 otherwise, as the background check
    last found it (vitals.py): never waiting on the store."""
    return server.vitals.body(len(server.tables))


def _table_families(server: MeteredServer) -> Iterator[Any]:
    """The build's info, this process's tables and the whole store's."""
    build = GaugeMetricFamily("cardcore_build_info", "this process: cardcore's version "
                              "and the process id its leases, presence rows and log lines "
                              "carry", labels=["version", "process"])
    build.add_metric([__version__, server.process_id], 1)
    yield build
    # This process's tables (summed over the processes, each table counts once), then the
    # database's, which every process reports alike (do not sum those).
    tables = GaugeMetricFamily("cardcore_tables", "this process's tables: held (open "
                               "tables it serves: their leases held, or with one process "
                               "every open table in memory), active (held, with a socket "
                               "or a bot running), in_memory", labels=["state"])
    in_memory = list(server.tables.values())
    live = [t for t in in_memory if t.ended is None and not t.game.is_over]
    leases = server.leases
    served = len(live) if leases is None else sum(1 for t in live if leases.holds(t.id))
    active = sum(1 for t in live if t.audience.sockets or t.runner is not None)
    tables.add_metric(["held"], served)
    tables.add_metric(["active"], active)
    tables.add_metric(["in_memory"], len(in_memory))
    yield tables
    counts = server.vitals.counts                   # read in the background (vitals.py)
    stored = GaugeMetricFamily("cardcore_store_tables", "the whole store's tables (every "
                               "process reports the same figure): open (not ended), "
                               "finished (ended, kept until the retention)",
                               labels=["state"])
    stored.add_metric(["open"], counts["open"])
    stored.add_metric(["finished"], counts["finished"])
    yield stored
