// Kings' Stakes on the web table: the stake, the table, the stock and the discard.
import { fact, pile } from "/static/board.js";
import { el, notationText } from "/static/cards.js";

const PAST = { play: "played", take: "took the table", refill: "refilled from the stock", end_turn: "ended the turn" };
import { seatName } from "/static/words.js";

export function board(v, ctx) {
  const arrow = v.direction === 1 ? "→ clockwise" : "← counter-clockwise";
  const facts = el("div", { class: "facts" },
    fact("Round", `${v.round} of ${v.rounds}`), fact("Stake", String(v.stake), { id: "stake" }),
    fact("Direction", arrow), fact("Chip", v.chip_holder === null ? "nobody" : seatName(v.chip_holder, ctx)));
  if (v.out_player !== null && v.out_player !== undefined) facts.append(fact("Out", seatName(v.out_player, ctx)));
  if (v.teams) facts.append(fact("Teams", v.teams.map((t) => t.join("+")).join(" vs ")));
  const piles = el("div", { class: "piles" },
    pile("Stock", [], { back: true, count: v.stock_size, ...ctx.pileAction("refill") }),
    pile("On the table", v.table, { ...ctx.pileAction("take") }),
    pile("Discard", v.discard, { limit: 6, size: "small", count: v.discard.length }));
  const last = v.last_play ? el("p", { class: "last" }, `Last play: ${seatName(v.last_play.player, ctx)} `,
    ...notationText(v.last_play.action, PAST)) : null;
  return [facts, piles, last];
}

export function seat(v, seat, ctx) {
  const bits = [`penalty cards ${v.penalty_counts[seat]}`];
  if (v.chip_holder === seat) bits.push("holds the chip");
  return bits;
}
