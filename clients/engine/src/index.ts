/**
 * @cardcore/engine: cardcore's rules in WebAssembly, for Node 20+ and browsers, with no
 * server. The module is libcardcore (src/cardcore/core/cardcore.h) built by Debian's clang
 * for wasm32-wasi: the same C kernels as the Python package, so the same seed deals the same
 * cards, offers the same legal action ids and labels, and gives the same observation tensors
 * and returns.
 *
 *   const engine = await loadEngine();
 *   const game = engine.newGame("durak", { players: 2, seed: 7, options: { transfer: true } });
 *   while (!game.isOver) game.apply(game.greedyAction());
 *   console.log(game.returns());
 *   game.free();
 *
 * A Game owns memory inside the module: call free() when done (a FinalizationRegistry frees
 * what is forgotten, but not promptly).
 */

/** The error codes of cardcore.h. */
export const ErrorCode = {
  UnknownGame: -1,
  Config: -2,
  Illegal: -3,
  Over: -4,
  NoMemory: -5,
  Argument: -6,
  /** cc_refusal: the action is legal now. */
  Legal: -7,
} as const;

/** Base of the engine's errors: `code` is one of ErrorCode. */
export class EngineError extends Error {
  constructor(message: string, readonly code: number) {
    super(message);
    this.name = "EngineError";
  }
}

/** Why an action id is not legal now, as the game's C kernel decides it (cardcore.h's
 * cc_refusal). `reason` indexes the game's refusal templates (Python's words.REFUSALS, which
 * an app exports with its texts), `rule` is the rule ID, `args` the template's fields in the
 * English template's order: card ids, suit indexes and numbers, as `fillRefusal` shows them. */
export interface Refusal {
  reason: number;
  rule: string;
  args: number[];
}

/** An action that is not legal now (or a match that is over); the game is unchanged. For an
 * id in range while the match is on, `rule`, `reason` and `args` say why (a Refusal); they
 * are undefined otherwise. */
export class IllegalActionError extends EngineError {
  readonly rule: string | undefined;
  readonly reason: number | undefined;
  readonly args: number[] | undefined;

  constructor(message: string, code: number, refusal?: Refusal) {
    super(message, code);
    this.name = "IllegalActionError";
    this.rule = refusal?.rule;
    this.reason = refusal?.reason;
    this.args = refusal?.args;
  }
}

const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const SUITS = ["C", "S", "D", "H"];

/** A card id in cardcore's notation: 0 -> "AC", 48 -> "10H", 52 -> "JK". */
export function cardNotation(id: number): string {
  if (!Number.isInteger(id) || id < 0 || id > 52) throw new RangeError(`card id out of range: ${id}`);
  return id === 52 ? "JK" : RANKS[id % 13]! + SUITS[Math.floor(id / 13)]!;
}

const FIELD = /\{(\w+)\}/g;

/** A refusal's message: `text` (the template translated; by default the English `template`
 * itself) with the refusal's args, which follow the English template's fields in order (each
 * name once). As Python's cardcore.refusals: card, target and top are card ids shown in
 * notation, suit a suit index shown as its letter (C S D H), any other field a number. */
export function fillRefusal(template: string, args: readonly number[], text: string = template): string {
  const names = [...new Set(Array.from(template.matchAll(FIELD), (m) => m[1]!))];
  if (names.length !== args.length) {
    throw new RangeError(`the refusal "${template.slice(0, 60)}" has ${names.length} fields, not ${args.length}`);
  }
  const values = new Map(names.map((name, i) => {
    const v = args[i]!;
    const shown = name === "card" || name === "target" || name === "top" ? cardNotation(v)
      : name === "suit" ? SUITS[v] ?? String(v) : String(v);
    return [name, shown] as const;
  }));
  return text.replace(FIELD, (whole, name: string) => values.get(name) ?? whole);
}

/** An unknown game, a player count or an option out of range; the message names it. */
export class ConfigError extends EngineError {
  constructor(message: string, code: number) {
    super(message, code);
    this.name = "ConfigError";
  }
}

export interface NewGameOptions {
  /** Seats; the game's default when left out. */
  players?: number;
  /** A number up to 2^53-1, or a BigInt below 2^64. Default 0. */
  seed?: number | bigint;
  /** The game's options, as Python's new_game(**options) takes them. */
  options?: Record<string, string | number | boolean | null>;
  /** The first deal's deck, card ids top first (a stacked deal). */
  deck?: number[];
}

interface Exports {
  memory: WebAssembly.Memory;
  _initialize?: () => void;
  malloc(size: number): number;
  free(ptr: number): void;
  cc_abi_version(): number;
  cc_game_count(): number;
  cc_game_name(i: number): number;
  cc_game_new(game: number, players: number, options: number, seed: bigint, out: number,
              err: number, errLen: number): number;
  cc_game_new_stacked(game: number, players: number, options: number, seed: bigint,
                      deck: number, deckLen: number, out: number, err: number,
                      errLen: number): number;
  cc_game_free(g: number): void;
  cc_game_clone(g: number): number;
  cc_name(g: number): number;
  cc_num_players(g: number): number;
  cc_num_actions(g: number): number;
  cc_current_player(g: number): number;
  cc_is_over(g: number): number;
  cc_actions_applied(g: number): bigint;
  cc_legal_actions(g: number, ids: number, cap: number): number;
  cc_apply(g: number, id: number, err: number, errLen: number): number;
  cc_refusal(g: number, id: number, rule: number, ruleLen: number, args: number, cap: number,
             nargs: number): number;
  cc_returns(g: number, out: number, cap: number): number;
  cc_scores(g: number, out: number, cap: number): number;
  cc_observation_size(g: number): number;
  cc_observation(g: number, seat: number, out: number, cap: number): number;
  cc_greedy_action(g: number): number;
  cc_greedy_action_seeded(g: number, seed: bigint): number;
  cc_action_label(g: number, id: number, buf: number, len: number): number;
  cc_play_random(g: number, seed: bigint, max: bigint): bigint;
  cc_sample_hidden(g: number, seat: number, seed: bigint): number;
  cc_zone_count(g: number): number;
  cc_zone_name(g: number, zone: number): number;
  cc_zone_instances(g: number, zone: number): number;
  cc_zone_cards(g: number, zone: number, instance: number, out: number, cap: number): number;
  cc_view_json(g: number, seat: number, buf: number, len: number): number;
  cc_search_new(g: number, seed: bigint, rollout: number, horizon: number, exploration: number,
                prior: number): number;
  cc_search_run(s: number, iterations: number): number;
  cc_search_best(s: number): number;
  cc_search_iterations(s: number): number;
  cc_search_free(s: number): void;
}

/** How the IS-MCTS bot searches (Python's ismcts_search). */
export interface SearchOptions {
  /** The most iterations (default 1000). */
  iterations?: number;
  /** Stop after this many milliseconds, checked between batches (none by default). */
  thinkMs?: number;
  /** The search's own generator (default 0). */
  seed?: number | bigint;
  /** "game" (the game's rollout policy), "greedy" or "random"; default "game". */
  rollout?: "game" | "greedy" | "random";
  /** "match" (default) or "round". */
  horizon?: "match" | "round";
  exploration?: number;
  prior?: number;
}

const ROLLOUTS = { game: 0, greedy: 1, random: 2 } as const;
const HORIZONS = { match: 0, round: 1 } as const;
const SEARCH_BATCH = 16;

/** A zone as a seat sees it: its cards (notation, a pile bottom to top), or its size. */
export type ZoneView = string[] | { count: number };

/** The ABI version this wrapper was written for (cardcore.h's CC_ABI_VERSION). */
export const ABI_VERSION = 1;
const ERR_LEN = 512;
const MAX_IDS = 4096;
const U64 = (1n << 64n) - 1n;

function toSeed(seed: number | bigint | undefined): bigint {
  if (seed === undefined) return 0n;
  if (typeof seed === "bigint") {
    if (seed < 0n || seed > U64) throw new RangeError("seed must be a BigInt in 0..2^64-1");
    return seed;
  }
  if (!Number.isSafeInteger(seed) || seed < 0) {
    throw new RangeError("seed must be an integer in 0..2^53-1 (or a BigInt)");
  }
  return BigInt(seed);
}

class Memory {
  constructor(private readonly x: Exports) {}
  get bytes(): Uint8Array { return new Uint8Array(this.x.memory.buffer); }
  alloc(size: number): number {
    const p = this.x.malloc(Math.max(size, 1));
    if (p === 0) throw new EngineError("out of memory", ErrorCode.NoMemory);
    return p;
  }
  cString(text: string): number {
    const bytes = new TextEncoder().encode(text);
    const p = this.alloc(bytes.length + 1);
    this.bytes.set(bytes, p);
    this.bytes[p + bytes.length] = 0;
    return p;
  }
  readString(p: number): string {
    if (p === 0) return "";
    const bytes = this.bytes;
    let end = p;
    while (bytes[end] !== 0) end++;
    return new TextDecoder().decode(bytes.subarray(p, end));
  }
}

const registry = typeof FinalizationRegistry === "undefined" ? undefined
  : new FinalizationRegistry<() => void>((release) => release());

/** One match. Not shared between workers: clone() gives each its own. */
export class Game {
  #x: Exports;
  #m: Memory;
  #ptr: number;
  #scratch: number;          // MAX_IDS int32 ids, reused (also labels and returns)
  #token = {};

  /** @internal */
  constructor(x: Exports, m: Memory, ptr: number) {
    this.#x = x;
    this.#m = m;
    this.#ptr = ptr;
    this.#scratch = m.alloc(MAX_IDS * 4 + ERR_LEN);
    const scratch = this.#scratch;
    registry?.register(this, () => { x.cc_game_free(ptr); x.free(scratch); }, this.#token);
  }

  #handle(): number {
    if (this.#ptr === 0) throw new EngineError("the game was freed", ErrorCode.Argument);
    return this.#ptr;
  }

  get name(): string { return this.#m.readString(this.#x.cc_name(this.#handle())); }
  get numPlayers(): number { return this.#x.cc_num_players(this.#handle()); }
  get numActions(): number { return this.#x.cc_num_actions(this.#handle()); }
  /** The seat to move; -1 once the match is over. */
  get currentPlayer(): number { return this.#x.cc_current_player(this.#handle()); }
  get isOver(): boolean { return this.#x.cc_is_over(this.#handle()) === 1; }
  get actionsApplied(): number { return Number(this.#x.cc_actions_applied(this.#handle())); }

  /** The legal action ids, ascending (empty once over). */
  legalActions(): number[] {
    const n = this.#x.cc_legal_actions(this.#handle(), this.#scratch, MAX_IDS);
    return Array.from(new Int32Array(this.#x.memory.buffer, this.#scratch, Math.min(n, MAX_IDS)));
  }

  /** Apply a legal id; IllegalActionError (and nothing changes) otherwise, carrying the
   * refusal's rule, reason and args for an id in range while the match is on. */
  apply(id: number): void {
    if (!Number.isInteger(id) || id < -(2 ** 31) || id >= 2 ** 31) {
      throw new IllegalActionError(`action id ${String(id).slice(0, 60)} is not a valid id`,
                                   ErrorCode.Illegal);
    }
    const err = this.#scratch + MAX_IDS * 4;
    const status = this.#x.cc_apply(this.#handle(), id, err, ERR_LEN);
    if (status === 0) return;
    const message = this.#m.readString(err);
    const refusal = status === ErrorCode.Illegal && id >= 0 && id < this.numActions
      ? this.refusal(id) ?? undefined : undefined;
    if (refusal !== undefined) {
      throw new IllegalActionError(`action ${id} is not legal now [${refusal.rule}]`, status, refusal);
    }
    throw new IllegalActionError(message, status);
  }

  /** Why an id is not legal now, without applying it: a Refusal, or null for a legal id.
   * RangeError for an id outside 0..numActions-1; IllegalActionError once the match is over
   * (code Over). */
  refusal(id: number): Refusal | null {
    const g = this.#handle();
    if (!Number.isInteger(id) || id < 0 || id >= this.numActions) {
      throw new RangeError(`action id ${String(id).slice(0, 60)} is outside 0..${this.numActions - 1}`);
    }
    const rule = this.#scratch + MAX_IDS * 4;          // the err area: 512 bytes
    const args = this.#scratch;                        // 4 int32 fields, then their count
    const nargs = this.#scratch + 16;
    const reason = this.#x.cc_refusal(g, id, rule, ERR_LEN, args, 4, nargs);
    if (reason === ErrorCode.Legal) return null;
    if (reason === ErrorCode.Over) throw new IllegalActionError("the match is over", reason);
    if (reason < 0) throw new EngineError(`no refusal for action ${id} (${reason})`, reason);
    const n = new Int32Array(this.#x.memory.buffer, nargs, 1)[0]!;
    return {
      reason,
      rule: this.#m.readString(rule),
      args: Array.from(new Int32Array(this.#x.memory.buffer, args, Math.min(n, 4))),
    };
  }

  /** Per seat, higher is better: the result once over, zeros before. */
  returns(): number[] {
    const n = this.#x.cc_returns(this.#handle(), this.#scratch, MAX_IDS / 2);
    return Array.from(new Float64Array(this.#x.memory.buffer, this.#scratch, n));
  }

  /** Per seat, the scores the view shows. */
  scores(): number[] {
    const n = this.#x.cc_scores(this.#handle(), this.#scratch, MAX_IDS);
    return Array.from(new Int32Array(this.#x.memory.buffer, this.#scratch, n));
  }

  get observationSize(): number { return this.#x.cc_observation_size(this.#handle()); }

  /** What `seat` may know, as Python's observation_tensor(seat). */
  observation(seat: number): Float32Array {
    const g = this.#handle();
    if (!Number.isInteger(seat) || seat < 0 || seat >= this.numPlayers) {
      throw new RangeError(`seat must be 0..${this.numPlayers - 1}`);
    }
    const size = this.#x.cc_observation_size(g);
    const p = this.#m.alloc(size * 4);
    try {
      this.#x.cc_observation(g, seat, p, size);
      return new Float32Array(this.#x.memory.buffer.slice(p, p + size * 4));
    } finally {
      this.#x.free(p);
    }
  }

  /** The in-core greedy policy's move (its tie-breaks seeded as cardcore.h says). */
  greedyAction(seed?: number | bigint): number {
    const g = this.#handle();
    const id = seed === undefined ? this.#x.cc_greedy_action(g)
      : this.#x.cc_greedy_action_seeded(g, toSeed(seed));
    if (id < 0) throw new IllegalActionError("the match is over", id);
    return id;
  }

  /** The IS-MCTS bot's move for the seat to move: the root move it visited most. It runs
   * `iterations` iterations, or fewer if `thinkMs` runs out first (at least one batch). */
  searchAction(options: SearchOptions = {}): number {
    const g = this.#handle();
    const iterations = options.iterations ?? 1000;
    if (!Number.isInteger(iterations) || iterations < 1 || iterations > 10_000_000) {
      throw new RangeError("iterations must be an integer 1..10,000,000");
    }
    const s = this.#x.cc_search_new(g, toSeed(options.seed),
                                    ROLLOUTS[options.rollout ?? "game"],
                                    HORIZONS[options.horizon ?? "match"],
                                    options.exploration ?? 0.7, options.prior ?? 0.0);
    if (s === 0) throw new IllegalActionError("no search here: the match is over (or no memory)", ErrorCode.Over);
    try {
      const deadline = options.thinkMs === undefined ? Infinity : performance.now() + options.thinkMs;
      let done = 0;
      while (done < iterations) {
        const batch = Math.min(SEARCH_BATCH, iterations - done);
        const status = this.#x.cc_search_run(s, batch);
        if (status !== 0) throw new EngineError(`the search failed (${status})`, status);
        done += batch;
        if (performance.now() >= deadline) break;
      }
      return this.#x.cc_search_best(s);
    } finally {
      this.#x.cc_search_free(s);
    }
  }

  /** str(action) of an id here, e.g. "attack 7H". */
  actionLabel(id: number): string {
    const g = this.#handle();
    const n = this.#x.cc_action_label(g, id, this.#scratch, MAX_IDS * 4);
    if (n < 0) throw new RangeError(`action id ${id} is outside 0..${this.numActions - 1}`);
    return this.#m.readString(this.#scratch);
  }

  /** Random legal moves until the match is over (or maxActions): how many were applied. */
  playRandom(seed: number | bigint, maxActions = 1_000_000): number {
    return Number(this.#x.cc_play_random(this.#handle(), toSeed(seed), BigInt(maxActions)));
  }

  /** A copy in which what `seat` cannot see is redealt at random. */
  sampleHidden(seat: number, seed: number | bigint): Game {
    const p = this.#x.cc_sample_hidden(this.#handle(), seat, toSeed(seed));
    if (p === 0) throw new EngineError("no sampled world (seat out of range or no memory)", ErrorCode.Argument);
    return new Game(this.#x, this.#m, p);
  }

  /** Every zone instance's cards (card ids; a pile bottom to top), hidden ones included:
   * for tools, never for a seat. */
  zones(): { name: string; cards: number[][] }[] {
    const g = this.#handle();
    const out: { name: string; cards: number[][] }[] = [];
    for (let z = 0; z < this.#x.cc_zone_count(g); z++) {
      const cards: number[][] = [];
      for (let i = 0; i < this.#x.cc_zone_instances(g, z); i++) {
        const n = this.#x.cc_zone_cards(g, z, i, this.#scratch, MAX_IDS * 4);
        cards.push(Array.from(new Uint8Array(this.#x.memory.buffer, this.#scratch, n)));
      }
      out.push({ name: this.#m.readString(this.#x.cc_zone_name(g, z)), cards });
    }
    return out;
  }

  /** The zones as `seat` sees them (-1: a spectator): Python's view(seat)["zones"]. */
  view(seat: number): Record<string, ZoneView> {
    const g = this.#handle();
    if (!Number.isInteger(seat) || seat < -1 || seat >= this.numPlayers) {
      throw new RangeError(`seat must be -1..${this.numPlayers - 1}`);
    }
    const n = this.#x.cc_view_json(g, seat, 0, 0);
    const p = this.#m.alloc(n + 1);
    try {
      this.#x.cc_view_json(g, seat, p, n + 1);
      return JSON.parse(this.#m.readString(p)) as Record<string, ZoneView>;
    } finally {
      this.#x.free(p);
    }
  }

  /** An independent copy. */
  clone(): Game {
    const p = this.#x.cc_game_clone(this.#handle());
    if (p === 0) throw new EngineError("out of memory", ErrorCode.NoMemory);
    return new Game(this.#x, this.#m, p);
  }

  /** Release the game's memory; the object is unusable after. */
  free(): void {
    if (this.#ptr === 0) return;
    registry?.unregister(this.#token);
    this.#x.cc_game_free(this.#ptr);
    this.#x.free(this.#scratch);
    this.#ptr = 0;
  }
}

export class Engine {
  #x: Exports;
  #m: Memory;

  /** @internal */
  constructor(x: Exports) {
    this.#x = x;
    this.#m = new Memory(x);
  }

  get abiVersion(): number { return this.#x.cc_abi_version(); }

  /** The games this module knows. */
  games(): string[] {
    const names: string[] = [];
    for (let i = 0; i < this.#x.cc_game_count(); i++) {
      names.push(this.#m.readString(this.#x.cc_game_name(i)));
    }
    return names;
  }

  /** A new match, dealt as Python's new_game(name, players=, seed=, **options) deals it. */
  newGame(name: string, opts: NewGameOptions = {}): Game {
    const seed = toSeed(opts.seed);
    const players = opts.players ?? 0;
    if (!Number.isInteger(players) || players < 0 || players > 64) {
      throw new ConfigError(`players must be an integer 1..64, not ${String(players).slice(0, 60)}`,
                            ErrorCode.Config);
    }
    const m = this.#m, x = this.#x;
    const nameP = m.cString(name);
    const optionsP = m.cString(JSON.stringify(opts.options ?? {}));
    const outP = m.alloc(4);
    const errP = m.alloc(ERR_LEN);
    let deckP = 0;
    try {
      let status: number;
      if (opts.deck !== undefined) {
        deckP = m.alloc(opts.deck.length);
        opts.deck.forEach((c, i) => { m.bytes[deckP + i] = c; });
        status = x.cc_game_new_stacked(nameP, players, optionsP, seed, deckP, opts.deck.length,
                                       outP, errP, ERR_LEN);
      } else {
        status = x.cc_game_new(nameP, players, optionsP, seed, outP, errP, ERR_LEN);
      }
      if (status !== 0) throw new ConfigError(m.readString(errP), status);
      const ptr = new Uint32Array(x.memory.buffer, outP, 1)[0]!;
      return new Game(x, m, ptr);
    } finally {
      for (const p of [nameP, optionsP, outP, errP, deckP]) if (p !== 0) x.free(p);
    }
  }
}

/** Imports a wasm32-wasi reactor may name: the library calls none of them (it uses only
 * memory), so each is a stub that fails loudly if ever reached. */
function stubImports(module: WebAssembly.Module): WebAssembly.Imports {
  const imports: Record<string, Record<string, WebAssembly.ImportValue>> = {};
  for (const entry of WebAssembly.Module.imports(module)) {
    if (entry.kind !== "function") continue;
    (imports[entry.module] ??= {})[entry.name] = () => {
      throw new EngineError(`the engine called ${entry.module}.${entry.name}`, ErrorCode.Argument);
    };
  }
  return imports;
}

/** The module's bytes: a path or URL (Node reads files; browsers fetch), bytes, or a
 * compiled module. Default: cardcore.wasm beside this package's dist/. */
export type WasmSource = string | URL | ArrayBuffer | Uint8Array<ArrayBuffer> | WebAssembly.Module;

async function compile(source: WasmSource | undefined): Promise<WebAssembly.Module> {
  if (source instanceof WebAssembly.Module) return source;
  if (source instanceof ArrayBuffer || source instanceof Uint8Array) {
    return WebAssembly.compile(source);
  }
  const url = source === undefined ? new URL("../cardcore.wasm", import.meta.url)
    : source instanceof URL ? source : new URL(source, import.meta.url);
  if (url.protocol === "file:") {
    const { readFile } = await import("node:fs/promises");
    return WebAssembly.compile(new Uint8Array(await readFile(url)));
  }
  const response = await fetch(url);
  if (!response.ok) throw new EngineError(`${url}: HTTP ${response.status}`, ErrorCode.Argument);
  return WebAssembly.compile(await response.arrayBuffer());
}

/** Load the engine (once per page or process is enough: every game shares it). */
export async function loadEngine(source?: WasmSource): Promise<Engine> {
  const module = await compile(source);
  const instance = await WebAssembly.instantiate(module, stubImports(module));
  const x = instance.exports as unknown as Exports;
  x._initialize?.();
  if (x.cc_abi_version() !== ABI_VERSION) {
    throw new EngineError(`cardcore.wasm has ABI ${x.cc_abi_version()}, this wrapper ${ABI_VERSION}`,
                          ErrorCode.Argument);
  }
  return new Engine(x);
}
