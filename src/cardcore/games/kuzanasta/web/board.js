// Kuzanasta on the web table: the turn-up and wild rank, the stock and discard piles.
import { fact, pile } from "/static/board.js";
import { el, cardsText } from "/static/cards.js";
import { seatName } from "/static/words.js";

export function board(v, ctx) {
  const facts = el("div", { class: "facts" },
    fact("Deal", String(v.deal)), fact("Wild rank", v.wild_rank || "none"),
    fact("Dealer", seatName(v.dealer, ctx)), fact("Pot", String(v.pot)),
    fact("God", v.god_holder === null || v.god_holder === undefined ? "in play" : `with ${seatName(v.god_holder, ctx)}`));
  const piles = el("div", { class: "piles" }, pile("Turn-up", [v.turn_up]));
  (v.stock_sizes || []).forEach((size, k) => {
    const mine = v.my_pile === k;
    piles.append(pile(`Stock ${k}${mine ? " (yours)" : ""}`, [], { back: true, count: size, ...(mine ? ctx.pileAction("draw_stock") : {}) }));
  });
  (v.discards || []).forEach((cards, k) => {
    const owners = (v.pile_of || []).map((p, s) => (p === k ? s : null)).filter((s) => s !== null);
    const mine = v.my_pile === k;
    piles.append(pile(`Discards ${k} (${owners.map((s) => seatName(s, ctx)).join(", ")})`, cards,
      { limit: 5, count: cards.length, ...(mine ? ctx.pileAction("draw_discard") : {}) }));
  });
  const out = [facts, piles];
  if (v.best_sets && v.best_sets.sets) {
    out.push(el("p", { class: "best-sets" }, `Your best sets: ${v.best_sets.sets.join(", ") || "none"} (worth ${v.best_sets.value})`));
  }
  if (v.last_deal && v.last_deal.end === "went_out") {
    const d = v.last_deal;
    out.push(el("p", { class: "last" }, `Last deal: ${seatName(d.winner, ctx)} went out with `, ...cardsText(d.hand),
      ` — sets ${d.sets.map((s) => `${s.set} (${s.value})`).join(", ")}, hand points ${d.hand_points}, total ${d.total}.`));
  }
  return out;
}

export function seat(v, seat, ctx) {
  const bits = [`chips ${v.chips[seat]}`];
  if (v.pile_of) bits.push(`pile ${v.pile_of[seat]}`);
  return bits;
}
