// Kuzanasta on the web table: the turn-up and wild rank, the stock and discard piles.
import { fact, pile } from "/static/board.js";
import { el, cardsText } from "/static/cards.js";
import { t, tx, N_ } from "/static/i18n.js";

// The wild rank in words ("jacks"), as the terminal says it (words.py RANK_WORDS).
const RANK_WORDS = { A: N_("aces"), 2: N_("twos"), 3: N_("threes"), 4: N_("fours"), 5: N_("fives"),
  6: N_("sixes"), 7: N_("sevens"), 8: N_("eights"), 9: N_("nines"), 10: N_("tens"), J: N_("jacks"),
  Q: N_("queens"), K: N_("kings") };
import { seatName } from "/static/words.js";

export function board(v, ctx) {
  const facts = el("div", { class: "facts" },
    fact(t("Deal"), String(v.deal)), fact(t("Wild cards"), v.wild_rank ? t(RANK_WORDS[v.wild_rank] || v.wild_rank) : t("none")),
    fact(t("Dealer"), seatName(v.dealer, ctx)), fact(t("Pot"), String(v.pot)),
    fact(t("God"), v.god_holder === null || v.god_holder === undefined ? t("in play") : t("with {who}", { who: seatName(v.god_holder, ctx) })));
  const piles = el("div", { class: "piles" }, pile(t("Turn-up"), [v.turn_up]));
  (v.stock_sizes || []).forEach((size, k) => {
    const mine = v.my_pile === k;
    piles.append(pile(mine ? t("Stock {n} (yours)", { n: k }) : t("Stock {n}", { n: k }), [], { back: true, count: size, ...(mine ? ctx.pileAction("draw_stock") : {}) }));
  });
  (v.discards || []).forEach((cards, k) => {
    const owners = (v.pile_of || []).map((p, s) => (p === k ? s : null)).filter((s) => s !== null);
    const mine = v.my_pile === k;
    // The top of a discard pile is its last card, shown rightmost.
    piles.append(pile(t("Discards {n} ({who}; top card on the right)", { n: k, who: owners.map((s) => seatName(s, ctx)).join(", ") }), cards,
      { limit: 5, count: cards.length, ...(mine ? ctx.pileAction("draw_discard") : {}) }));
  });
  const out = [facts, piles];
  if (v.best_sets && v.best_sets.sets) {
    out.push(el("p", { class: "best-sets" }, t("Your best sets: {sets} (worth {value})", { sets: v.best_sets.sets.join(", ") || t("none"), value: v.best_sets.value })));
  }
  if (v.last_deal && v.last_deal.end === "went_out") {
    const d = v.last_deal;
    out.push(el("p", { class: "last" }, ...tx("Last deal: {who} went out with {cards} — sets {sets}, hand points {points}, total {total}.", {
      who: seatName(d.winner, ctx), cards: cardsText(d.hand), sets: d.sets.map((s) => `${s.set} (${s.value})`).join(", "), points: d.hand_points, total: d.total })));
  }
  return out;
}

export function seat(v, seat, ctx) {
  const bits = [t("chips {n}", { n: v.chips[seat] })];
  if (v.pile_of) bits.push(t("pile {n}", { n: v.pile_of[seat] }));
  return bits;
}
