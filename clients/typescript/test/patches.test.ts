// Patches against a live `cardcore serve` (CARDCORE_URL): the same seat watched by a socket
// that takes patches (the default) and one that takes whole states (`patches: false`), and a
// spectator of each kind, through a whole match: at every event count both were pushed, the
// states the app sees are equal, and so are the events.
// Run by tests/test_ts_client.py, which starts the server.
import assert from "node:assert/strict";
import { test } from "node:test";

import { CardcoreClient, type TableSocket, type TableState } from "../src/index.js";

const base = process.env.CARDCORE_URL;
if (!base) throw new Error("set CARDCORE_URL to a running `cardcore serve` (tests/test_ts_client.py does)");
const client = new CardcoreClient(base);

/** Each state pushed, by its event count, without the fields of one push (`events`, `id`). */
function recorder(): { states: Map<number, unknown>; onState: (s: TableState) => void } {
  const states = new Map<number, unknown>();
  return {
    states,
    onState: (s) => {
      const { events, id, ...rest } = s;
      states.set(s.event_count, rest);
    },
  };
}

function compare(a: Map<number, unknown>, b: Map<number, unknown>, who: string): number {
  let common = 0;
  for (const [count, state] of a) {
    if (!b.has(count)) continue;
    common += 1;
    assert.deepEqual(state, b.get(count), `${who}: the states at event ${count} differ`);
  }
  return common;
}

test("patches applied give the whole states, for a whole match", async () => {
  const created = await client.createTable({
    game: "kings_stakes", players: 3, seed: 11, bots: { "1": "greedy", "2": "greedy" } });
  const token = created.seats["0"]!;
  const [patched, whole, watched, watchedWhole] = [recorder(), recorder(), recorder(), recorder()];
  const sockets: TableSocket[] = [
    client.connect(created.table, { token, onState: patched.onState }),
    client.connect(created.table, { token, patches: false, onState: whole.onState }),
    client.connect(created.table, { onState: watched.onState }),
    client.connect(created.table, { patches: false, onState: watchedWhole.onState }),
  ];
  const [me, mine, spectator, spectatorWhole] = sockets as [TableSocket, TableSocket,
                                                            TableSocket, TableSocket];
  try {
    await Promise.all(sockets.map((s) => s.ready()));
    let moves = 0;
    for (;;) {
      const state = await me.waitFor((s) => s.over || s.legal.length > 0);
      if (state.over) break;
      await me.act(state.legal[moves % state.legal.length]!.id);
      moves += 1;
    }
    const final = me.state!.event_count;
    await Promise.all([mine, spectator, spectatorWhole].map(
      (s) => s.waitFor((t) => t.event_count === final && t.over)));
    assert.ok(moves > 5);
    assert.ok(compare(patched.states, whole.states, "seat 0") >= moves);
    assert.ok(compare(watched.states, watchedWhole.states, "spectator") >= moves);
    assert.deepEqual(me.events, mine.events);
    assert.deepEqual(spectator.events, spectatorWhole.events);
    const got = await client.state(created.table, token);
    // GET answers the last page of events (docs/server.md, "Reading a table"), from events_from.
    const { events, events_from: from, ...rest } = got;
    assert.equal(from, Math.max(0, final - 100));
    assert.deepEqual(events, me.events.slice(from), "GET's last page differs from the events");
    assert.deepEqual(patched.states.get(final), rest, "the last state differs from GET's");
  } finally {
    for (const s of sockets) s.close();
  }
});
