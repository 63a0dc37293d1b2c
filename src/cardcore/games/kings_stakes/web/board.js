// Kings' Stakes on the web table: the stake, the table, the stock and the discard.
import { fact, pile } from "/static/board.js";
import { el, notationText } from "/static/cards.js";
import { t } from "/static/i18n.js";
import { seatName } from "/static/words.js";

const PAST = () => ({ play: t("played"), take: t("took the table"), refill: t("refilled from the stock"), end_turn: t("ended the turn") });

export function board(v, ctx) {
  const arrow = v.direction === 1 ? t("→ clockwise") : t("← counter-clockwise");
  const facts = el("div", { class: "facts" },
    fact(t("Round"), t("{n} of {total}", { n: v.round, total: v.rounds })), fact(t("Stake"), String(v.stake), { id: "stake" }),
    fact(t("Direction"), arrow), fact(t("Chip"), v.chip_holder === null ? t("nobody") : seatName(v.chip_holder, ctx)));
  if (v.out_player !== null && v.out_player !== undefined) facts.append(fact(t("Out"), seatName(v.out_player, ctx)));
  if (v.teams) facts.append(fact(t("Teams"), v.teams.map((team) => team.join("+")).join(` ${t("vs")} `)));
  const piles = el("div", { class: "piles" },
    pile(t("Stock"), [], { back: true, count: v.stock_size, ...ctx.pileAction("refill") }),
    pile(t("On the table"), v.table, { ...ctx.pileAction("take") }),
    pile(t("Discard"), v.discard, { limit: 6, size: "small", count: v.discard.length }));
  const last = v.last_play ? el("p", { class: "last" }, `${t("Last play:")} ${seatName(v.last_play.player, ctx)} `,
    ...notationText(v.last_play.action, PAST())) : null;
  return [facts, piles, last];
}

export function seat(v, seat, ctx) {
  const bits = [t("penalty cards {n}", { n: v.penalty_counts[seat] })];
  if (v.chip_holder === seat) bits.push(t("holds the chip"));
  return bits;
}
