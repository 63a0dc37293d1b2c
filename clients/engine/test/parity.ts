// The parity corpus's replay (tests/parity/corpus.py says what a step's digest covers),
// shared by the Node test and the Chromium page (tests/test_libcardcore.py): the same bytes,
// hashed by whatever SHA-256 the runtime has.
import type { Engine, Game } from "../src/index.js";

export interface Case {
  game: string;
  players: number;
  options: Record<string, string | number | boolean | null>;
  seed: number;
  actions: number[];
  steps: string[];
  returns: string;
}

export type Sha256 = (bytes: Uint8Array) => Promise<string>;

/** How many illegal ids' refusals a step's digest covers (corpus.py's REFUSED_IDS). */
const REFUSED_IDS = 3;

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The bytes a step's digest covers, in the corpus's order. */
export function stepBytes(game: Game): Uint8Array {
  const parts: Uint8Array[] = [];
  const int32 = (v: number) => {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setInt32(0, v, true);
    parts.push(b);
  };
  const ids = game.legalActions();
  int32(game.currentPlayer);
  ids.forEach(int32);
  const encoder = new TextEncoder();
  for (const id of ids) parts.push(encoder.encode(game.actionLabel(id) + "\n"));
  for (let p = 0; p < game.numPlayers; p++) {
    const obs = game.observation(p);
    parts.push(new Uint8Array(obs.buffer, obs.byteOffset, obs.byteLength));
  }
  for (const zone of game.zones()) {
    for (const cards of zone.cards) {
      int32(cards.length);
      parts.push(Uint8Array.from(cards));
    }
  }
  if (ids.length > 0) {                       // the first REFUSED_IDS ids that are not legal
    const legal = new Set(ids);
    for (let id = 0, n = 0; id < game.numActions && n < REFUSED_IDS; id++) {
      if (legal.has(id)) continue;
      const refusal = game.refusal(id)!;
      int32(id);
      int32(refusal.reason);
      parts.push(encoder.encode(refusal.rule + "\n"));
      int32(refusal.args.length);
      refusal.args.forEach(int32);
      n++;
    }
  }
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { all.set(p, at); at += p.length; }
  return all;
}

/** Replay every case; throws at the first difference, naming the case and the step. */
export async function replay(engine: Engine, cases: Case[], sha256: Sha256)
    : Promise<{ matches: number; steps: number }> {
  let steps = 0;
  for (const c of cases) {
    const game = engine.newGame(c.game, { players: c.players, seed: c.seed, options: c.options });
    try {
      for (let k = 0; k < c.steps.length; k++) {
        const got = (await sha256(stepBytes(game))).slice(0, 16);
        if (got !== c.steps[k]) {
          throw new Error(`${c.game} ${JSON.stringify(c.options)} seed ${c.seed}: step ${k} differs`);
        }
        if (k < c.actions.length) game.apply(c.actions[k]!);
      }
      const returns = hex(new Uint8Array(new Float64Array(game.returns()).buffer));
      if (returns !== c.returns) {
        throw new Error(`${c.game} seed ${c.seed}: returns ${returns}, Python's ${c.returns}`);
      }
      steps += c.steps.length;
    } finally {
      game.free();
    }
  }
  return { matches: cases.length, steps };
}

export const subtleSha256: Sha256 = async (bytes) =>
  hex(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>)));
