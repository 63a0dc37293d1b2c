"""A TCP proxy the test controls, between `cardcore serve` and PostgreSQL: it forwards the
bytes of each connection in order, each chunk ``delay`` seconds late in each direction (a
slow store), and while ``silent`` it forwards nothing and closes nothing (a silent store:
packets dropped, as far as the server can tell); what it held goes on once it speaks again,
or ``reset()`` breaks every connection it holds instead (what TCP does to a connection whose
packets went unacknowledged past ``tcp_user_timeout``, or a firewall that forgot it).

    with StoreProxy(cluster.port) as proxy:
        url = cluster.url(database).replace(f":{cluster.port}/", f":{proxy.port}/")
        proxy.delay = 0.05
        proxy.silent = True
        proxy.reset()                       # or: proxy.silent = False
"""
from __future__ import annotations

import asyncio
import socket
import threading
from typing import Any


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class StoreProxy(threading.Thread):
    """127.0.0.1:port -> 127.0.0.1:target, in a thread with its own event loop."""

    def __init__(self, target: int) -> None:
        super().__init__(daemon=True)
        self.target = target
        self.port = free_port()
        self.delay = 0.0
        self.silent = False
        self.ready = threading.Event()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.stopping: asyncio.Event | None = None
        self.open: set[asyncio.StreamWriter] = set()       # both ends of every connection

    def __enter__(self) -> StoreProxy:
        self.start()
        self.ready.wait(10)
        return self

    def __exit__(self, *exc: Any) -> None:
        self.silent = False
        if self.loop is not None and self.stopping is not None:
            self.loop.call_soon_threadsafe(self.stopping.set)
        self.join(10)

    def reset(self) -> None:
        """Break every connection open now (what they held is lost), then forward again:
        new connections go through."""
        done = threading.Event()

        def abort() -> None:
            for writer in list(self.open):
                writer.transport.abort()
            self.open.clear()
            self.silent = False
            done.set()
        assert self.loop is not None
        self.loop.call_soon_threadsafe(abort)
        done.wait(10)

    def run(self) -> None:
        asyncio.run(self._serve())

    async def _serve(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.stopping = asyncio.Event()
        server = await asyncio.start_server(self._client, "127.0.0.1", self.port)
        self.ready.set()
        async with server:
            await self.stopping.wait()

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target)
        except OSError:
            writer.close()
            return
        self.open |= {writer, up_writer}
        await asyncio.gather(self._pipe(reader, up_writer), self._pipe(up_reader, writer),
                             return_exceptions=True)
        self.open -= {writer, up_writer}

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()

        async def deliver() -> None:
            while True:
                due, data = await queue.get()
                while True:
                    wait = due - loop.time()
                    if wait > 0:
                        await asyncio.sleep(wait)
                    if not self.silent:
                        break
                    await asyncio.sleep(0.02)       # held, unanswered, never closed
                if not data:
                    writer.close()
                    return
                writer.write(data)
                await writer.drain()
        delivering = asyncio.create_task(deliver())
        try:
            while True:
                data = await reader.read(65536)
                queue.put_nowait((loop.time() + self.delay, data))
                if not data:
                    break
            await delivering
        except (ConnectionError, OSError):
            delivering.cancel()
            writer.close()
