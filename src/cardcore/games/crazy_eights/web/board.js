// Crazy Eights on the web table: the top card and the suit to follow, the stock, the turn's
// draws, a draw-two debt; once the hand is over, the hands laid down.
import { fact, pile } from "/static/board.js";
import { el, cardsText, cardLabel } from "/static/cards.js";
import { t, tx } from "/static/i18n.js";
import { seatName } from "/static/words.js";
import { suitName } from "/games/crazy_eights/words.js";

const SUIT_SIGNS = { C: "♣", D: "♦", H: "♥", S: "♠" };

export function board(v, ctx) {
  const arrow = v.direction === 1 ? t("→ up the seats") : t("← down the seats");
  // After an eight the nominated suit differs from the top card's: say so (CE-3.3).
  const nominated = v.top_card && v.top_card.slice(-1) !== v.suit;
  const suit = `${SUIT_SIGNS[v.suit] || ""} ${suitName(v.suit)}`.trim();
  const facts = el("div", { class: "facts" },
    fact(t("Suit to follow"), nominated ? t("{suit} (nominated)", { suit }) : suit, { id: "suit" }),
    fact(t("Top card"), v.top_card ? cardLabel(v.top_card) : t("none")), fact(t("Direction"), arrow),
    fact(t("Draws this turn"), t("{n} of {total}", { n: v.draws_this_turn, total: v.max_draw_cards }), { id: "draws" }),
    fact(t("Plays"), t("{n} of {total}", { n: v.plays, total: v.max_turns })), fact(t("Dealer"), seatName(v.dealer, ctx)));
  if (v.draw_two_owed) facts.append(fact(t("Owed"), t("{n} cards (play a 2 or draw them)", { n: v.draw_two_owed }), { id: "owed" }));
  if (v.passes) facts.append(fact(t("Passes"), t("{n} with the stock empty", { n: v.passes })));
  const piles = el("div", { class: "piles" },
    pile(t("Stock"), [], { back: true, count: v.stock_size, ...ctx.pileAction("draw") }),
    pile(t("Discard"), v.discard, { limit: 6, count: v.discard.length }));
  const out = [facts, piles];
  if (v.reburied && v.reburied.length) {
    out.push(el("p", { class: "reburied" }, ...tx("Eights turned up and put back: {cards}.", { cards: cardsText(v.reburied) })));
  }
  if (v.final_hands) {
    out.push(el("div", { class: "final-hands" }, ...v.final_hands.map((hand, s) =>
      el("p", {}, `${seatName(s, ctx)}: `, ...(hand.length ? cardsText(hand) : [t("out")])))));
  }
  return out;
}

export function seat(v, seat, ctx) {
  const bits = [];
  if (v.dealer === seat) bits.push(t("dealer"));
  const known = (v.known_eights || [])[seat] || [];
  if (known.length) bits.push(t("holds {cards}", { cards: known.map(cardLabel).join(" ") }));
  return bits;
}
