// Complete matches of every game against a live `cardcore serve` (CARDCORE_URL), through the
// client: seat 0 plays over its WebSocket, seat 1 over HTTP (watching its own socket), the
// other seats are bots, and a spectator watches. Every socket must receive every event once
// and in order; seat 0's socket is dropped once mid-match and resumes from `since`.
// Run by tests/test_ts_client.py, which starts the server.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  CardcoreClient, CardcoreError, GAMES, type GameAction, type GameEvent, type GameName,
  type TableSocket,
  type TableState,
} from "../src/index.js";

const base = process.env.CARDCORE_URL;
if (!base) throw new Error("set CARDCORE_URL to a running `cardcore serve` (tests/test_ts_client.py does)");
const client = new CardcoreClient(base);

// A short match of each game: its `Game.short_match`, which tests/test_ts_client.py passes
// from the registry as CARDCORE_SHORT_MATCHES ({game: {players, options}}): no game is named here.
type Short = { players: number; options: Record<string, unknown> };
const SHORT: Partial<Record<GameName, Short>> = JSON.parse(
  process.env.CARDCORE_SHORT_MATCHES ?? "{}") as Partial<Record<GameName, Short>>;

// A seeded choice among the legal moves (mulberry32), so a failure replays.
function chooser(seed: number): <T>(items: readonly T[]) => T {
  let s = seed >>> 0;
  return (items) => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    const r = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    const item = items[Math.floor(r * items.length)];
    if (item === undefined) throw new Error("no legal move");
    return item;
  };
}

/** The cards a move takes from the hand, as `cards` names them (docs/server.md, "Exact
 * cards"): a pile take's `from_hand`, else the action's own cards. Sent with every move, so
 * both ways of acting pass `cards` and the server accepts them. */
function ownCards(action: GameAction): readonly string[] {
  const fromHand: unknown = (action as unknown as Record<string, unknown>)["from_hand"];
  return Array.isArray(fromHand) ? fromHand.map(String) : action.cards;
}

/** Every event once and in order: n = 0, 1, 2, ... */
function assertInOrder(events: readonly { n: number }[], count: number, who: string): void {
  assert.equal(events.length, count, `${who}: ${events.length} events of ${count}`);
  events.forEach((e, i) => assert.equal(e.n, i, `${who}: event ${i} has n ${e.n}`));
}

/** This seat's own move is among the answer's events. */
function assertAnswers(answer: TableState, seat: number, after: number, how: string): void {
  assert.ok(answer.events.some((e) => e.n >= after && e.player === seat && !("auto" in e)),
            `${how}: the answer does not carry seat ${seat}'s move`);
}

async function playMatch(game: GameName, seed: number): Promise<void> {
  const info = (await client.games()).games.find((g) => g.game === game);
  assert.ok(info, `the server has no ${game}`);
  const short = SHORT[game];
  assert.ok(short, `CARDCORE_SHORT_MATCHES has no ${game} (tests/test_ts_client.py sets it)`);
  const players = short.players;
  const bots = Object.fromEntries(
    Array.from({ length: players - 2 }, (_, i) => [String(i + 2), "random" as const]));
  const created = await client.createTable({ game, players, options: short.options, bots, seed });
  assert.equal(created.game, game);
  assert.deepEqual(Object.keys(created.seats).sort(), ["0", "1"]);
  // A table given its seed commits to nothing (docs/server.md, "Fair deals and match records").
  assert.equal(created.commitment ?? null, null);
  const [token0, token1] = [created.seats["0"]!, created.seats["1"]!];
  const pick = chooser(seed);

  const seen = { ws: [] as GameEvent[], http: [] as GameEvent[], spectator: [] as GameEvent[] };
  const errors: CardcoreError[] = [];
  const backwards: string[] = [];
  const socket = (token: string | undefined, log: GameEvent[]): TableSocket => {
    let last = -1;                    // states come in order too: counts never go back
    return client.connect(created.table, {
      token, onEvent: (e) => log.push(e), onError: (e) => errors.push(e),
      onState: (s) => {
        if (s.event_count < last) backwards.push(`${s.event_count} after ${last}`);
        last = s.event_count;
      },
      reconnect: { initialMs: 20, attempts: 3 },
    });
  };
  const ws = socket(token0, seen.ws);
  const watch1 = socket(token1, seen.http);
  const spectator = socket(undefined, seen.spectator);
  try {
    await Promise.all([ws.ready(), watch1.ready(), spectator.ready()]);
    assert.equal(ws.seat, 0);
    assert.equal(spectator.seat, null);
    if (ws.state?.clock === undefined && ws.state?.clocks === undefined) {
      assert.equal(ws.clock, null);                 // a table without a clock
    }

    let moves = 0;
    let drops = 0;
    const overWs = (async () => {       // seat 0: over its socket
      for (;;) {
        const state = await ws.waitFor((s) => s.over || s.legal.length > 0);
        if (state.over) return;
        if (moves === 3 && drops === 0) {             // lose the connection once, mid-match
          drops += 1;
          const before = ws.connections;
          ws.drop();
          await ws.waitFor(() => ws.connections > before);
          continue;
        }
        const after = state.event_count;
        const move = pick(state.legal);
        const answer = await ws.act(move.id, after, ownCards(move));
        assertAnswers(answer, 0, after, "WebSocket");
        if (answer.id !== undefined) assert.match(answer.id, /^a\d+$/);   // echoed request id
        moves += 1;
      }
    })();
    const overHttp = (async () => {     // seat 1: over HTTP, its socket for the turn
      for (;;) {
        const state = await watch1.waitFor((s) => s.over || s.legal.length > 0);
        if (state.over) return;
        const after = state.event_count;
        const move = pick(state.legal);
        const answer = await client.act(created.table, token1, move.id, after, ownCards(move));
        assertAnswers(answer, 1, after, "HTTP");
        // The HTTP answer may come before the socket's push of the same change.
        await watch1.waitFor((s) => s.event_count >= answer.event_count);
      }
    })();
    await Promise.all([overWs, overHttp]);
    await spectator.waitFor((s) => s.over);

    const final = await client.state(created.table, token0);
    assert.equal(final.over, true);
    assert.equal(final.ended, "over");
    const count = final.event_count;
    assertInOrder(seen.ws, count, "seat 0");
    assertInOrder(seen.http, count, "seat 1");
    assertInOrder(seen.spectator, count, "spectator");
    // A GET answers the last page of events; allEvents reads every page from 0.
    assert.deepEqual(final.events, seen.ws.slice(final.events_from ?? 0),
                     "seat 0's pushed events differ from GET's last page");
    assert.deepEqual(await client.allEvents(created.table, token0), seen.ws,
                     "seat 0's pushed events differ from GET's pages");
    assert.deepEqual(ws.events, seen.ws);
    assert.equal(ws.eventCount, count);
    assert.equal(drops, 1, `${game}: the match ended before seat 0's socket was dropped`);
    assert.equal(ws.connections, 2, "seat 0: one reconnection");
    assert.equal(watch1.connections, 1, "seat 1: no reconnection");
    assert.equal(spectator.connections, 1, "spectator: no reconnection");
    assert.deepEqual(errors, []);
    assert.deepEqual(backwards, [], "a state's event count went back");
  } finally {
    for (const s of [ws, watch1, spectator]) s.close();   // even when a check failed
  }
}

for (const [i, game] of GAMES.entries()) {
  test(`a complete ${game} match through the client`, { timeout: 20_000 }, async () => {
    await playMatch(game, 1000 + i);
  });
}

test("games, tables and the generated game list agree with the server", async () => {
  const games = await client.games();
  assert.deepEqual(games.games.map((g) => g.game).sort(), [...GAMES].sort());
  const lobby = await client.tables({ over: true });
  assert.ok(Array.isArray(lobby.tables));
});

test("refusals: a stale `after` (409) and an illegal action (422), over WebSocket and HTTP",
     async () => {
  const created = await client.createTable({ game: "crazy_eights", players: 2, seed: 7,
                                             bots: { "1": "random" } });
  const token = created.seats["0"]!;
  const ws = client.connect(created.table, { token });
  try {
    const state = await ws.waitFor((s) => s.legal.length > 0);
    const stale = state.event_count - 1;
    await assert.rejects(ws.act(state.legal[0]!.id, stale),
                         (e: unknown) => e instanceof CardcoreError && e.status === 409);
    await assert.rejects(client.act(created.table, token, state.legal[0]!.id, stale),
                         (e: unknown) => e instanceof CardcoreError && e.status === 409);
    await assert.rejects(ws.act(999999),
                         (e: unknown) => e instanceof CardcoreError && e.status === 422);
    // Nothing was played: the same count, and the move still plays.
    assert.equal((await client.state(created.table, token)).event_count, state.event_count);
    const answer = await ws.act(state.legal[0]!.id);
    assertAnswers(answer, 0, state.event_count, "after refusals");
  } finally {
    ws.close();
  }
  await client.deleteTable(created.table, created.creator_token);
  await assert.rejects(client.state(created.table, token),
                       (e: unknown) => e instanceof CardcoreError && e.status === 404);
});
