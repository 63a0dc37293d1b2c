// The WebAssembly side of benchmarks/wasm_ab.py: the same loop as playouts.c (new,
// play_random, free per match) through the module's exports, timed inside Node.
// Usage: node playouts.mjs cardcore.wasm, then "GAME GAMES SEED" lines on stdin.
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";

const module = await WebAssembly.compile(readFileSync(process.argv[2]));
const imports = {};
for (const entry of WebAssembly.Module.imports(module)) {
  (imports[entry.module] ??= {})[entry.name] = () => { throw new Error(entry.name); };
}
const x = (await WebAssembly.instantiate(module, imports)).exports;
x._initialize?.();

function cString(text) {
  const bytes = new TextEncoder().encode(text);
  const p = x.malloc(bytes.length + 1);
  const mem = new Uint8Array(x.memory.buffer);
  mem.set(bytes, p);
  mem[p + bytes.length] = 0;
  return p;
}

const out = x.malloc(4);
for await (const line of createInterface({ input: process.stdin })) {
  const [game, games, seed] = line.trim().split(/\s+/);
  const name = cString(game);
  let actions = 0n;
  const start = performance.now();
  for (let i = 0; i < Number(games); i++) {
    const s = BigInt(seed) + BigInt(i);
    if (x.cc_game_new(name, 0, 0, s, out, 0, 0) !== 0) throw new Error(`cc_game_new ${game}`);
    const g = new Uint32Array(x.memory.buffer, out, 1)[0];
    actions += x.cc_play_random(g, s, 1000000n);
    x.cc_game_free(g);
  }
  const seconds = (performance.now() - start) / 1000;
  x.free(name);
  process.stdout.write(`${seconds.toFixed(9)} ${actions}\n`);
}
