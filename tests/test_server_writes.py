"""The server's write batches (tables.py ``commit``/``_flush``): every action waiting in a batch
is answered, even when the request of another one in the same batch was cancelled (its client
went away) before the batch was stored."""
from __future__ import annotations

import asyncio

from cardcore.server.tables import NewTable, TableServer


def test_a_cancelled_request_does_not_stop_the_batch_it_is_in(tmp_path):
    async def run() -> tuple[int, list[dict]]:
        problems: list[dict] = []
        asyncio.get_running_loop().set_exception_handler(lambda loop, ctx: problems.append(ctx))
        server = TableServer(str(tmp_path / "t.sqlite3"))
        try:
            tables = []
            for seed in (1, 2):
                table, tokens = await server.create(NewTable("crazy_eights", 2, seed=seed))
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


def test_the_stored_row_is_read_and_written_by_column_name(tmp_path):
    """A table's settings are written by ``Store.insert``'s parameter names and its row read
    back by column name (no positional rows): a rematch's settings survive a reload, and
    each of StoredTable's fields is a column ``load`` reads."""
    import dataclasses
    import inspect

    from cardcore.server.store import LOADED_COLUMNS, SqlTableStore, StoredTable
    from cardcore.server.table_settings import TableSettings

    inserted = set(inspect.signature(SqlTableStore.insert).parameters)
    assert set(TableSettings({}, 0).columns()) <= inserted
    fields = {f.name for f in dataclasses.fields(StoredTable)}
    assert fields == {"join" if c == "join_mode" else c for c in LOADED_COLUMNS}

    async def run() -> list[tuple[TableSettings, TableSettings, dict[int, str]]]:
        server = TableServer(str(tmp_path / "t.sqlite3"))
        try:
            seated, _ = await server.create(NewTable(
                "crazy_eights", 3, seed=4, bots={"2": "greedy"}, open_seats=[1], listed=False,
                spectators=False, join="anyone"))
            alone, _ = await server.create(NewTable(
                "crazy_eights", 2, seed=5, bots={"1": "random"}, takeback=True))
            out = []
            for table in (seated, alone):
                reloaded = server.revive(server.store.load(table.id))
                out.append((table.settings, reloaded.settings, reloaded.token_hashes))
            return out
        finally:
            await server.close()

    (made, loaded, hashes), (made_alone, loaded_alone, _) = asyncio.run(run())
    assert made == loaded and made_alone == loaded_alone
    assert (loaded.bots, loaded.listed, loaded.spectators, loaded.join, loaded.takeback) == \
        ({2: "greedy"}, False, False, "anyone", False)
    assert loaded.creator_hash is not None and loaded.invite_hash is not None
    assert set(hashes) == {0}                  # seat 1 open, seat 2 a bot
    assert (loaded_alone.bots, loaded_alone.takeback, loaded_alone.join) == \
        ({1: "random"}, True, "invite")
