// The event log in words: one sentence per event (api.md events; docs/server.md), in the
// page's language (i18n.js).
import { el, cardsText, notationText } from "./cards.js";
import { N_, t, tx, tFilled } from "./i18n.js";

export function seatName(seat, ctx) {
  if (seat === null || seat === undefined) return "";
  if (seat === ctx.me) return t("You");
  const bot = ctx.seats && ctx.seats[seat] && ctx.seats[seat].bot;
  const name = ctx.seats && ctx.seats[seat] && ctx.seats[seat].name;
  if (name) return name;                       // a seat's display name (docs/server.md)
  return bot ? t("Seat {seat} ({bot})", { seat, bot: botName(bot) }) : t("Seat {seat}", { seat });
}

// A bot's name in words: "greedy", "level 3".
export function botName(bot) {
  if (bot.startsWith("level:")) return t("level {n}", { n: bot.slice(6) });
  return { greedy: t("greedy"), random: t("random"), ismcts: t("search") }[bot] || bot;
}

// "You ..." and "Seat 2 ..." take different verb forms: two msgids.
export function who(seat, c, mine, other, values = {}) {
  return seat === c.me && seat !== null && seat !== undefined ? tx(mine, values) : tx(other, { who: seatName(seat, c), ...values });
}

export function cardsOrCount(event, none = "") {
  if (event.cards && event.cards.length) return cardsText(event.cards);
  if (event.hidden) return [t("{n} card(s)", { n: event.hidden })];
  return none ? [none] : [];
}

// Sentences for the kinds every card game has; a game's own words (its package's words.js,
// EVENT_WORDS) take precedence. The kind that ends a round is the game's (ctx.roundEnd).
const SENTENCES = {
  deal: (e, c) => {
    const number = e[c.roundName];
    const parts = [number !== undefined && number !== null ? t("{round} {n} begins", { round: capitalized(t(c.roundName)), n: number }) : t("A new deal begins")];
    if (e.dealer !== undefined && e.dealer !== null) parts.push(e.dealer === c.me ? t("you deal") : t("{who} deals", { who: seatName(e.dealer, c) }));
    if (e.first_player !== undefined && e.first_player !== null) parts.push(e.first_player === c.me ? t("you play first") : t("{who} plays first", { who: seatName(e.first_player, c) }));
    return [parts.join("; ") + "."];
  },
  dealt: (e, c) => who(e.player, c, N_("You were dealt {cards}."), N_("{who} was dealt {cards}."),
    { cards: e.cards && e.cards.length ? cardsText(e.cards) : t("{n} card(s)", { n: e.hidden || 0 }) }),
  draw_stock: (e, c) => who(e.player, c, N_("You drew {cards} from the stock."), N_("{who} drew {cards} from the stock."), { cards: cardsOrCount(e, t("a card")) }),
  discard: (e, c) => who(e.player, c, N_("You discarded {cards}."), N_("{who} discarded {cards}."), { cards: cardsOrCount(e) }),
  go_out: (e, c) => e.cards && e.cards.length
    ? who(e.player, c, N_("You went out with {cards}."), N_("{who} went out with {cards}."), { cards: cardsText(e.cards) })
    : who(e.player, c, N_("You went out."), N_("{who} went out.")),
  end_turn: (e, c) => who(e.player, c, N_("You ended the turn."), N_("{who} ended the turn.")),
  match_end: (e, c) => {
    const winners = (e.winners || []).map((s) => seatName(s, c));
    const values = { winners: winners.join(", ") || t("none"), scores: (e.scores || []).join(" / ") };
    return [winners.length === 1 ? t("The match is over. Winner: {winners}. Final scores {scores}.", values)
      : t("The match is over. Winners: {winners}. Final scores {scores}.", values)];
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
    const whoPart = event.player !== null && event.player !== undefined ? seatName(event.player, ctx) + ": " : "";
    words = [whoPart, ...(event.action ? notationText(event.action) : [event.kind.replace(/_/g, " ")]), " ", ...cardsOrCount(event), "."];
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
  const title = `${capitalized(t(ctx.roundName))} ${event[ctx.roundName]}`;
  const direction = event.score_direction ? ` (${t(event.score_direction)})` : "";
  const table = el("table", { class: "breakdown" },
    el("caption", {}, t("{round}: scoring", { round: title }) + direction),
    el("thead", {}, el("tr", {}, el("th", {}, by === "team" ? t("team") : t("seat")), el("th", {}, t("what")), el("th", {}, t("count")), el("th", {}, t("points")), el("th", {}, t("rule")))));
  const body = el("tbody");
  for (const part of b.components) {
    const owner = by === "team" ? t("team {n}", { n: part.team }) : seatName(part.seat, ctx);
    body.append(el("tr", {}, el("td", {}, owner), el("td", {}, tFilled(part.what)), el("td", { class: "num" }, part.count ?? ""),
      el("td", { class: "num" }, String(part.points)), el("td", { class: "rule" }, part.rule || "")));
  }
  if (!b.components.length) body.append(el("tr", {}, el("td", { colspan: "5" }, t("No points scored."))));
  table.append(body);
  const foot = el("tfoot");
  (b.totals || []).forEach((total, i) => {
    foot.append(el("tr", {}, el("th", {}, by === "team" ? t("team {n}", { n: i }) : seatName(i, ctx)), el("td", {}, t("total")), el("td"), el("td", { class: "num" }, String(total)), el("td")));
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
    t("{who}: {points} points", { who: seatName(seat, ctx), points: score }), state.winners.includes(seat) ? ` — ${t("winner")}` : "")));
  return el("div", {}, list, el("p", { class: "hint" }, t("Scores: {direction}.", { direction: t(direction) })));
}

// The running score table: one row per finished round, each owner's total after it.
export function scoreTable(ends, ctx) {
  const byTeam = ends[0].breakdown.by === "team";
  const owners = ends[0].breakdown.totals.length;
  const sums = new Array(owners).fill(0);
  const head = el("tr", {}, el("th", {}, capitalized(t(ctx.roundName))),
    ...Array.from({ length: owners }, (_, k) => el("th", { class: "num" }, byTeam ? t("team {n}", { n: k }) : seatName(k, ctx))));
  const rows = ends.map((e) => {
    e.breakdown.totals.forEach((total, k) => { sums[k] += total; });
    const after = !byTeam && Array.isArray(e.scores) && e.scores.length === owners ? e.scores : sums;
    return el("tr", {}, el("th", {}, String(e[ctx.roundName] ?? "")), ...after.map((v) => el("td", { class: "num" }, String(v))));
  });
  return el("table", { class: "breakdown score-table" }, el("caption", {}, t("Totals after each round")),
    el("thead", {}, head), el("tbody", {}, ...rows));
}
