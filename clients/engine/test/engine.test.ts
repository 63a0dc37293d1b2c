// The engine in Node: every registered game played to the end, hostile input refused with
// nothing changed, and, when CORPUS names a parity corpus (tests/parity/corpus.py, which
// tests/test_libcardcore.py generates and passes here), every step of every match
// byte-identical to Python's: the deal, the legal ids, their labels, every seat's
// observation tensor, the zones, and the returns.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";

import { ConfigError, ErrorCode, IllegalActionError, cardNotation, fillRefusal, loadEngine } from "../src/index.js";
import { type Case, replay } from "./parity.js";

const engine = await loadEngine();

test("the module reports its ABI and its games", () => {
  assert.equal(engine.abiVersion, 1);
  assert.ok(engine.games().length > 0);
});

test("every game plays to the end by its greedy policy, with a clone left behind", () => {
  for (const name of engine.games()) {
    const game = engine.newGame(name, { seed: 42 });
    const start = game.clone();
    let steps = 0;
    while (!game.isOver && steps < 20000) {
      const ids = game.legalActions();
      const choice = game.greedyAction();
      assert.ok(ids.includes(choice), `${name}: greedy chose ${choice}`);
      assert.ok(game.actionLabel(choice).length > 0);
      game.apply(choice);
      steps++;
    }
    assert.ok(game.isOver, `${name} ends`);
    assert.equal(game.currentPlayer, -1);
    assert.deepEqual(game.legalActions(), []);
    assert.equal(game.returns().length, game.numPlayers);
    assert.equal(start.actionsApplied, 0);
    assert.ok(start.playRandom(7) > 0 && start.isOver);
    game.free();
    start.free();
  }
});

test("the IS-MCTS bot chooses a legal move, within its time", () => {
  for (const name of engine.games()) {
    const game = engine.newGame(name, { seed: 3 });
    const ids = game.legalActions();
    assert.ok(ids.includes(game.searchAction({ iterations: 50, seed: 1 })), name);
    const start = performance.now();
    assert.ok(ids.includes(game.searchAction({ iterations: 10_000_000, thinkMs: 50 })), name);
    assert.ok(performance.now() - start < 5000, `${name}: the deadline holds`);
    game.free();
  }
});

test("hostile input: errors that name the problem, nothing changed", () => {
  assert.throws(() => engine.newGame("no_such_game"), ConfigError);
  assert.throws(() => engine.newGame(engine.games()[0]!, { players: 99 }), ConfigError);
  assert.throws(() => engine.newGame(engine.games()[0]!, { options: { nope: 1 } }), /nope/);
  assert.throws(() => engine.newGame(engine.games()[0]!, { seed: -1 }), RangeError);
  assert.throws(() => engine.newGame(engine.games()[0]!, { seed: 2 ** 53 }), RangeError);
  const game = engine.newGame(engine.games()[0]!, { seed: 2n ** 64n - 1n });
  const before = game.legalActions();
  assert.throws(() => game.apply(1_000_000), IllegalActionError);
  assert.throws(() => game.apply(1.5), IllegalActionError);
  assert.deepEqual(game.legalActions(), before);
  game.free();
  assert.throws(() => game.legalActions(), /freed/);
});

test("a refused move says why: its rule, reason and fields, the game unchanged", () => {
  for (const name of engine.games()) {
    const game = engine.newGame(name, { seed: 9 });
    const legal = game.legalActions();
    const id = [...Array(game.numActions).keys()].find((a) => !legal.includes(a))!;
    const refusal = game.refusal(id)!;
    assert.ok(refusal.reason >= 0 && /^[A-Z]+-\d/.test(refusal.rule), `${name}: ${refusal.rule}`);
    assert.ok(refusal.args.length <= 4);
    assert.equal(game.refusal(legal[0]!), null);
    assert.throws(() => game.refusal(-1), RangeError);
    assert.throws(() => game.refusal(game.numActions), RangeError);
    assert.throws(() => game.apply(id), (e: unknown) => {
      assert.ok(e instanceof IllegalActionError);
      assert.equal(e.code, ErrorCode.Illegal);
      assert.equal(e.rule, refusal.rule);
      assert.equal(e.reason, refusal.reason);
      assert.deepEqual(e.args, refusal.args);
      assert.ok(e.message.includes(`[${refusal.rule}]`));
      return true;
    });
    assert.deepEqual(game.legalActions(), legal);
    game.playRandom(1);
    assert.throws(() => game.refusal(0), (e: unknown) => e instanceof IllegalActionError
      && e.code === ErrorCode.Over && e.rule === undefined);
    game.free();
  }
});

test("fillRefusal shows a refusal's fields by their names", () => {
  const template = "{card} matches neither the suit {suit} nor the rank of {top}";
  assert.equal(fillRefusal(template, [12, 3, 51]), "KC matches neither the suit H nor the rank of KH");
  assert.equal(fillRefusal(template, [12, 3, 51], "{top} / {suit} / {card}"), "KH / H / KC");
  assert.equal(fillRefusal("you owe {count} cards", [2]), "you owe 2 cards");
  assert.throws(() => fillRefusal(template, [1]), RangeError);
  assert.equal(cardNotation(48), "10H");
  assert.equal(cardNotation(52), "JK");
  assert.throws(() => cardNotation(53), RangeError);
});

test("the parity corpus replays byte for byte", { skip: process.env.CORPUS === undefined }, async () => {
  const corpus = JSON.parse(readFileSync(process.env.CORPUS!, "utf8")) as { cases: Case[] };
  const sha256 = async (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
  const { matches, steps } = await replay(engine, corpus.cases, sha256);
  assert.equal(matches, corpus.cases.length);
  console.log(`parity corpus: ${matches} matches, ${steps} steps`);
});
