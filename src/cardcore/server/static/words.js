// The event log in words: one sentence per event (api.md events; docs/server.md).
import { el, cardsText, notationText } from "./cards.js";

export function seatName(seat, ctx) {
  if (seat === null || seat === undefined) return "";
  if (seat === ctx.me) return "You";
  const bot = ctx.seats && ctx.seats[seat] && ctx.seats[seat].bot;
  return bot ? `Seat ${seat} (${bot})` : `Seat ${seat}`;
}

export function cardsOrCount(event, none = "") {
  if (event.cards && event.cards.length) return cardsText(event.cards);
  if (event.hidden) return [`${event.hidden} card${event.hidden === 1 ? "" : "s"}`];
  return none ? [none] : [];
}

// Sentences for the kinds every card game has; a game's own words (its package's words.js,
// EVENT_WORDS) take precedence. The kind that ends a round is the game's (ctx.roundEnd).
const SENTENCES = {
  deal: (e, c) => {
    const number = e[c.roundName];
    const parts = [number !== undefined && number !== null ? `${capitalized(c.roundName)} ${number} begins` : "A new deal begins"];
    if (e.dealer !== undefined && e.dealer !== null) parts.push(`${seatName(e.dealer, c)} ${e.dealer === c.me ? "deal" : "deals"}`);
    if (e.first_player !== undefined && e.first_player !== null) parts.push(`${seatName(e.first_player, c)} ${e.first_player === c.me ? "play" : "plays"} first`);
    return [parts.join("; ") + "."];
  },
  dealt: (e, c) => e.cards && e.cards.length
    ? [`${seatName(e.player, c)} ${e.player === c.me ? "were" : "was"} dealt `, ...cardsText(e.cards), "."]
    : [`${seatName(e.player, c)} ${e.player === c.me ? "were" : "was"} dealt ${e.hidden || 0} cards.`],
  draw_stock: (e, c) => [`${seatName(e.player, c)} drew `, ...cardsOrCount(e, "a card"), " from the stock."],
  discard: (e, c) => [`${seatName(e.player, c)} discarded `, ...cardsOrCount(e), "."],
  go_out: (e, c) => [`${seatName(e.player, c)} went out`, ...(e.cards && e.cards.length ? [" with ", ...cardsText(e.cards)] : []), "."],
  end_turn: (e, c) => [`${seatName(e.player, c)} ended the turn.`],
  match_end: (e, c) => {
    const winners = (e.winners || []).map((s) => seatName(s, c));
    return [`The match is over. ${winners.length === 1 ? "Winner" : "Winners"}: ${winners.join(", ") || "none"}. Final scores ${(e.scores || []).join(" / ")}.`];
  },
};

export function capitalized(word) { return word ? word[0].toUpperCase() + word.slice(1) : ""; }

// One log line per event. ctx: the seat (me), the seats, the game's words (ctx.words) and what
// it calls a round (ctx.roundName, ctx.roundEnd), from GET /api/games.
export function describe(event, ctx) {
  const own = (ctx.words && ctx.words.EVENT_WORDS) || {};
  const sentence = own[event.kind] || SENTENCES[event.kind];
  let words;
  if (sentence) words = sentence(event, ctx);
  else {
    const who = event.player !== null && event.player !== undefined ? seatName(event.player, ctx) + ": " : "";
    words = [who, ...(event.action ? notationText(event.action) : [event.kind.replace(/_/g, " ")]), " ", ...cardsOrCount(event), "."];
  }
  const end = event.kind === ctx.roundEnd ? " ev-round-end" : "";
  const item = el("li", { class: `ev ev-${event.kind}${end}${ctx.me !== null && event.player === ctx.me ? " mine" : ""}`, dataset: { n: String(event.n) } }, ...words);
  // Rule IDs only where they explain a result: the ends of rounds and of the match.
  if (event.rule && (event.breakdown || event.kind === "match_end")) item.append(" ", el("span", { class: "rule" }, event.rule));
  return item;
}

// The scoring breakdown of the end of a round (the game's roundEnd kind), as a table.
export function breakdownTable(event, ctx) {
  const b = event.breakdown;
  const by = b.by === "team" ? "team" : "seat";
  const title = `${capitalized(ctx.roundName)} ${event[ctx.roundName]}`;
  const table = el("table", { class: "breakdown" },
    el("caption", {}, `${title}: scoring${event.direction ? ` (${event.direction})` : ""}`),
    el("thead", {}, el("tr", {}, el("th", {}, by), el("th", {}, "what"), el("th", {}, "count"), el("th", {}, "points"), el("th", {}, "rule"))));
  const body = el("tbody");
  for (const part of b.components) {
    const who = by === "team" ? `team ${part.team}` : seatName(part.seat, ctx);
    body.append(el("tr", {}, el("td", {}, who), el("td", {}, part.what), el("td", { class: "num" }, part.count ?? ""),
      el("td", { class: "num" }, String(part.points)), el("td", { class: "rule" }, part.rule || "")));
  }
  if (!b.components.length) body.append(el("tr", {}, el("td", { colspan: "5" }, "No points scored.")));
  table.append(body);
  const foot = el("tfoot");
  (b.totals || []).forEach((total, i) => {
    foot.append(el("tr", {}, el("th", {}, by === "team" ? `team ${i}` : seatName(i, ctx)), el("td", {}, "total"), el("td"), el("td", { class: "num" }, String(total)), el("td")));
  });
  table.append(foot);
  return table;
}

// The ranking at the match end: winners first, then by score in the game's direction (the
// score_direction of the latest event that carries one: the round and match ends).
export function rankingList(state, events, ctx) {
  const last = [...events].reverse().find((e) => e.score_direction);
  const direction = (last && last.score_direction) || "higher is better";
  const sign = direction.startsWith("lower") ? 1 : -1;
  const seats = state.scores.map((score, seat) => ({ seat, score }));
  seats.sort((a, b) => Number(state.winners.includes(b.seat)) - Number(state.winners.includes(a.seat)) || sign * (a.score - b.score) || a.seat - b.seat);
  const list = el("ol", { class: "ranking" }, ...seats.map(({ seat, score }) => el("li", { class: state.winners.includes(seat) ? "winner" : "" },
    `${seatName(seat, ctx)}: ${score} points`, state.winners.includes(seat) ? " — winner" : "")));
  return el("div", {}, list, el("p", { class: "hint" }, `Scores: ${direction}.`));
}

// The running score table: one row per finished round, each owner's total after it.
export function scoreTable(ends, ctx) {
  const byTeam = ends[0].breakdown.by === "team";
  const owners = ends[0].breakdown.totals.length;
  const sums = new Array(owners).fill(0);
  const head = el("tr", {}, el("th", {}, capitalized(ctx.roundName)),
    ...Array.from({ length: owners }, (_, k) => el("th", { class: "num" }, byTeam ? `team ${k}` : seatName(k, ctx))));
  const rows = ends.map((e) => {
    e.breakdown.totals.forEach((t, k) => { sums[k] += t; });
    const after = !byTeam && Array.isArray(e.scores) && e.scores.length === owners ? e.scores : sums;
    return el("tr", {}, el("th", {}, String(e[ctx.roundName] ?? "")), ...after.map((v) => el("td", { class: "num" }, String(v))));
  });
  return el("table", { class: "breakdown score-table" }, el("caption", {}, "Totals after each round"),
    el("thead", {}, head), el("tbody", {}, ...rows));
}
