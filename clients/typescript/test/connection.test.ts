// The socket's status and its queue against a server that is killed and started again: its
// own `cardcore serve` (run with $PYTHON, default python3), on a free port and a SQLite file
// of its own. connecting -> open; the server killed -> reconnecting; a move sent meanwhile is
// queued; the server back on the same port and file -> open, the move sent once and
// answered once by its id; close() -> closed. A socket refused as one too many from its
// address (close 1013 after an error with retry_after) comes back after that wait.
// Run by tests/test_ts_client.py.
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";

import { CardcoreClient, type SocketStatus } from "../src/index.js";

const python = process.env.PYTHON ?? "python3";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

async function serve(port: number, db: string, extra: string[] = []): Promise<ChildProcess> {
  const child = spawn(python, ["-m", "cardcore", "serve", "--port", String(port), "--db", db,
                               "--bot-delay", "0", "--message-rate", "1000",
                               "--synchronous", "normal", "--log-level", "warning", ...extra],
                      { stdio: ["ignore", "ignore", "inherit"] });
  for (let i = 0; i < 300; i += 1) {
    if (child.exitCode !== null) throw new Error(`cardcore serve exited ${child.exitCode}`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/games`);
      if (response.ok) return child;
    } catch { /* not listening yet */ }
    await sleep(100);
  }
  child.kill("SIGKILL");
  throw new Error("cardcore serve did not start in 30 s");
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => { child.once("exit", () => resolve()); child.kill("SIGKILL"); });
}

test("status through a server restart; a move sent while reconnecting is answered once",
     { timeout: 90_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "cardcore-ts-"));
  const port = await freePort();
  const db = join(dir, "t.sqlite3");
  let server = await serve(port, db);
  const client = new CardcoreClient(`http://127.0.0.1:${port}`);
  const seen: SocketStatus[] = [];
  try {
    const created = await client.createTable({
      game: "crazy_eights", players: 2, seed: 4, bots: { "1": "greedy" },
      options: { dealer: 1 } });
    const socket = client.connect(created.table, {
      token: created.seats["0"]!, reconnect: { initialMs: 50, maxMs: 250, attempts: 200 } });
    socket.onStatus((s) => seen.push(s));
    assert.equal(socket.status, "connecting");
    const first = await socket.waitFor((s) => s.legal.length > 0);
    assert.equal(socket.status, "open");

    await stop(server);                                   // killed: no goodbye
    while (socket.status !== "reconnecting") await sleep(20);
    let answers = 0;
    const move = socket.act(first.legal[0]!.id).then((s) => { answers += 1; return s; });
    await sleep(300);                                     // a few failed attempts meanwhile
    assert.equal(socket.status, "reconnecting");
    assert.equal(answers, 0);

    server = await serve(port, db);                      // back, from the same file
    const answer = await move;
    assert.equal(socket.status, "open");
    assert.ok(answer.event_count > first.event_count);
    assert.ok(answer.events.some((e) => e.player === 0 && !("auto" in e)), "its own move");
    await sleep(200);
    assert.equal(answers, 1);
    // Played once: seat 0 has exactly one move of its own in the table's whole stream.
    const stored = await client.state(created.table, created.seats["0"]!);
    const own = stored.events.filter((e) => e.player === 0 && e.n >= first.event_count
                                             && !("auto" in e));
    assert.equal(own.length, 1, JSON.stringify(own));
    assert.deepEqual(socket.events, stored.events.slice(0, socket.events.length));

    socket.close();
    assert.equal(socket.status, "closed");
    assert.deepEqual(seen.slice(0, 2), ["open", "reconnecting"]);
    assert.deepEqual(seen.slice(-2), ["open", "closed"]);
    assert.ok(socket.connections >= 2);
  } finally {
    await stop(server);
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a socket refused with retry_after (too many from one address) reconnects after it",
     { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "cardcore-ts-"));
  const port = await freePort();
  const server = await serve(port, join(dir, "t.sqlite3"), ["--max-sockets-per-address", "1"]);
  const client = new CardcoreClient(`http://127.0.0.1:${port}`);
  try {
    const created = await client.createTable({ game: "crazy_eights", players: 2, seed: 4 });
    const first = client.connect(created.table, { token: created.seats["0"]! });
    await first.ready();
    const errors: number[] = [];
    const seen: SocketStatus[] = [];
    const second = client.connect(created.table, {
      token: created.seats["1"]!, onError: (e) => errors.push(e.status),
      reconnect: { initialMs: 50, maxMs: 100, attempts: 20 } });
    second.onStatus((s) => seen.push(s));
    while (second.status === "connecting") await sleep(20);
    assert.equal(second.status, "reconnecting");         // not closed for good
    assert.deepEqual(errors, [503]);                     // refused, told to retry later
    const refusedAt = Date.now();
    first.close();                                        // a place frees
    await second.ready();
    assert.equal(second.status, "open");
    // It waited the 2 s it was told, not its own 50-100 ms backoff.
    assert.ok(Date.now() - refusedAt >= 1500, `${Date.now() - refusedAt} ms`);
    assert.deepEqual(seen.slice(0, 2), ["reconnecting", "open"]);
    second.close();
  } finally {
    await stop(server);
    rmSync(dir, { recursive: true, force: true });
  }
});
