// Durak on the web table: the trump, the stock with the trump card under it, the bout as
// pairs (each attacking card with the card beating it), the discard pile's size; who attacks
// whom, and once over, the durak.
import { fact, pile } from "/static/board.js";
import { el, cardLabel } from "/static/cards.js";
import { t } from "/static/i18n.js";
import { seatName } from "/static/words.js";
import { suitName } from "/games/durak/words.js";

const SUIT_SIGNS = { C: "♣", D: "♦", H: "♥", S: "♠" };

export function board(v, ctx) {
  const trump = `${SUIT_SIGNS[v.trump_suit] || ""} ${suitName(v.trump_suit)}`.trim();
  const facts = el("div", { class: "facts" },
    fact(t("Trumps"), trump, { id: "trump" }),
    fact(t("Attacking cards"), t("{n} of {total}", { n: v.bout.length, total: v.bout_limit }), { id: "limit" }),
    fact(t("Dealer"), seatName(v.dealer, ctx)));
  if (v.attacker !== null && v.attacker !== undefined) {
    const who = v.attacker === ctx.me ? t("You attack {defender}", { defender: seatName(v.defender, ctx) })
      : t("{attacker} attacks {defender}", { attacker: seatName(v.attacker, ctx), defender: seatName(v.defender, ctx) });
    facts.append(fact(t("Attack"), who, { id: "bout" }));
  }
  if (v.taking) facts.append(fact(t("Taking"), t("the defender takes; the others may throw in"), { id: "taking" }));
  if (v.phase === "over") facts.append(fact(t("Durak"), v.durak === null ? t("nobody (a draw)") : seatName(v.durak, ctx), { id: "durak" }));
  // The stock: the trump card lies face up under it while it lasts (DU-2.3).
  const piles = el("div", { class: "piles" },
    pile(t("Stock"), v.stock_size ? [v.trump_card] : [], { count: v.stock_size }),
    pile(t("Discard"), [], { back: true, count: v.discard_size }));
  const table = el("div", { class: "bout" }, ...v.bout.map(([attack, cover], i) =>
    pile(cover ? t("Pair {n}: beaten", { n: i + 1 }) : t("Pair {n}: open", { n: i + 1 }), cover ? [attack, cover] : [attack], { size: "small" })));
  const out = [facts, piles, el("h3", {}, t("On the table")), table];
  if (v.shown_trump && v.bouts === 0 && !v.bout.length) {
    out.push(el("p", { class: "shown" }, t("Lowest trump shown: {card}", { card: cardLabel(v.shown_trump) })));
  }
  return out;
}

export function seat(v, seat, ctx) {
  const bits = [];
  if (v.attacker === seat) bits.push(t("attacks"));
  if (v.defender === seat) bits.push(t("defends"));
  if ((v.out || []).includes(seat)) bits.push(t("out"));
  if (v.sides && new Set(v.sides).size < v.sides.length) bits.push(t("side {n}", { n: v.sides[seat] }));
  const known = (v.known_cards || [])[seat] || [];
  if (known.length && seat !== ctx.me) bits.push(t("holds {cards}", { cards: known.map(cardLabel).join(" ") }));
  if (v.phase === "over" && v.durak === seat) bits.push(t("durak"));
  return bits;
}
