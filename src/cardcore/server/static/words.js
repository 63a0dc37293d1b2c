// The event log in words: one sentence per event (api.md events; docs/server.md).
import { el, cardsText } from "./cards.js";

export function seatName(seat, ctx) {
  if (seat === null || seat === undefined) return "";
  if (seat === ctx.me) return "You";
  const bot = ctx.seats && ctx.seats[seat] && ctx.seats[seat].bot;
  return bot ? `Seat ${seat} (${bot})` : `Seat ${seat}`;
}

function cardsOrCount(event, none = "") {
  if (event.cards && event.cards.length) return cardsText(event.cards);
  if (event.hidden) return [`${event.hidden} card${event.hidden === 1 ? "" : "s"}`];
  return none ? [none] : [];
}

function teamName(team) { return `team ${team}`; }

const SENTENCES = {
  // every game
  deal: (e, c) => {
    const which = e.round ? `Round ${e.round}` : e.deal ? `Deal ${e.deal}` : e.hand ? `Hand ${e.hand}` : "A new deal";
    const parts = [`${which} begins`];
    if (e.dealer !== undefined && e.dealer !== null) parts.push(`${seatName(e.dealer, c)} deals`);
    if (e.first_player !== undefined && e.first_player !== null) parts.push(`${seatName(e.first_player, c)} ${e.first_player === c.me ? "play" : "plays"} first`);
    return [parts.join("; ") + "."];
  },
  dealt: (e, c) => e.cards && e.cards.length
    ? [`${seatName(e.player, c)} ${e.player === c.me ? "were" : "was"} dealt `, ...cardsText(e.cards), "."]
    : [`${seatName(e.player, c)} ${e.player === c.me ? "were" : "was"} dealt ${e.hidden || 0} cards.`],
  draw: (e, c) => [`${seatName(e.player, c)} drew `, ...cardsOrCount(e), "."],
  discard: (e, c) => [`${seatName(e.player, c)} discarded `, ...cardsOrCount(e), "."],
  go_out: (e, c) => [`${seatName(e.player, c)} went out`, ...(e.cards && e.cards.length ? [" with ", ...cardsText(e.cards)] : []), "."],
  end_turn: (e, c) => [`${seatName(e.player, c)} ended the turn.`],
  match_end: (e, c) => {
    const winners = (e.winners || []).map((s) => seatName(s, c));
    return [`The match is over. ${winners.length === 1 ? "Winner" : "Winners"}: ${winners.join(", ") || "none"}. Final scores ${(e.scores || []).join(" / ")}.`];
  },
  // Kings' Stakes
  play: (e, c) => [`${seatName(e.player, c)} played `, ...cardsOrCount(e), e.stake !== undefined ? ` (stake ${e.stake})` : "", "."],
  take: (e, c) => [`${seatName(e.player, c)} took the table`, ...(e.cards && e.cards.length ? [": ", ...cardsText(e.cards)] : []), "."],
  refill: (e, c) => [`${seatName(e.player, c)} refilled from the stock.`],
  table_cleared: (e, c) => [`A king cleared the table: `, ...cardsText(e.cards || []), " went to the discard."],
  chip: (e, c) => [`${seatName(e.player, c)} ${e.player === c.me ? "take" : "takes"} the forget-me chip.`],
  out: (e, c) => [`${seatName(e.player, c)} ${e.player === c.me ? "are" : "is"} out of cards.`],
  round_end: (e, c) => [`Round ${e.round} is over: points this round ${(e.round_points || []).join(" / ")}; scores ${(e.scores || []).join(" / ")}${e.direction ? ` (${e.direction})` : ""}.`],
  // Kuzanasta
  turn_up: (e, c) => ["Turned up ", ...cardsText(e.cards || []), e.wild_rank ? `: ${e.wild_rank}s are wild.` : "."],
  pile_start: (e, c) => [`Discard pile ${e.pile} starts with `, ...cardsText(e.cards || []), "."],
  set_aside: (e, c) => [`${(e.cards || []).length || e.hidden || 0} cards are set aside.`],
  draw_stock: (e, c) => [`${seatName(e.player, c)} drew `, ...cardsOrCount(e, "a card"), " from the stock."],
  draw_discard: (e, c) => [`${seatName(e.player, c)} took `, ...cardsOrCount(e, "the top card"), " from the discard pile."],
  god_look: (e, c) => [`${seatName(e.player, c)} looked at God's cards.`],
  god_draw: (e, c) => [`${seatName(e.player, c)} drew `, ...cardsOrCount(e, "a card"), " from God."],
  god_discard: (e, c) => [`${seatName(e.player, c)} started a new pile with `, ...cardsOrCount(e), "."],
  recycle: (e, c) => [`Pile ${e.pile} was turned into the stock (`, ...cardsOrCount(e), ")."],
  pile_dead: (e, c) => [`A discard pile left play: `, ...cardsOrCount(e), "."],
  deal_end: (e, c) => e.winner === null || e.winner === undefined
    ? [`Deal ${e.deal} ends with nobody out (${e.end || "void"}).`]
    : [`Deal ${e.deal} is over: ${seatName(e.winner, c)} went out with `, ...cardsText(e.cards || []), "."],
  // Manna from Heaven
  foot_dealt: (e, c) => [`${seatName(e.player, c)} ${e.player === c.me ? "get" : "gets"} a foot of ${e.hidden || (e.cards || []).length} cards, face down.`],
  first_discard: (e, c) => ["The discard pile starts with ", ...cardsText(e.cards || []), "."],
  red_three: (e, c) => [`A red three goes before ${teamName(e.team)}: `, ...cardsText(e.cards || []), e.replaced ? " (replaced from the stock)." : "."],
  take_pile: (e, c) => [`${seatName(e.player, c)} took the pile (${e.action})`, ...(e.cards && e.cards.length ? [": ", ...cardsText(e.cards)] : []), ...(e.melded ? ["; melded ", ...cardsText(e.melded)] : []), "."],
  meld: (e, c) => [`${seatName(e.player, c)} melded `, ...cardsText(e.cards || []), e.turn_points ? ` (${e.turn_points} points this turn${e.min_meld ? `; the first meld needs ${e.min_meld}` : ""})` : "", "."],
  retract: (e, c) => [`${seatName(e.player, c)} took back the melds: `, ...cardsText(e.cards || []), "."],
  canasta: (e, c) => [`${seatName(e.player, c)} completed a ${e.type || ""} canasta of ${e.rank}s for ${teamName(e.team)}.`],
  foot: (e, c) => [`${seatName(e.player, c)} picked up the foot`, ...(e.cards && e.cards.length ? [": ", ...cardsText(e.cards)] : []), "."],
  hand_end: (e, c) => [`Hand ${e.hand} is over${e.went_out !== null && e.went_out !== undefined ? `: ${seatName(e.went_out, c)} went out` : ""}.`],
};

export function describe(event, ctx) {
  const sentence = SENTENCES[event.kind];
  let words;
  if (sentence) words = sentence(event, ctx);
  else {
    const who = event.player !== null && event.player !== undefined ? seatName(event.player, ctx) + ": " : "";
    words = [`${who}${event.action || event.kind.replace(/_/g, " ")} `, ...cardsOrCount(event), "."];
  }
  const item = el("li", { class: `ev ev-${event.kind}${ctx.me !== null && event.player === ctx.me ? " mine" : ""}`, dataset: { n: String(event.n) } }, ...words);
  if (event.rule) item.append(" ", el("span", { class: "rule" }, event.rule));
  return item;
}

// The scoring breakdown of a round/deal/hand end, as a table.
export function breakdownTable(event, ctx) {
  const b = event.breakdown;
  const by = b.by === "team" ? "team" : "seat";
  const title = event.kind === "hand_end" ? `Hand ${event.hand}` : event.kind === "deal_end" ? `Deal ${event.deal}` : `Round ${event.round}`;
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
