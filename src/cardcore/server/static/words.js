// The event log in words: one sentence per event, the server's (each event's `text`, in the
// socket's language: docs/server.md), and the scoring tables.
import { el, cardText, notationText } from "./cards.js";
import { t, tFilled, tn } from "./i18n.js";

export function seatName(seat, ctx) {
  if (seat === null || seat === undefined) return "";
  if (seat === ctx.me) return t("You");
  const bot = ctx.seats && ctx.seats[seat] && ctx.seats[seat].bot;
  const name = ctx.seats && ctx.seats[seat] && ctx.seats[seat].name;
  if (name) return name;                       // a seat's display name (docs/server.md)
  // counted from 1, as players count («Игрок 2»); the seat ids on the wire stay 0-based
  return bot ? t("Player {n} ({bot})", { n: seat + 1, bot: botName(bot) }) : t("Player {n}", { n: seat + 1 });
}

// A team as the reader names it, with its players (the breakdown's rows give each seat's
// team): «ваша команда (вы, Игрок 3)», «соперники (Игрок 2, Игрок 4)»; to a spectator
// «команда 1 (…)», counted from 1 (cardcore.narrate's terminal words alike).
export function teamName(breakdown, team, ctx) {
  const rows = breakdown.components || [];
  const members = [...new Set(rows.filter((c) => c.team === team && Number.isInteger(c.seat)).map((c) => c.seat))].sort((a, b) => a - b);
  const names = members.map((seat) => shortName(seat, ctx)).join(", ");
  const mine = rows.find((c) => c.seat === ctx.me && ctx.me !== null && ctx.me !== undefined);
  if (!mine) return t("team {n} ({names})", { n: team + 1, names });
  return mine.team === team ? t("your team ({names})", { names }) : t("opponents ({names})", { names });
}

// A seat in a list of names: «вы», the seat's name or «Игрок 3» (no bot's kind: a heading).
function shortName(seat, ctx) {
  if (seat === ctx.me) return t("you");
  const name = ctx.seats && ctx.seats[seat] && ctx.seats[seat].name;
  return name || t("Player {n}", { n: seat + 1 });
}

// The score table's words with the game's round in them ("after each hand": a game's catalog
// gives its own word, «после каждой партии»); the msgids are the round's, from its name.
export function roundTexts(roundName) {
  return { totals: `Totals after each ${roundName}`, hint: `One row per ${roundName}, as the ${roundName}s end.` };
}

// A bot's name in words: "greedy", "level 3".
export function botName(bot) {
  if (bot.startsWith("level:")) return t("level {n}", { n: bot.slice(6) });
  return { greedy: t("greedy"), random: t("random"), ismcts: t("search") }[bot] || bot;
}

export function capitalized(word) { return word ? word[0].toUpperCase() + word.slice(1) : ""; }

// One log line per event: the server's sentence (the event's `text`, in the language the
// socket asked for), its cards shown as coloured card text.
export function describe(event, ctx) {
  const words = event.text !== undefined ? storyText(event.text)
    : [seatName(event.player, ctx), event.player !== null && event.player !== undefined ? ": " : "",
       ...(event.action ? notationText(event.action) : [event.kind.replace(/_/g, " ")]), "."];
  const end = event.kind === ctx.roundEnd ? " ev-round-end" : "";
  const item = el("li", { class: `ev ev-${event.kind}${end}${ctx.me !== null && event.player === ctx.me ? " mine" : ""}`, dataset: { n: String(event.n) } }, ...words);
  // No rule IDs: the log is a player's text (the rulebook and the API carry them).
  return item;
}

// A sentence with card notations in it ("You took the table: 4H 6D.", "suit H"): the cards as
// card text, a suit's letter as its sign.
const CARD_WORD = /^(\(?)((?:10|[2-9JQKA])[CDHS]|JK|[CDHS])([.,;:)]*)$/;
const SUIT_SIGNS = { C: "♣", D: "♦", H: "♥", S: "♠" };
export function storyText(text) {
  const out = [];
  for (const part of String(text).split(/(\s+)/)) {
    const m = CARD_WORD.exec(part);
    if (m && m[2].length === 1) out.push(m[1], el("span", { class: `ct ${"DH".includes(m[2]) ? "red" : "black"}` }, SUIT_SIGNS[m[2]]), m[3]);
    else if (m) out.push(m[1], cardText(m[2]), m[3]);
    else if (part) out.push(part);
  }
  return out;
}

// The scoring breakdown of the end of a round (the game's roundEnd kind), as a table.
export function breakdownTable(event, ctx) {
  const b = event.breakdown;
  const by = b.by === "team" ? "team" : "seat";
  const title = `${capitalized(t(ctx.roundName))} ${event[ctx.roundName]}`;
  const direction = event.score_direction ? ` (${t(event.score_direction)})` : "";
  const table = el("table", { class: "breakdown" },
    el("caption", {}, t("{round}: scoring", { round: title }) + direction),
    el("thead", {}, el("tr", {}, el("th", {}, by === "team" ? t("team") : t("seat")), el("th", {}, t("what")), el("th", {}, t("count")), el("th", {}, t("points")))));
  const body = el("tbody");
  for (const part of b.components) {
    const owner = by === "team" ? teamName(b, part.team, ctx) : seatName(part.seat, ctx);
    body.append(el("tr", {}, el("td", {}, owner), el("td", {}, part.text ?? tFilled(part.what)), el("td", { class: "num" }, part.count ?? ""),
      el("td", { class: "num" }, String(part.points))));   // no rule IDs: a player's table
  }
  if (!b.components.length) body.append(el("tr", {}, el("td", { colspan: "4" }, t("No points scored."))));
  table.append(body);
  const foot = el("tfoot");
  (b.totals || []).forEach((total, i) => {
    foot.append(el("tr", {}, el("th", {}, by === "team" ? teamName(b, i, ctx) : seatName(i, ctx)), el("td", {}, t("total")), el("td"), el("td", { class: "num" }, String(total))));
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
    tn("{who}: {points} point", "{who}: {points} points", score, { who: seatName(seat, ctx), points: score }), state.winners.includes(seat) ? ` — ${t("winner")}` : "")));
  return el("div", {}, list, el("p", { class: "hint" }, t("Scores: {direction}.", { direction: t(direction) })));
}

// The running score table: one row per finished round, each owner's total after it; a
// rematch's table starts with the scores its series carried (the state's `carried`: «Реванш»
// continues the count of a match of several hands), and its totals go on from them.
export function scoreTable(ends, ctx) {
  const first = ends.length ? ends[0].breakdown : null;
  const byTeam = Boolean(first) && first.by === "team";
  const owners = first ? first.totals.length : (ctx.carried || []).length;
  const carried = carriedBy(ctx.carried, byTeam ? first : null, owners);
  const sums = carried ? [...carried] : new Array(owners).fill(0);
  const head = el("tr", {}, el("th", {}, capitalized(t(ctx.roundName))),
    ...Array.from({ length: owners }, (_, k) => el("th", { class: "num" }, byTeam ? teamName(first, k, ctx) : seatName(k, ctx))));
  const before = carried ? [el("tr", { class: "carried" }, el("th", {}, t("before this match")),
    ...carried.map((v) => el("td", { class: "num" }, String(v))))] : [];
  const rows = ends.map((e) => {
    e.breakdown.totals.forEach((total, k) => { sums[k] += total; });
    const own = !byTeam && Array.isArray(e.scores) && e.scores.length === owners ? e.scores : null;
    const after = own ? own.map((v, k) => v + (carried ? carried[k] : 0)) : sums;
    return el("tr", {}, el("th", {}, String(e[ctx.roundName] ?? "")), ...after.map((v) => el("td", { class: "num" }, String(v))));
  });
  return el("table", { class: "breakdown score-table" }, el("caption", {}, t(roundTexts(ctx.roundName).totals)),
    el("thead", {}, head), el("tbody", {}, ...before, ...rows));
}

// The carried scores by owner: per seat, or summed over each team's seats (the breakdown's
// rows give each seat's team); null when the match follows none.
function carriedBy(carried, teamBreakdown, owners) {
  if (!Array.isArray(carried)) return null;
  if (!teamBreakdown) return carried.slice(0, owners);
  const sums = new Array(owners).fill(0);
  for (const row of teamBreakdown.components || []) {
    if (Number.isInteger(row.seat) && Number.isInteger(row.team) && row.team < owners) sums[row.team] += carried[row.seat] || 0;
  }
  return sums;
}
