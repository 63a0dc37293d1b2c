// TableSocket against a scripted socket: what a live server of today cannot show, or shows only
// by chance: request ids echoed (the protocol of issue 25), the fallback without them,
// merged states answering two actions, an event gap, reconnection from `since`, clocks;
// patches applied to whole states, the connection's status, actions queued while reconnecting.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  CardcoreClient, CardcoreError, ConnectionLostError, applyMergePatch, type SocketStatus,
} from "../src/index.js";

class FakeSocket {
  static all: FakeSocket[] = [];
  readyState = 1;
  sent: Record<string, unknown>[] = [];
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: { code: number; reason: string }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  constructor(readonly url: string, readonly protocols: string[]) { FakeSocket.all.push(this); }
  send(data: string): void { this.sent.push(JSON.parse(data) as Record<string, unknown>); }
  close(code = 1000, reason = ""): void {
    this.readyState = 3;
    queueMicrotask(() => this.onclose?.({ code, reason }));
  }
  push(message: object): void { this.onmessage?.({ data: JSON.stringify(message) }); }
}

const event = (n: number, player: number | null, auto = false) =>
  ({ n, kind: auto ? "deal" : "play", player, cards: [], ...(auto ? { auto: true } : {}) });
const state = (count: number, events: object[], extra: object = {}) => ({
  type: "state", table: "T", game: "crazy_eights", seat: 0, view: {}, events,
  event_count: count, legal: [{ id: 1, player: 0, kind: "play", cards: [], label: "x" }],
  over: false, ended: null, scores: [0, 0], winners: [], current_player: 0, players: 2,
  seats: [], options: {}, ...extra,
});
const settle = () => new Promise((resolve) => setTimeout(resolve, 30));

function open(options: object = {}) {
  FakeSocket.all = [];
  const client = new CardcoreClient("http://127.0.0.1:1/", { WebSocket: FakeSocket });
  const socket = client.connect("T", { token: "tok", reconnect: { initialMs: 1 }, ...options });
  const fake = FakeSocket.all[0]!;
  return { socket, fake };
}

test("the URL and subprotocols carry the table, the token and `since`", () => {
  const { socket, fake } = open({ since: 5 });
  assert.equal(fake.url, "ws://127.0.0.1:1/ws/tables/T?since=5&patches=1");
  assert.deepEqual(fake.protocols, ["cardcore", "cardcore.token.tok"]);
  assert.equal(socket.eventCount, 5);
  socket.close();
});

test("the token as the first message, for servers that take it", () => {
  const { socket, fake } = open({ auth: "message" });
  assert.deepEqual(fake.protocols, ["cardcore"]);
  fake.onopen?.({});
  assert.deepEqual(fake.sent, [{ type: "auth", token: "tok" }]);
  socket.close();
});

test("an echoed id answers its own action, whatever came before", async () => {
  const { socket, fake } = open();
  fake.push(state(2, [event(0, null, true), event(1, 1)]));
  const first = socket.act(1);
  const second = socket.act(1, null);
  assert.deepEqual(fake.sent[0], { type: "action", action: 1, after: 2, id: "a1" });
  assert.deepEqual(fake.sent[1], { type: "action", action: 1, id: "a2" });
  fake.push({ type: "error", status: 409, error: "stale", id: "a2" });
  fake.push(state(3, [event(2, 0)], { id: "a1" }));
  assert.equal((await first).event_count, 3);
  await assert.rejects(second, (e: unknown) => e instanceof CardcoreError && e.status === 409);
  assert.equal(socket.echoesIds, true);
  // A state without an id (another seat's move) answers nothing once ids are echoed.
  const third = socket.act(1);
  fake.push(state(4, [event(3, 0)]));
  let done = false;
  void third.then(() => { done = true; }, () => { done = true; });
  await settle();
  assert.equal(done, false);
  fake.push(state(5, [event(4, 0)], { id: "a3" }));
  assert.equal((await third).event_count, 5);
  socket.close();
});

test("without ids: a state answers the actions whose moves it carries, in order", async () => {
  const { socket, fake } = open();
  fake.push(state(1, [event(0, null, true)]));
  const first = socket.act(1);
  const second = socket.act(1, null);
  // Another seat's move and an automatic event answer nothing.
  fake.push(state(3, [event(1, 1), event(2, 0, true)]));
  let answered = 0;
  void first.then(() => { answered += 1; });
  await settle();
  assert.equal(answered, 0);
  // One merged state with both moves of this seat answers both.
  fake.push(state(6, [event(3, 0), event(4, 1), event(5, 0)]));
  assert.equal((await first).event_count, 6);
  assert.equal((await second).event_count, 6);
  // An error without an id answers the oldest action waiting.
  const third = socket.act(1);
  fake.push({ type: "error", status: 422, error: "illegal", rule: "CE-1" });
  await assert.rejects(third, (e: unknown) => e instanceof CardcoreError && e.rule === "CE-1");
  assert.equal(socket.echoesIds, false);
  socket.close();
});

test("an error that answers no action goes to onError", () => {
  const errors: CardcoreError[] = [];
  const { socket, fake } = open({ onError: (e: CardcoreError) => errors.push(e) });
  fake.push({ type: "error", status: 410, error: "deleted" });
  assert.equal(errors.length, 1);
  assert.equal(errors[0]!.status, 410);
  socket.close();
});

test("a lost connection rejects what waits and resumes from the next event", async () => {
  const seen: number[] = [];
  const { socket, fake } = open({ onEvent: (e: { n: number }) => seen.push(e.n) });
  fake.push(state(2, [event(0, null, true), event(1, 0)]));
  const waiting = socket.act(1);
  fake.close(1006);
  await assert.rejects(waiting, ConnectionLostError);
  await settle();
  const again = FakeSocket.all[1]!;
  assert.equal(again.url, "ws://127.0.0.1:1/ws/tables/T?since=2&patches=1");
  // A repeated event (from before `since`) is dropped; the next ones are appended.
  again.push(state(4, [event(1, 0), event(2, 1), event(3, 0)]));
  assert.deepEqual(seen, [0, 1, 2, 3]);
  assert.equal(socket.connections, 2);
  socket.close();
});

test("an event gap reconnects from the last event received", async () => {
  const { socket, fake } = open();
  fake.push(state(1, [event(0, null, true)]));
  fake.push(state(3, [event(2, 0)]));                    // event 1 is missing
  await settle();
  assert.equal(socket.events.length, 1);
  assert.equal(FakeSocket.all.length, 2);
  assert.match(FakeSocket.all[1]!.url, /since=1&patches=1$/);
  socket.close();
});

test("final close codes end the socket; clocks are exposed when sent",
     async () => {
  const closes: number[] = [];
  const { socket, fake } = open({ onClose: (code: number) => closes.push(code) });
  assert.equal(socket.clock, null);
  fake.push(state(1, [event(0, null, true)], { clock: { seat: 0, remaining_ms: 9000 } }));
  assert.deepEqual(socket.clock, { seat: 0, remaining_ms: 9000 });
  fake.close(4000);
  await settle();
  assert.deepEqual(closes, [4000]);
  assert.equal(FakeSocket.all.length, 1);
  await assert.rejects(socket.act(1), ConnectionLostError);
});

test("applyMergePatch follows RFC 7396 (its appendix A)", () => {
  const cases: [unknown, unknown, unknown][] = [
    [{ a: "b" }, { a: "c" }, { a: "c" }],
    [{ a: "b" }, { b: "c" }, { a: "b", b: "c" }],
    [{ a: "b" }, { a: null }, {}],
    [{ a: "b", b: "c" }, { a: null }, { b: "c" }],
    [{ a: ["b"] }, { a: "c" }, { a: "c" }],
    [{ a: "c" }, { a: ["b"] }, { a: ["b"] }],
    [{ a: { b: "c" } }, { a: { b: "d", c: null } }, { a: { b: "d" } }],
    [{ a: [{ b: "c" }] }, { a: [1] }, { a: [1] }],
    [["a", "b"], ["c", "d"], ["c", "d"]],
    [{ a: "b" }, ["c"], ["c"]],
    [{ a: "foo" }, null, null],
    [{ a: "foo" }, "bar", "bar"],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [[1, 2], { a: "b", c: null }, { a: "b" }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ];
  for (const [target, patch, result] of cases) {
    const before = JSON.stringify(target);
    assert.deepEqual(applyMergePatch(target, patch), result);
    assert.equal(JSON.stringify(target), before, "the target is left as it was");
  }
});

test("patches are asked for and applied: the app sees whole states", async () => {
  const states: object[] = [];
  const seen: number[] = [];
  const { socket, fake } = open({ onState: (s: object) => states.push(s),
                                  onEvent: (e: { n: number }) => seen.push(e.n) });
  assert.match(fake.url, /\?patches=1$/);
  const first = state(1, [event(0, null, true)], { view: { hand: ["2C", "3D"], top: "4S" } });
  fake.push(first);
  const pending = socket.act(1);
  fake.push({ type: "patch", events: [event(1, 0)], id: "a1",
              patch: { event_count: 2, view: { hand: ["3D"], top: "2C" }, current_player: 1,
                       legal: [] } });
  const answered = await pending;
  const { type, ...whole } = first;
  const expected = { ...whole, events: [event(1, 0)], event_count: 2, current_player: 1,
                     legal: [], view: { hand: ["3D"], top: "2C" }, id: "a1" };
  assert.deepEqual(answered, expected);
  assert.deepEqual(socket.state, expected);
  fake.push({ type: "patch", events: [], patch: { view: { top: null }, over: true } });
  const { id, ...unanswered } = expected;          // an id belongs to its own push only
  assert.deepEqual(socket.state, { ...unanswered, events: [], over: true,
                                   view: { hand: ["3D"] } });
  assert.equal(states.length, 3);
  assert.deepEqual(seen, [0, 1]);
  socket.close();
});

test("whole states on request, and a patch before any state resynchronises", async () => {
  const { socket, fake } = open({ patches: false });
  assert.doesNotMatch(fake.url, /patches/);
  socket.close();
  const again = open();
  again.fake.push({ type: "patch", events: [], patch: { over: true } });
  await settle();
  assert.equal(again.socket.state, undefined);
  assert.equal(FakeSocket.all.length, 2, "reconnected");
  again.socket.close();
});

test("status: connecting, open, reconnecting, open, closed", async () => {
  const told: SocketStatus[] = [];
  const listened: SocketStatus[] = [];
  const { socket, fake } = open({ onStatus: (s: SocketStatus) => told.push(s) });
  const stop = socket.onStatus((s) => listened.push(s));
  assert.equal(socket.status, "connecting");
  fake.push(state(1, [event(0, null, true)]));
  assert.equal(socket.status, "open");
  fake.close(1006);
  await settle();
  assert.equal(socket.status, "reconnecting");
  const again = FakeSocket.all[1]!;
  assert.equal(socket.status, "reconnecting", "until the new connection's first state");
  again.push(state(1, []));
  assert.equal(socket.status, "open");
  stop();
  socket.close();
  assert.equal(socket.status, "closed");
  assert.deepEqual(told, ["open", "reconnecting", "open", "closed"]);
  assert.deepEqual(listened, ["open", "reconnecting", "open"]);
});

test("a move sent while reconnecting is queued, sent once, and answered once", async () => {
  const { socket, fake } = open();
  fake.push(state(1, [event(0, null, true)]));
  fake.close(1006);
  await settle();
  assert.equal(socket.status, "reconnecting");
  let answers = 0;
  const queued = socket.act(1).then((s) => { answers += 1; return s; });
  const undo = socket.takeBack();
  const again = FakeSocket.all[1]!;
  assert.deepEqual(again.sent, [], "nothing goes out before the connection's first state");
  again.push(state(1, []));
  assert.deepEqual(again.sent, [{ type: "action", action: 1, after: 1, id: "a1" },
                                { type: "takeback", after: 1, id: "t2" }]);
  again.push({ type: "patch", events: [event(1, 0)], patch: { event_count: 2 }, id: "a1" });
  again.push({ type: "error", status: 409, error: "nothing to take back", id: "t2" });
  again.push({ type: "patch", events: [], patch: {}, id: "a1" });   // a repeat: ignored
  const answer = await queued;
  assert.equal(answer.event_count, 2);
  await assert.rejects(undo, (e: unknown) => e instanceof CardcoreError && e.status === 409);
  await settle();
  assert.equal(answers, 1);
  assert.equal(again.sent.length, 2, "sent once");
  // Queued and never sent: rejected when the socket closes for good.
  again.close(1006);
  await settle();
  const never = socket.act(1);
  socket.close();
  await assert.rejects(never, ConnectionLostError);
});

test("an error with no close after it (Node 20 after a refused connection) is a loss too",
     async () => {
  const { socket, fake } = open();
  fake.push(state(1, [event(0, null, true)]));
  fake.close(1006);
  await settle();
  const refused = FakeSocket.all[1]!;
  refused.readyState = 0;
  refused.close = () => { /* Node 20: no close event ever comes */ };
  refused.onerror?.({});
  await new Promise((resolve) => setTimeout(resolve, 1200));
  assert.equal(FakeSocket.all.length, 3, "tried again");
  assert.equal(socket.status, "reconnecting");
  FakeSocket.all[2]!.push(state(1, []));
  assert.equal(socket.status, "open");
  socket.close();
});

test("what the app does to a state does not reach the next patched one", () => {
  const { socket, fake } = open();
  fake.push(state(1, [event(0, null, true)], { view: { hand: ["2C", "3D"] } }));
  (socket.state!.view as { hand: string[] }).hand.push("XX");
  fake.push({ type: "patch", events: [], patch: { over: true } });
  assert.deepEqual(socket.state!.view, { hand: ["2C", "3D"] });
  (socket.state!.view as { hand: string[] }).hand.length = 0;
  fake.push({ type: "patch", events: [], patch: { over: false } });
  assert.deepEqual(socket.state!.view, { hand: ["2C", "3D"] });
  socket.close();
});
