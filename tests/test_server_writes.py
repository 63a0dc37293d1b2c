"""The server's write batches (tables.py ``commit``/``_flush``): every action waiting in a batch
is answered, even when the request of another one in the same batch was cancelled (its client
went away) before the batch was stored."""
from __future__ import annotations

import asyncio

from cardcore.server.tables import TableServer


def test_a_cancelled_request_does_not_stop_the_batch_it_is_in(tmp_path):
    async def run() -> tuple[int, list[dict]]:
        problems: list[dict] = []
        asyncio.get_running_loop().set_exception_handler(lambda loop, ctx: problems.append(ctx))
        server = TableServer(str(tmp_path / "t.sqlite3"))
        try:
            tables = []
            for seed in (1, 2):
                table, tokens = await server.create("crazy_eights", 2, seed=seed)
                await server.settled(table)
                tables.append(table)
            moves = [asyncio.create_task(server.act(t, t.game.current_player,
                                                    t.game.legal_actions()[0].id, None))
                     for t in tables]
            await asyncio.sleep(0)             # both applied, both waiting for one batch
            moves[0].cancel()
            await asyncio.wait_for(moves[1], 5)  # answered although its batch mate is gone
            await server.settled(tables[0])
            stored = server.store.progress(tables[1].id)
            return stored[0] if stored else -1, problems
        finally:
            await server.close()

    stored, problems = asyncio.run(run())
    assert stored == 1
    assert problems == [], problems
