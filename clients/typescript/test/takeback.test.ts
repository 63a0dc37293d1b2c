// Take-backs through the client against a live `cardcore serve` (CARDCORE_URL): the seat takes
// moves back over its socket and over HTTP; its socket and a spectator's drop the events they
// had and hold the rewound stream (n = 0, 1, ...), and play goes on from it. A spectator that
// reconnects after a take-back it missed gets the rewound stream too (`?rewinds=`).
// Run by tests/test_ts_client.py, which starts the server.
import assert from "node:assert/strict";
import { test } from "node:test";

import { CardcoreClient, CardcoreError, type TableState } from "../src/index.js";

const base = process.env.CARDCORE_URL;
if (!base) throw new Error("set CARDCORE_URL to a running `cardcore serve` (tests/test_ts_client.py does)");
const client = new CardcoreClient(base);

const inOrder = (events: readonly { n: number }[]): boolean => events.every((e, i) => e.n === i);

test("take-backs rewind every socket of the table", async () => {
  const created = await client.createTable({
    game: "kings_stakes", players: 2, seed: 7, bots: { "1": "greedy" }, takeback: true });
  assert.equal(created.takeback, true);
  const token = created.seats["0"]!;
  const rewinds: number[] = [];
  const seat = client.connect(created.table, { token, onRewind: (s) => rewinds.push(s.event_count) });
  const spectator = client.connect(created.table, { reconnect: { initialMs: 20, attempts: 3 } });
  try {
    await Promise.all([seat.ready(), spectator.ready()]);
    const start = seat.state!;
    assert.deepEqual(start.takeback, { rewinds: 0, available: false });
    await assert.rejects(seat.takeBack(), (e: unknown) => e instanceof CardcoreError && e.status === 409);
    let state: TableState = start;
    for (let k = 0; k < 2; k += 1) state = await seat.act(state.legal[0]!.id, state.event_count);
    const two = state.event_count;
    await spectator.waitFor((s) => s.event_count === two);

    const back = await seat.takeBack();                     // over the socket
    assert.equal(back.takeback?.rewinds, 1);
    assert.ok(back.event_count < two && rewinds.length === 1);
    assert.equal(seat.events.length, back.event_count);
    assert.ok(inOrder(seat.events), "the seat's events are the rewound stream");
    const watched = await spectator.waitFor((s) => s.takeback?.rewinds === 1);
    assert.equal(watched.rewound, true);
    assert.equal(spectator.events.length, watched.event_count);
    assert.ok(inOrder(spectator.events));

    const http = await client.takeBack(created.table, token, back.event_count);   // over HTTP
    assert.equal(http.rewound, true);
    assert.deepEqual(http.legal, start.legal);
    assert.equal(http.event_count, start.event_count);
    await seat.waitFor((s) => s.takeback?.rewinds === 2);
    assert.equal(seat.eventCount, start.event_count);

    spectator.drop();                                        // misses the next take-back
    const again = await seat.act(http.legal[0]!.id, http.event_count);
    await seat.takeBack(again.event_count);
    await spectator.waitFor((s) => s.takeback?.rewinds === 3);
    assert.ok(spectator.connections >= 2);
    assert.equal(spectator.events.length, start.event_count);
    assert.ok(inOrder(spectator.events));

    const next = await seat.act(seat.state!.legal[0]!.id);   // play goes on
    assert.ok(next.event_count > start.event_count);
  } finally {
    seat.close();
    spectator.close();
  }
});
