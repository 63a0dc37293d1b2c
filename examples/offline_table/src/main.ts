// The offline table: a whole match of any game the engine registers, seat 0 the reader and
// the other seats the in-page bots, drawn from the engine's view of seat 0 (zones, their
// cards or counts), the moves as buttons from the legal actions' labels, no server. Nothing
// here knows a game: the words and where each zone kind belongs come from texts.json.
import { loadEngine, type Engine, type Game, type ZoneView } from "@cardcore/engine";
import { botKind, botMove, type BotKind } from "./bots.js";
import { actionNodes, cardFace, el, firstWord } from "./cards.js";
import { pageLang, Words, type Texts } from "./words.js";

const params = new URLSearchParams(location.search);
const lang = pageLang(params);
const DELAY = (() => {
  const asked = Number(params.get("delay") ?? "700");
  return Number.isFinite(asked) && asked >= 0 ? asked : 700;
})();
const FAN_LIMIT = 24;                  // a long pile shows its top cards only

interface Zone { id: string; kind: string; index: number | null; scope: string; view: ZoneView }

class Table {
  readonly seed: number;
  readonly bots: BotKind;
  #busy = false;
  #log: HTMLOListElement;

  constructor(readonly engine: Engine, readonly game: Game, readonly name: string,
              readonly words: Words, seed: number) {
    this.seed = seed;
    this.bots = botKind(params.get("bots"));
    this.#log = el("ol", { id: "log" });
  }

  scopeOf(kind: string): string { return this.words.data(this.name)?.scopes[kind] ?? "shared"; }

  zones(): Zone[] {
    return Object.entries(this.game.view(0)).map(([id, view]) => {
      const [kind = id, number] = id.split(":");
      const index = number === undefined ? null : Number(number);
      return { id, kind, index, scope: index === null ? "shared" : this.scopeOf(kind), view };
    });
  }

  zoneLabel(zone: Zone): string {
    const label = this.words.zone(this.name, zone.kind);
    if (zone.scope === "pile" && zone.index !== null) return `${label} ${zone.index + 1}`;
    if (zone.scope === "team" && zone.index !== null) {
      return `${label} (${this.words.page("team", { n: zone.index + 1 })})`;
    }
    return label;
  }

  drawZone(zone: Zone, mine: boolean): HTMLElement {
    const w = this.words;
    const count = Array.isArray(zone.view) ? zone.view.length : zone.view.count;
    const box = el("div", { class: `zone zone-${zone.scope}${mine ? " mine" : ""}` },
                   el("div", { class: "zone-label" }, `${this.zoneLabel(zone)}: ${count}`));
    box.dataset.zone = zone.id;
    const fan = el("div", { class: "fan" });
    if (count === 0) {
      fan.append(el("span", { class: "empty" }, w.page("empty")));
    } else if (!Array.isArray(zone.view)) {
      fan.append(el("span", { class: "card back", title: w.plural("cards", count, { count }) },
                    String(count)));
    } else {
      const cards = mine ? zone.view : zone.view.slice(-FAN_LIMIT);  // a pile's top is its end
      if (cards.length < zone.view.length) {
        fan.append(el("span", { class: "more" }, `+${zone.view.length - cards.length}`));
      }
      fan.classList.toggle("overlap", !mine && cards.length > 5);
      for (const card of cards) fan.append(cardFace(card, w));
    }
    box.append(fan);
    return box;
  }

  seatName(seat: number): string { return this.words.seat(seat); }

  /** An action's kind: by its id from texts.json, else its label's first word. */
  kindOf(id: number, label: string): string {
    return this.words.kindOf(this.name, this.game.numPlayers, id) ?? firstWord(label);
  }

  /** The whole table again from the engine: cheap, and never out of step with it. */
  render(): void {
    const w = this.words, game = this.game, n = game.numPlayers;
    const turn = game.currentPlayer;
    const zones = this.zones();
    const ofSeat = (seat: number) => zones.filter((z) => z.scope === "seat" && z.index === seat);
    const middle = zones.filter((z) => z.scope !== "seat");

    const others = document.getElementById("others")!;
    others.replaceChildren();
    for (let seat = 1; seat < n; seat++) {
      const box = el("section", { class: `seat${seat === turn ? " to-move" : ""}` },
                     el("div", { class: "seat-name" }, this.seatName(seat),
                        el("span", { class: "bot" }, w.page("bot", { name: w.page(this.bots) }))));
      box.dataset.seat = String(seat);
      for (const zone of ofSeat(seat)) box.append(this.drawZone(zone, false));
      others.append(box);
    }
    const center = document.getElementById("center")!;
    center.replaceChildren(...middle.map((z) => this.drawZone(z, false)));
    center.hidden = middle.length === 0;

    const mine = document.getElementById("my-zones")!;
    mine.replaceChildren(...ofSeat(0).map((z) => this.drawZone(z, true)));
    document.getElementById("me")!.classList.toggle("to-move", turn === 0);

    const status = document.getElementById("status")!;
    status.textContent = game.isOver ? w.page("over")
      : turn === 0 ? w.page("your_turn") : w.page("turn_of", { name: this.seatName(turn) });

    const moves = document.getElementById("moves")!;
    moves.replaceChildren();
    if (!game.isOver && turn === 0) {
      const buttons = game.legalActions().map((id) => {
        const label = game.actionLabel(id);
        const button = el("button", { class: "move", type: "button", title: label },
                          ...actionNodes(label, this.kindOf(id, label), this.name, w));
        button.dataset.actionId = String(id);
        button.dataset.label = label;
        button.addEventListener("click", () => this.play(id));
        return button;
      });
      // Moves that read the same (their labels differ in words the kind's word replaced)
      // are numbered; the notation is in each one's tooltip.
      const same = new Map<string, HTMLButtonElement[]>();
      for (const b of buttons) same.set(b.textContent ?? "", [...(same.get(b.textContent ?? "") ?? []), b]);
      for (const group of same.values()) {
        if (group.length > 1) group.forEach((b, i) => b.append(el("span", { class: "variant" }, ` #${i + 1}`)));
      }
      moves.append(...buttons);
    }
    document.getElementById("moves-box")!.hidden = game.isOver || turn !== 0;

    if (game.isOver) this.results();
    this.scrollLog();
    document.body.dataset.turn = String(turn);
    document.body.dataset.applied = String(game.actionsApplied);
  }

  note(seat: number, id: number): void {
    const label = this.game.actionLabel(id);
    const item = el("li", { class: seat === 0 ? "mine" : "" },
                    el("span", { class: "who" }, `${this.seatName(seat)}:`), " ",
                    ...actionNodes(label, this.kindOf(id, label), this.name, this.words, true));
    item.dataset.label = label;
    this.#log.append(item);
  }

  /** The log's latest line in sight: its own scroll, never the page's. */
  scrollLog(): void {
    const box = this.#log.parentElement;
    if (box) box.scrollTop = box.scrollHeight;
  }

  /** Seat 0's move (a button). A move that is not legal now changes nothing: the notice
   * says why, in the page's language. */
  play(id: number): void {
    if (this.#busy || this.game.isOver || this.game.currentPlayer !== 0) return;
    const notice = document.getElementById("notice")!;
    const refusal = this.game.refusal(id);
    if (refusal !== null) {
      notice.textContent = this.words.refusal(this.name, refusal);
      notice.dataset.rule = refusal.rule;
      return;
    }
    notice.textContent = "";
    delete notice.dataset.rule;
    this.#busy = true;
    for (const b of document.querySelectorAll<HTMLButtonElement>("button.move")) b.disabled = true;
    this.note(0, id);
    this.game.apply(id);
    this.#busy = false;
    this.render();
    this.next();
  }

  /** One bot's move: the seat to move is a bot's. */
  botStep(): void {
    const seat = this.game.currentPlayer;
    const id = botMove(this.game, this.bots, this.seed, this.game.actionsApplied);
    this.note(seat, id);
    this.game.apply(id);
  }

  /** The bots' moves until it is seat 0's turn or the end: one at a time after the delay,
   * or with no delay all at once (drawn once). */
  next(): void {
    if (this.game.isOver || this.game.currentPlayer === 0) return;
    setTimeout(() => {
      if (DELAY === 0) {
        while (!this.game.isOver && this.game.currentPlayer !== 0) this.botStep();
      } else if (!this.game.isOver && this.game.currentPlayer !== 0) {
        this.botStep();
      }
      this.render();
      this.next();
    }, DELAY);
  }

  results(): void {
    const w = this.words, game = this.game;
    const returns = game.returns().map((r) => (r === 0 ? 0 : r));       // no "-0"
    const scores = game.scores();
    const best = Math.max(...returns);
    const order = returns.map((r, seat) => ({ r, seat })).sort((a, b) => b.r - a.r || a.seat - b.seat);
    const winners = order.filter((x) => x.r === best).map((x) => this.seatName(x.seat));
    const box = document.getElementById("results")!;
    const rows = order.map(({ r, seat }) => {
      const place = 1 + returns.filter((other) => other > r).length;
      const row = el("tr", { class: r === best ? "winner" : "" },
                     el("td", { class: "num" }, String(place)),
                     el("td", {}, this.seatName(seat)),
                     el("td", { class: "num" }, String(scores[seat] ?? "")),
                     el("td", { class: "num" }, String(Math.round(r * 1000) / 1000)));
      row.dataset.seat = String(seat);
      row.dataset.return = String(r);
      return row;
    });
    box.replaceChildren(
      el("h2", {}, w.page("over")),
      el("p", { class: "winners" }, w.plural("winners", winners.length, { names: winners.join(", ") })),
      el("table", { class: "ranking" },
         el("caption", {}, w.page("ranking")),
         el("thead", {}, el("tr", {}, el("th", {}, "#"), el("th", {}, ""),
                            el("th", { class: "num" }, w.page("score")),
                            el("th", { class: "num" }, "±"))),
         el("tbody", {}, ...rows)),
      el("p", {}, el("a", { href: newGameHref(), class: "again" }, w.page("new_game"))));
    box.hidden = false;
    if (!this.#log.querySelector("li.end")) {
      this.#log.append(el("li", { class: "end" }, w.page("over")));
    }
    document.body.dataset.over = "1";
  }

  mount(): void {
    document.getElementById("log-box")!.append(this.#log);
    this.render();
    this.next();
  }
}

function newGameHref(changes: Record<string, string | null> = {}): string {
  const next = new URLSearchParams(params);
  next.delete("seed");
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) next.delete(key);
    else next.set(key, value);
  }
  return `?${next.toString()}`;
}

function header(engine: Engine, words: Words, name: string, game: Game, seed: number): void {
  const w = words;
  const title = w.title(name);
  document.title = `${title} — cardcore`;
  document.documentElement.lang = lang;
  document.getElementById("title")!.textContent = title;

  const pick = el("select", { id: "game", "aria-label": w.page("game") });
  for (const other of engine.games()) {
    const option = el("option", { value: other }, w.title(other));
    option.selected = other === name;
    pick.append(option);
  }
  pick.addEventListener("change", () => { location.search = newGameHref({ game: pick.value, players: null }); });

  const range = w.data(name)?.players;
  const seats = el("select", { id: "players", "aria-label": w.page("players") });
  const low = range?.min ?? game.numPlayers, high = range?.max ?? game.numPlayers;
  for (let n = low; n <= high; n++) {
    const option = el("option", { value: String(n) }, String(n));
    option.selected = n === game.numPlayers;
    seats.append(option);
  }
  seats.addEventListener("change", () => { location.search = newGameHref({ players: seats.value }); });

  const other = lang === "ru" ? "en" : "ru";
  const langLink = el("a", { id: "lang", href: `?${new URLSearchParams({ ...Object.fromEntries(params), lang: other, seed: String(seed) })}`, hreflang: other },
                      other === "ru" ? "Русский" : "English");
  document.getElementById("controls")!.replaceChildren(
    el("label", {}, `${w.page("game")} `, pick),
    el("label", {}, `${w.page("players")} `, seats),
    el("a", { href: newGameHref(), class: "again" }, w.page("new_game")),
    el("span", { class: "seed" }, `${w.page("seed")}: ${seed}`),
    langLink);
  document.getElementById("log-title")!.textContent = w.page("log");
  document.getElementById("moves-title")!.textContent = w.page("moves");
  document.getElementById("me-name")!.textContent = w.seat(0);
}

async function main(): Promise<void> {
  const [engine, texts] = await Promise.all([
    loadEngine(new URL("./engine/cardcore.wasm", import.meta.url)),
    fetch(new URL("../texts.json", import.meta.url)).then((r) => r.json() as Promise<Texts>),
  ]);
  const words = new Words(lang, texts);
  const games = engine.games();
  const asked = params.get("game");
  const name = asked !== null && games.includes(asked) ? asked : games[0]!;
  const seedParam = params.get("seed");
  const seed = seedParam !== null && /^\d{1,15}$/.test(seedParam) ? Number(seedParam)
    : Math.floor(Math.random() * 2 ** 31);
  const players = Number(params.get("players") ?? "0");
  let game: Game;
  try {
    game = engine.newGame(name, { players: Number.isInteger(players) && players > 0 ? players : 0, seed });
  } catch (error) {
    console.warn(error);
    document.getElementById("notice")!.textContent = String((error as Error).message);
    game = engine.newGame(name, { seed });
  }
  header(engine, words, name, game, seed);
  document.body.dataset.game = name;
  document.body.dataset.seed = String(seed);
  const table = new Table(engine, game, name, words, seed);
  (window as unknown as { table: Table }).table = table;
  table.mount();
}

main().catch((error: unknown) => {
  document.getElementById("notice")!.textContent = String(error);
  throw error;
});

