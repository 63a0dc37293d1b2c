// A table of any game, from what the server says and nothing else: the zones and their
// descriptors, each event's moves (animated from zone to zone) and text, the legal actions
// with their moves and texts, the scoring rows of a round's end and the match's result.
import type { CardcoreClient, GameInfo, SocketStatus } from "@cardcore/client";
import { cardImage, cardText, el, setWildCards } from "./dom.js";
import { catalogs } from "./lobby.js";
import { lang, w, type Word } from "./words.js";
import {
  applyMoves, cardsFrom, choosable, contains, differences, exactCards, rank, size,
  type Contents, type Move, type Slots, type ZoneInfo, type Zones,
} from "./zones.js";

/** What this page reads of a state: the shape every game shares (docs/server.md). */
interface Action { id: number; label: string; text?: string; moves?: Move[]; player?: number | null }
interface Row {
  text?: string; what?: string; count?: number | null; points: number; rule?: string | null;
  seat?: number | null; team?: number | null;
}
interface GameEvent {
  n: number; kind: string; player?: number | null; text?: string; action?: string;
  moves?: Move[]; reason?: string; rule?: string | null; new_zones?: ZoneInfo[];
  breakdown?: { by?: string; rows?: Row[]; components?: Row[]; totals?: number[] };
}
interface State {
  table: string; game: string; seat: number | null; over: boolean; event_count: number;
  current_player: number | null; players: number; scores: number[]; winners: number[];
  seats: { seat: number; bot: string | null; name: string | null }[];
  view: { zones?: Zones; slots?: Slots; hand?: string[]; [key: string]: unknown };
  legal: Action[]; events: GameEvent[];
  zones?: ZoneInfo[]; wild_cards?: string[];
}
type Status = SocketStatus;

const ANIMATION_MS = 350;

export async function showTable(client: CardcoreClient, root: HTMLElement, tableId: string,
                                token: string | undefined): Promise<void> {
  const [{ games }, tr] = await Promise.all([client.games(), catalogs()]);
  let info: GameInfo | undefined;
  let state: State | undefined;
  let model: Zones | undefined;          // the zones as the moves so far make them
  const described = new Map<string, ZoneInfo>();
  const fresh: GameEvent[] = [];         // events not yet shown (log, animation, panels)
  const log: GameEvent[] = [];
  let picked: string[] = [];             // hand cards the player clicked
  let pending = false;
  let mismatches = 0, animated = 0;
  let exactSent: string[] | null = null;  // the exact cards of the last action sent with them

  const status = el("span", { id: "status", class: "status" }, w("status", { status: w("connecting") }));
  const title = el("span", { id: "title" });
  const seatsBox = el("section", { id: "seats" });
  const center = el("section", { id: "center" });
  const teams = el("section", { id: "teams" });
  const mine = el("section", { id: "mine" });
  const turn = el("p", { id: "turn", "aria-live": "polite" });
  const handBox = el("div", { id: "hand", class: "cards" });
  const pickLine = el("p", { id: "picked", class: "hint" });
  const movesBox = el("div", { id: "moves" });
  const logBox = el("ol", { id: "log" });
  const toast = el("p", { id: "toast", role: "alert", hidden: true });
  const dock = el("div", { id: "dock" }, handBox, pickLine, el("h2", {}, w("moves")), movesBox);
  const panel = el("dialog", { id: "panel" });
  const flying = el("div", { id: "flying", "aria-hidden": "true" });
  root.replaceChildren(
    el("header", {}, el("a", { href: `?lang=${lang}${serverQuery()}` }, "cardcore"), " ", title, " ", status),
    el("main", {}, seatsBox, teams, center, mine, turn),
    el("aside", {}, el("h2", {}, w("log")), logBox),
    dock,
    toast, panel, flying);

  const setStatus = (value: Status): void => {
    status.textContent = w("status", { status: w(value as Word) });
    status.dataset.status = value;
    document.body.dataset.status = value;
  };

  const socket = client.connect(tableId, {
    ...(token ? { token } : {}),
    lang,
    onEvent: (event) => { fresh.push(event as unknown as GameEvent); },
    onState: (s) => receive(s as unknown as State),
    onStatus: setStatus,
    onError: (error) => { pending = false; say(w("refused", { error: String(error.body.error ?? error.message) })); render(); },
  });
  setStatus(socket.status);

  function say(text: string): void {
    toast.textContent = text;
    toast.hidden = false;
    setTimeout(() => { toast.hidden = true; }, 5000);
  }

  // ------------------------------------------------------------------ zones
  function descriptors(s: State): ZoneInfo[] {
    return s.zones ?? [];
  }
  function describe(id: string): ZoneInfo {
    return described.get(id) ?? { id, kind: id.split(":")[0] ?? id, owner: null, team: null, label: id };
  }
  /** The zones of the state: the view's, else (a server without zones) the hand alone. */
  function zonesOf(s: State): Zones {
    if (s.view.zones) return s.view.zones;
    return s.seat === null ? {} : { [myHandId(s)]: s.view.hand ?? [] };
  }
  function myHandId(s: State): string {
    for (const z of described.values()) if (z.owner === s.seat && z.kind === "hand") return z.id;
    return `hand:${s.seat}`;
  }

  function zoneBox(id: string, contents: Contents | undefined, extra = ""): HTMLElement {
    const zone = describe(id);
    const n = size(contents);
    const box = el("div", { class: `zone kind-${zone.kind}${extra}`, dataset: { zone: id, size: String(n) } },
      el("div", { class: "zone-label" }, zone.label, " ", el("small", {}, `(${n})`)));
    const cards = el("div", { class: "fan" });
    const slots = zone.layout === "pairs" ? state?.view.slots?.[id] : undefined;
    if (slots && Array.isArray(contents)) {
      // a zone arranged in pairs: each card with its cover across it; an open one marked
      cards.className = "pairs";
      for (const slot of slots) {
        cards.append(el("span", { class: `slot${slot.open ? " open" : ""}`, dataset: { card: slot.card, cover: slot.cover ?? "" } },
          cardImage(slot.card, "small"), slot.cover ? cardImage(slot.cover, "small") : el("small", {}, w("open_slot"))));
      }
    } else if (Array.isArray(contents)) {
      const shown = contents.length > 12 ? contents.slice(-12) : contents;
      if (shown.length < contents.length) cards.append(el("span", { class: "more" }, `+${contents.length - shown.length}`));
      for (const card of shown) cards.append(cardImage(card, "small"));
    } else if (n > 0) {
      cards.append(cardImage(null, "small"));
    }
    if (n === 0) cards.append(el("span", { class: "empty" }, w("empty")));
    box.append(cards);
    return box;
  }

  function seatName(seat: number | null | undefined): string {
    if (seat === null || seat === undefined || !state) return "";
    if (seat === state.seat) return w("you");
    const s = state.seats[seat];
    return s?.name ?? (s?.bot ? `${w("seat", { n: seat })} (${s.bot})` : w("seat", { n: seat }));
  }

  // ------------------------------------------------------------------ receiving
  function receive(s: State): void {
    const first = state === undefined;
    state = s;
    info ??= games.find((g) => g.game === s.game);
    for (const z of descriptors(s)) described.set(z.id, z);
    if (!s.view.zones && s.seat !== null && !described.has(myHandId(s))) {   // a server without zones
      described.set(myHandId(s), { id: myHandId(s), kind: "hand", owner: s.seat, team: null, label: "" });
    }
    const events = fresh.splice(0);
    for (const e of events) for (const z of e.new_zones ?? []) described.set(z.id, { ...z, label: tr(s.game, z.label) });
    // The zones as the moves make them must be the view's (the contract); say so if not.
    const zones = zonesOf(s);
    if (s.view.zones && model && !first && events.every((e) => Array.isArray(e.moves))) {
      model = applyMoves(model, events.flatMap((e) => e.moves ?? []));
      const off = differences(model, zones);
      if (off.length) {
        mismatches += 1;
        console.warn("moves and view disagree on", off.join(", "));
      }
    }
    model = zones;
    checkExact(s, events);
    pending = false;
    const before = rects();
    picked = picked.filter(() => false);
    render();
    animate(events, before);
    log.push(...events);
    logBox.append(...events.map(logLine));
    logBox.scrollTop = logBox.scrollHeight;
    document.body.dataset.mismatches = String(mismatches);
    if (!first) showEnds(events);
    else if (s.over) showEnds([]);
  }

  /** After an action sent with exact cards: the cards its moves took from the hand must be
   * those (document.body.dataset.exact says whether they were). */
  function checkExact(s: State, events: GameEvent[]): void {
    if (!exactSent || s.seat === null) return;
    const own = events.filter((e) => e.player === s.seat && e.moves);
    if (!own.length) return;
    const left = cardsFrom(own[0]!.moves, myHandId(s));
    const same = [...left].sort().join(" ") === [...exactSent].sort().join(" ");
    document.body.dataset.exact = same ? "kept" : `differs: sent ${exactSent.join(" ")}, moved ${left.join(" ")}`;
    exactSent = null;
  }

  /** The server's sentence; a server without texts: the seat and the move's notation. */
  function textOf(e: GameEvent): string {
    return e.text ?? [seatName(e.player), e.action ?? e.kind.replace(/_/g, " ")].filter(Boolean).join(": ");
  }

  function logLine(e: GameEvent): HTMLElement {
    const text = textOf(e);
    return el("li", { dataset: { n: String(e.n) }, class: e.player === state?.seat && e.player !== null ? "mine" : "" },
      text, e.reason ? el("span", { class: "reason" }, ` (${e.reason})`) : "");
  }

  // ------------------------------------------------------------------ moving cards
  function rects(): Map<string, DOMRect> {
    const result = new Map<string, DOMRect>();
    for (const node of document.querySelectorAll<HTMLElement>("[data-zone]")) {
      result.set(node.dataset["zone"]!, node.getBoundingClientRect());
    }
    return result;
  }

  /** Each move of each event as cards flying from its zone's place before the state to its
   * zone's place after (faces where the reader may see them, backs where not). */
  function animate(events: GameEvent[], before: Map<string, DOMRect>): void {
    const after = rects();
    let delay = 0;
    for (const move of events.flatMap((e) => e.moves ?? [])) {
      const from = before.get(move.from) ?? after.get(move.from);
      const to = after.get(move.to) ?? before.get(move.to);
      animated += 1;
      if (!from || !to) continue;
      const faces = "cards" in move ? move.cards.slice(0, 6) : Array.from({ length: Math.min(move.count, 6) }, () => null);
      faces.forEach((card, i) => {
        const img = cardImage(card, "small");
        img.classList.add("flying");
        img.style.left = `${from.left + 8 + i * 6}px`;
        img.style.top = `${from.top + 18}px`;
        flying.append(img);
        const dx = to.left - from.left, dy = to.top - from.top;
        img.animate([{ transform: "translate(0, 0)" }, { transform: `translate(${dx}px, ${dy}px)` }],
                    { duration: ANIMATION_MS, delay, easing: "ease", fill: "forwards" })
          .finished.then(() => img.remove(), () => img.remove());
      });
      delay = Math.min(delay + 60, 600);
    }
    document.body.dataset.animated = String(animated);
  }

  // ------------------------------------------------------------------ drawing
  function render(): void {
    const s = state;
    if (!s) return;
    const me = s.seat;
    setWildCards(s.wild_cards);
    // Without a seat (no token in the link) the page only watches: no hand, no moves.
    title.textContent = `${info ? tr(info.game, info.title) : ""} · ${me === null ? w("watching") : w("seat", { n: me })}`;
    document.body.dataset.watching = String(me === null);
    dock.hidden = me === null;
    const zones = zonesOf(s);
    const ids = [...new Set([...described.keys(), ...Object.keys(zones)])];
    const hand = me === null ? undefined : myHandId(s);
    const owned = (seat: number) => ids.filter((id) => describe(id).owner === seat && id !== hand);
    seatsBox.replaceChildren(...s.seats.filter((x) => x.seat !== me).map(({ seat }) =>
      el("div", { class: `seat${s.current_player === seat && !s.over ? " to-move" : ""}`, dataset: { seat: String(seat) } },
        el("div", { class: "seat-name" }, seatName(seat), " · ", w("score", { n: s.scores[seat] ?? 0 })),
        ...owned(seat).map((id) => zoneBox(id, zones[id])))));
    const teamIds = [...new Set(ids.map((id) => describe(id)).filter((z) => z.owner === null && z.team !== null)
      .map((z) => z.team as number))].sort();
    teams.replaceChildren(...teamIds.map((team) => el("div", { class: "team", dataset: { team: String(team) } },
      el("h3", {}, w("team", { n: team })),
      el("div", { class: "team-zones" }, ...ids.filter((id) => describe(id).owner === null && describe(id).team === team
        && size(zones[id]) > 0).map((id) => zoneBox(id, zones[id]))))));
    center.replaceChildren(...ids.filter((id) => describe(id).owner === null && describe(id).team === null)
      .map((id) => zoneBox(id, zones[id], " shared")));
    mine.replaceChildren(...(me === null ? [] : [el("div", { class: `seat me${s.current_player === me ? " to-move" : ""}` },
      el("div", { class: "seat-name" }, w("you"), " · ", w("score", { n: s.scores[me] ?? 0 })),
      ...owned(me).map((id) => zoneBox(id, zones[id])))]));
    turn.textContent = s.over ? w("match_over")
      : s.current_player === me && me !== null ? w("your_turn") : w("waiting", { who: seatName(s.current_player) });
    document.body.dataset.eventCount = String(s.event_count);
    document.body.dataset.over = String(s.over);
    document.body.dataset.myTurn = String(me !== null && s.current_player === me && s.legal.length > 0);
    document.body.dataset.pending = String(pending);
    renderHand();
    renderMoves();
  }

  function handCards(): string[] {
    if (!state || state.seat === null) return [];
    const contents = zonesOf(state)[myHandId(state)];
    return Array.isArray(contents) ? contents : [];
  }

  /** Hand cards a legal action could use: named by it, or of a rank it lets the player
   * choose. */
  function usable(): { named: Set<string>; ranks: Set<string> } {
    const named = new Set<string>(), ranks = new Set<string>();
    if (!state || state.seat === null) return { named, ranks };
    const hand = myHandId(state);
    const free = choosable(state.legal, hand, handCards());
    for (const a of state.legal) {
      for (const card of cardsFrom(a.moves, hand)) {
        named.add(card);
        if (free.has(a.id)) ranks.add(rank(card));
      }
    }
    return { named, ranks };
  }

  function renderHand(): void {
    const cards = handCards();
    const { named, ranks } = usable();
    const left = [...picked];
    handBox.replaceChildren(...cards.map((card, i) => {
      const at = left.indexOf(card);
      const on = at >= 0;
      if (on) left.splice(at, 1);
      const can = !pending && (named.has(card) || ranks.has(rank(card)));
      return el("button", {
        type: "button", class: `hand-card${on ? " picked" : ""}`, disabled: !can,
        dataset: { card, index: String(i) }, "aria-pressed": String(on),
        onclick: () => { picked = on ? dropOne(picked, card) : [...picked, card]; renderHand(); renderMoves(); },
      }, cardImage(card));
    }));
    const zone = state && state.seat !== null ? myHandId(state) : "";
    handBox.dataset["zone"] = zone;
    pickLine.replaceChildren(...(picked.length
      ? [w("picked", { cards: "" }), ...picked.flatMap((c) => [" ", cardText(c)]), " ",
         el("button", { type: "button", id: "clear", onclick: () => { picked = []; renderHand(); renderMoves(); } }, w("clear"))]
      : [cards.length ? w("pick") : ""]));
  }

  function dropOne(cards: string[], card: string): string[] {
    const result = [...cards];
    result.splice(result.indexOf(card), 1);
    return result;
  }

  /** The legal actions as buttons, those that fit the picked cards: an action naming its
   * cards fits when it names them all; one that lets the player choose, when each picked card
   * stands in for one of its ranks. */
  function renderMoves(): void {
    if (!state || state.seat === null) { movesBox.replaceChildren(); return; }
    const hand = myHandId(state);
    const free = choosable(state.legal, hand, handCards());
    const shown = state.legal.map((a) => {
      const own = cardsFrom(a.moves, hand);
      const exact = free.has(a.id) ? exactCards(own, picked, handCards()) : null;
      const fits = picked.length === 0 || contains(own, picked) || exact !== null;
      return { a, own, exact, fits };
    }).filter((x) => x.fits);
    movesBox.replaceChildren(...shown.map(({ a, own, exact }) => {
      const cards = exact && picked.length && !contains(own, picked) ? exact : null;
      return el("button", {
        type: "button", class: "move", disabled: pending,
        dataset: { id: String(a.id), cards: own.join(" "), choose: String(free.has(a.id)), ...(cards ? { exact: cards.join(" ") } : {}) },
        onclick: () => send(a, cards ?? (exact && picked.length ? exact : null)),
      }, a.text ?? a.label, ...(own.length ? [" ", ...own.flatMap((c, i) => [i ? " " : "", cardText((cards ?? exact ?? own)[i] ?? c)])] : []));
    }));
  }

  function send(action: Action, cards: string[] | null): void {
    if (pending || !state) return;
    pending = true;
    document.body.dataset.pending = "true";
    renderMoves();
    const sent = cards ? { action: action.id, cards } : { action: action.id };
    document.body.dataset.sent = JSON.stringify(sent);
    exactSent = cards;
    socket.act(action.id, state.event_count, cards ?? undefined).catch((e: Error) => {
      pending = false;
      say(w("refused", { error: e.message }));
      render();
    });
  }

  // ------------------------------------------------------------------ ends
  function showEnds(events: GameEvent[]): void {
    if (!state) return;
    const ends = events.filter((e) => e.breakdown && (!info || e.kind === info.round_end_event));
    const round = ends[ends.length - 1];
    if (!round && !state.over) return;
    const parts: Node[] = [];
    if (round) parts.push(...roundEnd(round));
    if (state.over) {
      const last = [...log].reverse().find((e) => e.reason !== undefined || e.text !== undefined);
      parts.push(el("h2", {}, w("match_over")));
      if (last && last !== round) parts.push(el("p", { class: "story" }, textOf(last)), el("p", { class: "reason" }, last.reason ?? ""));
      parts.push(el("p", { class: "winners" }, w("winners", { who: state.winners.map(seatName).join(", ") })),
        el("table", { class: "scores" }, el("caption", {}, w("scores")),
          el("tbody", {}, ...state.scores.map((score, i) => el("tr", { class: state!.winners.includes(i) ? "winner" : "" },
            el("th", {}, seatName(i)), el("td", { class: "num" }, String(score)))))));
    }
    const close = el("button", { type: "button", id: "continue", class: "primary",
                                 onclick: () => { panel.close(); document.body.dataset.panel = ""; } }, w("continue"));
    panel.replaceChildren(...parts, el("div", { class: "buttons" }, close,
      state.over ? el("a", { href: `?lang=${lang}${serverQuery()}`, class: "button" }, w("lobby")) : ""));
    if (!panel.open) panel.showModal();
    document.body.dataset.panel = state.over ? "match" : "round";
    close.focus();
  }

  function roundEnd(e: GameEvent): Node[] {
    const b = e.breakdown!;
    const rows = b.rows ?? b.components ?? [];
    const owner = (r: Row) => (r.team !== undefined && r.team !== null ? w("team", { n: r.team }) : seatName(r.seat));
    return [
      el("h2", {}, w("round_over")),
      el("p", { class: "story" }, textOf(e)),
      el("p", { class: "reason" }, e.reason ? `${w("reason")}: ${e.reason}` : ""),
      el("table", { class: "breakdown" },
        el("thead", {}, el("tr", {}, el("th", {}, ""), el("th", {}, w("what")), el("th", {}, w("count")),
                                     el("th", {}, w("points")), el("th", {}, w("rule")))),
        el("tbody", {}, ...rows.map((r) => el("tr", {},
          el("td", {}, owner(r)), el("td", {}, r.text ?? r.what ?? ""), el("td", { class: "num" }, r.count ?? ""),
          el("td", { class: "num" }, String(r.points)), el("td", { class: "rule" }, r.rule ?? "")))),
        el("tfoot", {}, ...(b.totals ?? []).map((total, i) => el("tr", {},
          el("th", {}, b.by === "team" ? w("team", { n: i }) : seatName(i)), el("td", {}, w("total")), el("td", {}),
          el("td", { class: "num" }, String(total)), el("td", {}))))),
    ];
  }
}

function serverQuery(): string {
  const server = new URLSearchParams(location.search).get("server");
  return server ? `&server=${encodeURIComponent(server)}` : "";
}
