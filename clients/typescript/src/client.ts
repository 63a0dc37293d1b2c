// A small client of `cardcore serve` (docs/server.md): the HTTP calls, and a table's
// WebSocket with reconnection from the last event seen, state patches applied, a connection
// status, and actions queued while it reconnects. The message shapes are the generated
// types (src/generated/); the game-specific parts of a state (view, legal actions, events)
// are typed by the table's game.
import type { GameName, GameTypes } from "./generated/games.js";
import type { components, operations } from "./generated/openapi.js";

type Schemas = components["schemas"];
type Ok<Op extends keyof operations, Status extends number = 200> =
  operations[Op]["responses"] extends Record<Status, { content: { "application/json": infer B } }>
    ? B : never;

/** Fields that newer servers send: typed as optional so that the client works with a server
 * that sends them and one that does not. Once the OpenAPI document describes them, the
 * regenerated types carry their exact shapes too. */
export interface ServerExtras {
  /** The request id of the WebSocket action this message answers (echoed by the server). */
  id?: string;
  /** Turn clocks: the seats' remaining time, on a table with a clock. */
  clock?: ClockInfo | null;
  clocks?: ClockInfo | null;
}
/** A turn clock as the server reports it (its exact shape comes with the server's schema). */
export type ClockInfo = { [key: string]: unknown } | unknown[];

/** A table's state for one seat (or a spectator), typed by its game. `view` is typed as a
 * seat's view (`cardcore schema GAME view`); a spectator's (`seat: null`) is that view with the
 * seat's own keys blanked (`player: null`, `hand: []`) and keys that differ between seats
 * left out (docs/server.md). */
export type TableState<G extends GameName = GameName> =
  Omit<Schemas["State"], "game" | "view" | "legal" | "events"> & ServerExtras & {
    game: G;
    view: GameTypes[G]["view"];
    legal: GameTypes[G]["action"][];
    events: GameTypes[G]["event"][];
  };
/** A state of any game, discriminated by `game`. */
export type AnyTableState = { [G in GameName]: TableState<G> }[GameName];
export type GameEvent<G extends GameName = GameName> = GameTypes[G]["event"];
export type GameAction<G extends GameName = GameName> = GameTypes[G]["action"];

/** One game of `GET /api/games`. */
export interface GameInfo {
  game: GameName;
  title: string;
  round_name: string;
  round_end_event: string;
  min_players: number;
  max_players: number;
  default_players: number;
  /** Each option's default and description (and, on newer servers, its type and bounds). */
  options: Record<string, { default: unknown; doc: string; [key: string]: unknown }>;
  bots: string[];
  [key: string]: unknown;
}
export type GamesAnswer = Omit<Ok<"listGames">, "games"> & { games: GameInfo[] };
export type NewTable<G extends GameName = GameName> = Schemas["NewTable"] & { game: G };
/** The answer to `POST /api/tables`: a token for every seat that is not a bot. */
export type CreatedTable<G extends GameName = GameName> = Omit<Schemas["Created"], "game"> & {
  game: G;
  /** The hash of the seed and a server nonce, on servers that publish one (provably fair
   * deals: the match-end record reveals them). */
  commitment?: string | { [key: string]: unknown };
};
export type TableList = Ok<"listTables">;
/** The answer to a claim of an open seat: the seat and its token (for this claimer only). */
export type ClaimedSeat = Schemas["Claimed"];
/** The answer to a rematch request: the new table's id (the seats keep their tokens). */
export type RematchAnswer = Schemas["Rematch"];
/** A seat of a state: its bot, name and presence. */
export type SeatInfo = Schemas["Seat"];
export type Presence = SeatInfo["presence"];
/** `{"type": "presence", ...}`: a seat's presence changed (sockets opened with `presence`). */
export type PresenceNotice = Schemas["WsPresence"];
/** `{"type": "patch", "events", "patch"}`: a change as the new events and an RFC 7396 merge
 * patch of the rest of the state (sockets opened with `patches`; the client applies it). */
export type PatchMessage = Schemas["WsPatch"];
/** `{"type": "rematch", "table": id}`: the finished table's rematch exists. */
export type RematchNotice = Schemas["WsRematch"];
/** `{"type": "bot", "event": "fallback", ...}`: a seat's plug-in bot failed on its turn and
 * the fallback bot plays it from now on (`text` in the socket's language; the state's
 * `seats[k].fallback` says the same). */
export type BotFallbackNotice = Schemas["WsBotFallback"];
export type Hints = Schemas["Hints"];
export type Review = Schemas["Review"];
/** An action: its id (from `legal`) or its notation (its label). */
export type ActionRef = number | string;

/** The body of an action: `after` and `cards` only when given. */
function actionBody(action: ActionRef, after?: number,
                    cards?: readonly string[]): { action: ActionRef; after?: number; cards?: string[] } {
  return { action, ...(after === undefined ? {} : { after }),
           ...(cards === undefined ? {} : { cards: [...cards] }) };
}

/** A refusal by the server: the HTTP status (or the WebSocket error's), its text and body. */
export class CardcoreError extends Error {
  readonly status: number;
  readonly body: { error?: string; rule?: string | null; option?: string; [key: string]: unknown };
  constructor(status: number, body: CardcoreError["body"]) {
    super(`${status}: ${body.error ?? "error"}`);
    this.name = "CardcoreError";
    this.status = status;
    this.body = body;
  }
  /** The rule that forbids an illegal action (422), e.g. "KS-4.3". */
  get rule(): string | null | undefined { return this.body.rule; }
}

/** The socket closed (or was lost) before the action was answered: it may or may not have
 * been played. Read the state and retry with its `event_count` as `after`, which the server
 * refuses (409) if the first attempt did go through. */
export class ConnectionLostError extends Error {
  constructor(readonly code: number | undefined) {
    super(`the table's socket closed (${code ?? "lost"}) before the answer`);
    this.name = "ConnectionLostError";
  }
}

/** The connection of a table's socket: `connecting` (the first connection, until its first
 * state), `open` (a state has arrived on this connection: actions go out at once),
 * `reconnecting` (the connection was lost; actions are queued until the next one's first
 * state), `closed` (for good). */
export type SocketStatus = "connecting" | "open" | "reconnecting" | "closed";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** `patch` applied to `target` as RFC 7396 says (its section 2, the whole algorithm): an
 * object merges member by member, a null removes the member, anything else (arrays
 * included) replaces. A new value; `target` is left as it was. Written out rather than taken
 * from npm: the RFC's algorithm is these lines, and the client stays free of runtime
 * dependencies (a page can load it as ES modules, with no bundler); the tests check it
 * against the server's patches, built by the Python library `json-merge-patch`. */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (patch === null || typeof patch !== "object" || Array.isArray(patch)) return patch;
  const result: Record<string, unknown> =
    target !== null && typeof target === "object" && !Array.isArray(target)
      ? { ...(target as Record<string, unknown>) } : {};
  for (const [key, value] of Object.entries(patch as Record<string, Json>)) {
    if (value === null) delete result[key];
    else result[key] = applyMergePatch(result[key], value);
  }
  return result;
}

/** What the client uses of a WebSocket (the browsers' and the `ws` package's have it). */
interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
}
/** A WebSocket class: the browsers', Node 22's global one, Node 20's with
 * `--experimental-websocket`, or the `ws` package's. (Typed loosely: their handler types
 * differ; the client uses only `send`, `close`, `readyState` and the `on*` handlers.) */
export type WebSocketConstructor = new (url: string, protocols: string[]) => object;

export interface ClientOptions {
  /** Defaults to the global `fetch`. */
  fetch?: typeof fetch;
  /** Defaults to the global `WebSocket` (Node 20: run with `--experimental-websocket`, or
   * pass `ws`'s `WebSocket`). */
  WebSocket?: WebSocketConstructor;
  /** The reader's language ("en", "ru"): sent as `Accept-Language`, so that what the server
   * writes (games' titles and options, refusals) is in it. */
  lang?: string;
}

/** The HTTP calls of docs/server.md, and `connect` for a table's socket. */
export class CardcoreClient {
  readonly baseUrl: string;
  private readonly fetchImpl: typeof fetch;
  private readonly socketImpl: WebSocketConstructor | undefined;
  private readonly lang: string | undefined;

  constructor(baseUrl: string, options: ClientOptions = {}) {
    this.baseUrl = baseUrl.replace(/\/+$/, "");
    this.fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.socketImpl = options.WebSocket
      ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
    this.lang = options.lang;
  }

  private async request<T>(method: string, path: string,
                           init: { token?: string; body?: unknown } = {}): Promise<T> {
    const headers: Record<string, string> = {};
    if (init.body !== undefined) headers["Content-Type"] = "application/json";
    if (init.token !== undefined) headers["Authorization"] = `Bearer ${init.token}`;
    if (this.lang !== undefined) headers["Accept-Language"] = this.lang;
    const response = await this.fetchImpl(this.baseUrl + path, {
      method, headers, redirect: "error",
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    if (response.status === 204) return undefined as T;
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = { error: text.slice(0, 200) };
    }
    if (!response.ok) throw new CardcoreError(response.status, body as CardcoreError["body"]);
    return body as T;
  }

  /** `GET /api/games`: the games, their options and bots. */
  games(): Promise<GamesAnswer> { return this.request("GET", "/api/games"); }

  /** `POST /api/tables`. */
  createTable<G extends GameName>(table: NewTable<G>): Promise<CreatedTable<G>> {
    return this.request("POST", "/api/tables", { body: table });
  }

  /** `GET /api/tables`: the lobby (`over`: ended tables too). */
  tables(query: { over?: boolean } = {}): Promise<TableList> {
    return this.request("GET", "/api/tables" + (query.over ? "?over=1" : ""));
  }

  /** `GET /api/tables/{id}`: the seat's state (the spectator's without a token), with one
   * page of events (docs/server.md, "Reading a table"): the last 100 without `since`, else the
   * 100 from `since`; `events_from` is the `n` of the first. */
  state<G extends GameName = GameName>(table: string, token?: string,
                                       since?: number): Promise<TableState<G>> {
    const query = since === undefined ? "" : `?since=${since}`;
    return this.request("GET", `/api/tables/${encodeURIComponent(table)}${query}`, { token });
  }

  /** Every event of the table from `since` (default 0) as the token's seat saw it, read page
   * by page (`state` with `since`) until the page that ends at `event_count`. */
  async allEvents<G extends GameName = GameName>(table: string, token?: string,
                                                 since = 0): Promise<TableState<G>["events"]> {
    const events: TableState<G>["events"] = [];
    for (;;) {
      const page: TableState<G> = await this.state<G>(table, token, since);
      events.push(...page.events);
      since = (page.events_from ?? since) + page.events.length;
      if (since >= page.event_count || page.events.length === 0) return events;
    }
  }

  /** `POST /api/tables/{id}/actions`: play for the token's seat; with `after` (the
   * `event_count` the move was chosen from) the server refuses it (409) if anything happened
   * since; with `cards` (card notations) the action takes exactly those cards from the hand
   * (docs/server.md, "Exact cards"). Answers the seat's state with the events after `after`. */
  act<G extends GameName = GameName>(table: string, token: string, action: ActionRef,
                                     after?: number,
                                     cards?: readonly string[]): Promise<TableState<G>> {
    return this.request("POST", `/api/tables/${encodeURIComponent(table)}/actions`,
                        { token, body: actionBody(action, after, cards) });
  }

  /** `GET /api/tables/{id}/hint`: the best moves for the seat to move. */
  hint(table: string, token: string): Promise<Hints> {
    return this.request("GET", `/api/tables/${encodeURIComponent(table)}/hint`, { token });
  }

  /** `GET /api/tables/{id}/review?seat=S`: the seat's decisions against the best moves of
   * the level-5 search (from the seat's information only), once the match has ended. */
  review(table: string, seat: number, token?: string): Promise<Review> {
    return this.request("GET", `/api/tables/${encodeURIComponent(table)}/review?seat=${seat}`,
                        { token });
  }

  /** `POST /api/tables/{id}/takeback`: undo the seat's last move and the bots' moves after it
   * (a table created with `takeback: true`). Answers the rewound state (`rewound: true`, its
   * events the whole stream from 0). */
  takeBack<G extends GameName = GameName>(table: string, token: string,
                                          after?: number): Promise<TableState<G>> {
    return this.request("POST", `/api/tables/${encodeURIComponent(table)}/takeback`,
                        { token, body: after === undefined ? {} : { after } });
  }

  /** `POST /api/tables/{id}/seats`: claim an open seat as `name` (with the table's invite,
   * unless it lets anyone join); `seat` defaults to the lowest open one. */
  claimSeat(table: string, claim: { name: string; invite?: string; seat?: number }):
      Promise<ClaimedSeat> {
    return this.request("POST", `/api/tables/${encodeURIComponent(table)}/seats`,
                        { body: claim });
  }

  /** `DELETE /api/tables/{id}/seats/{seat}`: leave the seat; it is open again and the token
   * stops working. */
  leaveSeat(table: string, seat: number, token: string): Promise<void> {
    return this.request("DELETE", `/api/tables/${encodeURIComponent(table)}/seats/${seat}`,
                        { token });
  }

  /** `POST /api/tables/{id}/rematch`: the finished match's rematch (made once: every seat
   * asking gets the same table). The seats keep their tokens: follow the new id. */
  rematch(table: string, token: string): Promise<RematchAnswer> {
    return this.request("POST", `/api/tables/${encodeURIComponent(table)}/rematch`,
                        { token });
  }

  /** `DELETE /api/tables/{id}` with the creator token. */
  deleteTable(table: string, creatorToken: string): Promise<void> {
    return this.request("DELETE", `/api/tables/${encodeURIComponent(table)}`,
                        { token: creatorToken });
  }

  /** Open the table's socket for a seat (or as a spectator without a token). */
  connect<G extends GameName = GameName>(table: string,
                                         options: SocketOptions<G> = {}): TableSocket<G> {
    if (this.socketImpl === undefined) {
      throw new Error("no WebSocket: on Node 20 run with --experimental-websocket, or pass "
                      + "{WebSocket} from the ws package to CardcoreClient");
    }
    const url = this.baseUrl.replace(/^http/, "ws") + `/ws/tables/${encodeURIComponent(table)}`;
    return new TableSocket<G>(url, this.socketImpl,
                              options.lang === undefined && this.lang !== undefined
                                ? { ...options, lang: this.lang } : options);
  }
}

export interface SocketOptions<G extends GameName = GameName> {
  /** The seat's token; none: a spectator. */
  token?: string;
  /** How the token travels: as the `cardcore.token.T` subprotocol (the default, every server
   * of this protocol), or as the first message `{"type": "auth", "token": T}` (servers that
   * take it, for environments that cannot set subprotocols). */
  auth?: "subprotocol" | "message";
  /** Events already seen: the server sends those from here on. */
  since?: number;
  /** Ask for `presence` messages (each seat's presence change), passed to `onNotice`. */
  presence?: boolean;
  /** The language of the events' texts and the refusals ("en", "ru"; `?lang=`); defaults to
   * the client's. */
  lang?: string;
  /** Ask for patches (`?patches=1`, the default): after the first whole state the server
   * sends each change as the new events and an RFC 7396 merge patch, which the client
   * applies; `onState` and `state` see whole states either way. `false`: whole states. */
  patches?: boolean;
  /** Called with each new `status` (also `socket.onStatus(listener)`). */
  onStatus?: (status: SocketStatus) => void;
  /** Reconnect after a lost connection or a storage failure (1011), from the last event
   * received: `false` never; otherwise delays doubling from `initialMs` up to `maxMs`, at most
   * `attempts` times in a row. A refusal told to try again later (close 1013 after an error
   * with `retry_after`: too many sockets from this address) waits at least that long. */
  reconnect?: false | { initialMs?: number; maxMs?: number; attempts?: number };
  onState?: (state: TableState<G>) => void;
  /** The server's other messages: `{"type": "record", ...}` (the match record, after the
   * final state), `{"type": "clock", "event": "timeout", ...}` (a seat's time ran out),
   * `{"type": "presence", ...}` (with `presence: true`), `{"type": "rematch", "table"}`
   * (the rematch of this finished table: `socket.rematch` holds its id) and `{"type": "bot",
   * "event": "fallback", ...}` (a failing plug-in's seat played by the fallback bot). */
  onNotice?: (message: Record<string, unknown>) => void;
  /** Each event once, in order (`n` counts up from `since`). */
  onEvent?: (event: GameEvent<G>) => void;
  /** A take-back rewound the table (docs/server.md, "Take-backs"): `events` now holds the
   * state's events only (from `n` 0); `onEvent` follows for each of them. */
  onRewind?: (state: TableState<G>) => void;
  /** An error message that answers no action of this client (a refusal of the connection
   * comes here before its close). */
  onError?: (error: CardcoreError) => void;
  /** The socket is closed for good: by `close()`, the server (a refusal, an ended table,
   * 4000), or after the reconnection attempts ran out. */
  onClose?: (code: number, reason: string) => void;
}

// Close codes after which reconnecting cannot help (docs/server.md, "Close codes"): a
// refusal (1008), an oversized message (1009), too many sockets (1013) unless the error
// before it said when to retry, an ended table (4000), a seat left (4010: its token is void).
const FINAL_CLOSES = new Set([1000, 1008, 1009, 1013, 4000, 4010]);
// "Try again later": 1013 after an error with `retry_after` is not final.
const TRY_LATER = 1013;
// How long an error waits for its close before the connection counts as lost without one.
const ERROR_GRACE_MS = 1000;

interface Pending<G extends GameName> {
  id: string;
  /** The message, and whether it went out on the current connection (a message made while
   * the socket reconnects waits for the next connection's first state). */
  message: string;
  sent: boolean;
  /** The event count the action was sent with: its own event comes at or after it. */
  from: number;
  resolve: (state: TableState<G>) => void;
  reject: (error: Error) => void;
}

/** A table's socket: the state as pushed, every event once and in order across reconnections,
 * and actions answered by promises.
 *
 * An action resolves with the state that answers it. A server that echoes request ids says
 * which message that is; before that (docs/server.md: an action gets "either the next state
 * or an error"), the client waits for the state carrying the seat's own move (an event of
 * this seat that is not automatic, at or after the count it was sent with), and an error
 * without an id answers the oldest action waiting. */
export class TableSocket<G extends GameName = GameName> {
  /** The last state pushed (its `events` are those that came with it). */
  state: TableState<G> | undefined;
  /** The match record, once the server has sent it (a finished match with a commitment). */
  record: Record<string, unknown> | undefined;
  /** Every event received, in order: `events[i].n === since + i` (after a take-back, the
   * rewound stream: `events[i].n === i`). */
  readonly events: GameEvent<G>[] = [];
  /** The take-backs of the table seen so far (`state.takeback.rewinds`). */
  rewinds = 0;
  /** The event count to resume from: the `n` of the next event expected. */
  eventCount: number;
  /** Connections opened so far (1 + reconnections). */
  connections = 0;
  /** Whether the server has echoed a request id on this socket. */
  echoesIds = false;
  /** The rematch table's id, once the server has said there is one. */
  rematch: string | undefined;
  /** The connection's status (`onStatus` tells each change). */
  status: SocketStatus = "connecting";

  private socket: WebSocketLike | undefined;
  private lostSocket: WebSocketLike | undefined;
  private closed = false;
  private finished = false;
  private failures = 0;
  /** Seconds the last error said to wait before trying again (`retry_after`), if any. */
  private retryAfter: number | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private nextId = 1;
  private readonly pending: Pending<G>[] = [];
  private readonly openWaiters: { resolve: () => void; reject: (e: Error) => void }[] = [];
  private readonly stateWaiters: { test: (s: TableState<G>) => boolean;
                                   resolve: (s: TableState<G>) => void;
                                   reject: (e: Error) => void }[] = [];
  private readonly statusListeners = new Set<(status: SocketStatus) => void>();
  /** The last state of this connection without its events, that patches apply to. */
  private base: Record<string, unknown> | undefined;

  constructor(private readonly url: string, private readonly Impl: WebSocketConstructor,
              private readonly options: SocketOptions<G>) {
    this.eventCount = options.since ?? 0;
    this.open();
  }

  /** Call `listener` with each new status; returns the function that stops it. */
  onStatus(listener: (status: SocketStatus) => void): () => void {
    this.statusListeners.add(listener);
    return () => { this.statusListeners.delete(listener); };
  }

  private setStatus(status: SocketStatus): void {
    if (status === this.status) return;
    this.status = status;
    this.options.onStatus?.(status);
    for (const listener of [...this.statusListeners]) listener(status);
  }

  /** The seat this socket plays (null: a spectator), once the first state has arrived. */
  get seat(): number | null | undefined { return this.state?.seat; }

  /** Each seat's presence (connected, away, bot, open) as last known: from the last state,
   * updated by presence messages. */
  get presence(): Presence[] {
    return (this.state?.seats ?? []).map((s) => this.presences.get(s.seat) ?? s.presence);
  }
  private readonly presences = new Map<number, Presence>();

  /** The table's turn clocks from the last state, when the server sends them. */
  get clock(): ClockInfo | null { return this.state?.clock ?? this.state?.clocks ?? null; }

  private open(): void {
    const { token, auth = "subprotocol" } = this.options;
    const protocols = ["cardcore"];
    if (token !== undefined && auth === "subprotocol") protocols.push(`cardcore.token.${token}`);
    const query = [...(this.eventCount > 0 ? [`since=${this.eventCount}`] : []),
                   ...(this.rewinds > 0 ? [`rewinds=${this.rewinds}`] : []),
                   ...(this.options.presence ? ["presence=1"] : []),
                   ...(this.options.lang ? [`lang=${encodeURIComponent(this.options.lang)}`] : []),
                   ...(this.options.patches === false ? [] : ["patches=1"])];
    const url = query.length > 0 ? `${this.url}?${query.join("&")}` : this.url;
    const socket = new this.Impl(url, protocols) as WebSocketLike;
    this.socket = socket;
    this.base = undefined;                     // a new connection starts with a whole state
    this.connections += 1;
    socket.onmessage = (event) => { if (socket === this.socket) this.receive(String(event.data)); };
    socket.onclose = (event) => this.lost(socket, event.code, event.reason);
    // A close follows an error, except on Node 20's WebSocket, which after a refused
    // connection stays CONNECTING for good: lost then too, if no close came meanwhile.
    socket.onerror = () => {
      setTimeout(() => this.lost(socket, 1006, "connection failed"), ERROR_GRACE_MS);
    };
    socket.onopen = () => {
      if (token !== undefined && auth === "message") {
        socket.send(JSON.stringify({ type: "auth", token }));
      }
    };
  }

  private receive(text: string): void {
    const message = JSON.parse(text) as
      | ({ type: "state" } & TableState<G>)
      | { type: "patch"; events: GameEvent<G>[]; patch: Record<string, unknown>; id?: string }
      | ({ type: "error"; id?: string } & CardcoreError["body"] & { status: number })
      | { type: "pong" } | { type: "record" } | { type: "clock" }
      | PresenceNotice | RematchNotice | BotFallbackNotice;
    if (message.type === "pong") return;
    if (message.type === "presence") this.presences.set(message.seat, message.presence);
    if (message.type === "rematch") this.rematch = message.table;
    if (message.type === "record" || message.type === "clock" || message.type === "presence"
        || message.type === "rematch" || message.type === "bot") {
      // The match record after the final state; a clock's timeout before the state with the
      // move made for the seat (docs/server.md "Fair deals and match records", "Clocks").
      if (message.type === "record") this.record = message as unknown as Record<string, unknown>;
      this.options.onNotice?.(message as unknown as Record<string, unknown>);
      return;
    }
    if (message.type === "error") {
      const { type, status, ...body } = message;
      const retry = (body as { retry_after?: unknown }).retry_after;
      this.retryAfter = typeof retry === "number" && retry >= 0 ? retry : undefined;
      this.answer(message.id, undefined, new CardcoreError(status, body));
      return;
    }
    let state: TableState<G> & { rewound?: boolean };
    if (message.type === "patch") {
      if (this.base === undefined) {             // never expected: resynchronise
        this.socket?.close(4001, "patch before a state");
        return;
      }
      this.base = applyMergePatch(this.base, message.patch) as Record<string, unknown>;
      // A copy: what the app does to its state never reaches the base of the next patch.
      state = { ...structuredClone(this.base), events: message.events,
                ...(message.id === undefined ? {} : { id: message.id }) } as typeof state;
    } else if (message.type === "state") {
      const { type, ...whole } = message;
      const { events, id, rewound, ...rest } = whole as typeof whole & { rewound?: boolean };
      this.base = structuredClone(rest);
      state = whole;
    } else {
      return;                                    // a message of a newer server: ignored
    }
    const rewound = state.rewound === true;
    if (rewound) {                 // a take-back: the stream starts again from event 0
      this.events.length = 0;
      this.eventCount = 0;
    }
    this.rewinds = state.takeback?.rewinds ?? this.rewinds;
    const fresh = state.events.filter((e) => e.n >= this.eventCount);
    if (fresh.some((e, i) => e.n !== this.eventCount + i)) {
      // Never expected (the server sends each event once and in order): resynchronise.
      this.socket?.close(4001, "event gap");
      return;
    }
    this.failures = 0;
    this.eventCount += fresh.length;
    const opened = this.status !== "open";
    const full = state as unknown as TableState<G>;
    this.state = full;
    this.presences.clear();                      // the state's own presence is current
    if (full.rematch) this.rematch = full.rematch;
    for (const waiter of this.openWaiters.splice(0)) waiter.resolve();
    if (rewound) this.options.onRewind?.(full);
    for (const event of fresh) {
      this.events.push(event);
      this.options.onEvent?.(event);
    }
    this.answer(state.id, full, undefined);
    if (opened) {                  // this connection's first state: send what was queued
      this.setStatus("open");
      this.flush();
    }
    this.options.onState?.(full);
    for (const waiter of [...this.stateWaiters]) {
      if (waiter.test(full)) {
        this.stateWaiters.splice(this.stateWaiters.indexOf(waiter), 1);
        waiter.resolve(full);
      }
    }
  }

  /** Settle the actions a message answers: the one with its id; or, until the server has
   * echoed an id, by the documented rule: an error answers the oldest action waiting, and a
   * state answers each waiting action whose own move it carries (this seat's events that are
   * not automatic, matched in order to the actions in the order they were sent). */
  private answer(id: string | undefined, state: TableState<G> | undefined,
                 error: CardcoreError | undefined): void {
    let answered: Pending<G>[] = [];
    if (id !== undefined) {
      this.echoesIds = true;
      const index = this.pending.findIndex((p) => p.id === id && p.sent);
      if (index >= 0) answered = this.pending.splice(index, 1);
    } else if (!this.echoesIds && error !== undefined) {
      answered = this.pending[0]?.sent ? this.pending.splice(0, 1) : [];
    } else if (!this.echoesIds && state !== undefined) {
      const own = state.events.filter(
        (e) => e.player === state.seat && !("auto" in e && e.auto === true)).map((e) => e.n);
      let next = 0;
      for (const pending of this.pending) {
        if (!pending.sent) break;
        while ((own[next] ?? Infinity) < pending.from) next += 1;
        if (next >= own.length) break;
        next += 1;
        answered.push(pending);
      }
      this.pending.splice(0, answered.length);
    }
    if (error !== undefined && answered.length === 0) this.options.onError?.(error);
    for (const pending of answered) {
      if (error !== undefined) pending.reject(error);
      else pending.resolve(state as TableState<G>);
    }
  }

  private lost(socket: WebSocketLike, code: number, reason: string): void {
    if (socket !== this.socket || this.finished || this.lostSocket === socket) return;
    this.lostSocket = socket;                  // once: a close after an error is the same loss
    if (socket.readyState <= 1) {
      try { socket.close(); } catch { /* closing a socket that never opened */ }
    }
    // What went out may or may not have been played: rejected (retry with `after`). What
    // was queued and not sent yet stays queued for the next connection.
    const unsent = this.pending.filter((p) => !p.sent);
    for (const pending of this.pending.filter((p) => p.sent)) {
      pending.reject(new ConnectionLostError(code));
    }
    this.pending.splice(0, this.pending.length, ...unsent);
    const reconnect = this.options.reconnect ?? {};
    const attempts = reconnect === false ? 0 : reconnect.attempts ?? 10;
    const retryAfter = code === TRY_LATER ? this.retryAfter : undefined;
    this.retryAfter = undefined;
    if (this.closed || (FINAL_CLOSES.has(code) && retryAfter === undefined) || this.state?.over
        || this.failures >= attempts) {
      this.finish(code, reason);
      return;
    }
    const settings = reconnect === false ? {} : reconnect;
    const delay = Math.max(Math.min((settings.initialMs ?? 100) * 2 ** this.failures,
                                    settings.maxMs ?? 5000), (retryAfter ?? 0) * 1000);
    this.failures += 1;
    this.setStatus("reconnecting");
    this.timer = setTimeout(() => { this.timer = undefined; if (!this.closed) this.open(); },
                            delay);
  }

  private finish(code: number, reason: string): void {
    this.closed = true;
    if (this.finished) return;
    this.finished = true;
    const error = new ConnectionLostError(code);
    for (const pending of this.pending.splice(0)) pending.reject(error);
    for (const waiter of this.openWaiters.splice(0)) waiter.reject(error);
    for (const waiter of this.stateWaiters.splice(0)) waiter.reject(error);
    this.setStatus("closed");
    this.options.onClose?.(code, reason);
  }

  /** Resolves on the first state (the socket is open and the seat known). */
  ready(): Promise<void> {
    if (this.state !== undefined) return Promise.resolve();
    if (this.closed) return Promise.reject(new ConnectionLostError(undefined));
    return new Promise((resolve, reject) => this.openWaiters.push({ resolve, reject }));
  }

  /** Resolves on the next state (the current one if it passes) for which `test` holds. */
  waitFor(test: (state: TableState<G>) => boolean): Promise<TableState<G>> {
    if (this.state !== undefined && test(this.state)) return Promise.resolve(this.state);
    if (this.closed) return Promise.reject(new ConnectionLostError(undefined));
    return new Promise((resolve, reject) => this.stateWaiters.push({ test, resolve, reject }));
  }

  /** Play an action for this socket's seat. `after` defaults to the event count of the last
   * state, so a move chosen from that state is never played on another one (409 instead).
   * With `cards` (card notations) the action takes exactly those cards from the hand
   * (docs/server.md, "Exact cards"). Resolves with the state that answers it; rejects with
   * the server's error, or with ConnectionLostError if the socket was lost after sending it
   * (it may or may not have been played) or closed for good. Sent while the socket connects
   * or reconnects, it is queued and goes out once the connection's first state has arrived,
   * answered once by its id. */
  act(action: ActionRef, after: number | null = this.state?.event_count ?? null,
      cards?: readonly string[]): Promise<TableState<G>> {
    const id = `a${this.nextId++}`;
    return this.send(id, after ?? this.eventCount,
                     { type: "action", ...actionBody(action, after ?? undefined, cards), id });
  }

  /** Queue a request with its id; sent now if the connection is open. */
  private send(id: string, from: number, body: object): Promise<TableState<G>> {
    if (this.closed) return Promise.reject(new ConnectionLostError(undefined));
    return new Promise((resolve, reject) => {
      this.pending.push({ id, from, resolve, reject, message: JSON.stringify(body), sent: false });
      this.flush();
    });
  }

  /** Send what is queued, in order, when the connection is open. */
  private flush(): void {
    const socket = this.socket;
    if (this.status !== "open" || socket === undefined || socket.readyState !== 1) return;
    for (const pending of this.pending) {
      if (pending.sent) continue;
      pending.sent = true;
      socket.send(pending.message);
    }
  }

  /** Take the seat's last move back (and the bots' moves after it). Resolves with the state
   * that answers it (the rewound one, or a push right after it); rejects like `act`. */
  takeBack(after: number | null = this.state?.event_count ?? null): Promise<TableState<G>> {
    const id = `t${this.nextId++}`;
    // Answered by its id only: a take-back carries no move of the seat to match.
    return this.send(id, Infinity, after === null ? { type: "takeback", id }
                                                  : { type: "takeback", after, id });
  }

  /** Send a ping (the server answers with a pong, which is not passed on). */
  ping(): void { if (this.socket?.readyState === 1) this.socket.send('{"type":"ping"}'); }

  /** Drop the connection as if the network had (for tests of reconnection): the socket
   * reconnects from the last event received. */
  drop(): void { this.socket?.close(4002, "dropped by the client"); }

  /** Close for good. */
  close(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    const socket = this.socket;
    for (const pending of this.pending.splice(0)) pending.reject(new ConnectionLostError(1000));
    this.finish(1000, "closed by the client");
    if (socket !== undefined && socket.readyState <= 1) socket.close(1000);
  }
}
