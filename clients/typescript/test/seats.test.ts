// Open seats, presence and rematch through the client against a live `cardcore serve`
// (CARDCORE_URL; tests/test_ts_client.py starts it): the creator keeps one seat and an
// invite, a second player claims the other seat by name, presence follows the sockets, a
// seat leaves and is claimed again, and after the match both seats follow one rematch with
// the tokens they have.
import assert from "node:assert/strict";
import { test } from "node:test";

import { CardcoreClient, CardcoreError, type Presence, type TableSocket } from "../src/index.js";

const base = process.env.CARDCORE_URL;
if (!base) throw new Error("set CARDCORE_URL to a running `cardcore serve` (tests/test_ts_client.py does)");
const client = new CardcoreClient(base);

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

test("open seats claimed by name, presence, leave and rematch through the client", async () => {
  const made = await client.createTable({ game: "crazy_eights", players: 2, open_seats: [1],
                                          names: { "0": "Ann" } });
  assert.deepEqual(Object.keys(made.seats), ["0"]);
  assert.ok(made.invite && made.invite.length >= 32);
  const table = made.table;
  const ann = made.seats["0"] as string;
  await assert.rejects(client.claimSeat(table, { name: "Bob", invite: "not-the-invite" }),
                       (e: unknown) => e instanceof CardcoreError && e.status === 403);
  const bad = await client.claimSeat(table, { name: "", invite: made.invite }).catch((e) => e);
  assert.ok(bad instanceof CardcoreError && bad.status === 422 && bad.body["field"] === "name");
  const bob = await client.claimSeat(table, { name: "Bob", invite: made.invite });
  assert.equal(bob.seat, 1);
  const notices: Record<string, unknown>[] = [];
  const watcher = client.connect(table, { token: ann, presence: true,
                                          onNotice: (m) => notices.push(m) });
  await watcher.ready();
  assert.deepEqual(watcher.state?.seats.map((s) => s.name), ["Ann", "Bob"]);
  assert.deepEqual(watcher.presence, ["connected", "away"] satisfies Presence[]);
  const bobSocket = client.connect(table, { token: bob.token });
  await bobSocket.ready();
  await until(() => watcher.presence[1] === "connected", "Bob connected");
  assert.ok(notices.some((m) => m["type"] === "presence" && m["seat"] === 1));
  // Bob leaves: his socket closes for good (4010), the seat is open, his token void.
  let again: TableSocket | undefined;
  const closed = new Promise<number>((resolve) => {
    again = client.connect(table, { token: bob.token, onClose: (code) => resolve(code) });
  });
  await again!.ready();
  bobSocket.close();
  await client.leaveSeat(table, 1, bob.token);
  assert.equal(await closed, 4010);
  await until(() => watcher.presence[1] === "open", "seat 1 open");
  await assert.rejects(client.state(table, bob.token),
                       (e: unknown) => e instanceof CardcoreError && e.status === 403);
  const cy = await client.claimSeat(table, { name: "Cy", invite: made.invite, seat: 1 });
  // Play the match out over HTTP, then both seats ask for the rematch: one table.
  const tokens = [ann, cy.token];
  for (let moves = 0; moves < 2000; moves++) {
    const state = await client.state(table, ann);
    if (state.over) break;
    const mover = tokens[state.current_player ?? 0] as string;
    const mine = await client.state(table, mover);
    await client.act(table, mover, mine.legal[0]!.id, mine.event_count);
  }
  assert.ok((await client.state(table, ann)).over);
  const [first, second] = await Promise.all([client.rematch(table, ann), client.rematch(table, cy.token)]);
  assert.equal(first.table, second.table);
  assert.equal(first.from, table);
  await until(() => watcher.rematch === first.table, "the rematch notice");
  assert.ok(notices.some((m) => m["type"] === "rematch" && m["table"] === first.table));
  watcher.close();
  const next = await client.state(first.table, cy.token);       // the same token, the new table
  assert.equal(next.seat, 1);
  assert.deepEqual(next.seats.map((s) => s.name), ["Ann", "Cy"]);
  assert.equal(next.over, false);
});
