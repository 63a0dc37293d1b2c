// Crazy Eights on the web table: the top card and the suit to follow, the stock, the turn's
// draws, a draw-two debt; once the hand is over, the hands laid down.
import { fact, pile } from "/static/board.js";
import { el, cardsText } from "/static/cards.js";
import { seatName } from "/static/words.js";

const SUIT_NAMES = { C: "♣ clubs", D: "♦ diamonds", H: "♥ hearts", S: "♠ spades" };

export function board(v, ctx) {
  const arrow = v.direction === 1 ? "→ up the seats" : "← down the seats";
  // After an eight the nominated suit differs from the top card's: say so (CE-3.3).
  const nominated = v.top_card && v.top_card.slice(-1) !== v.suit;
  const facts = el("div", { class: "facts" },
    fact("Suit to follow", `${SUIT_NAMES[v.suit] || v.suit}${nominated ? " (nominated)" : ""}`, { id: "suit" }),
    fact("Top card", v.top_card), fact("Direction", arrow),
    fact("Draws this turn", `${v.draws_this_turn} of ${v.max_draw_cards}`, { id: "draws" }),
    fact("Plays", `${v.plays} of ${v.max_turns}`), fact("Dealer", seatName(v.dealer, ctx)));
  if (v.draw_two_owed) facts.append(fact("Owed", `${v.draw_two_owed} cards (play a 2 or draw them)`, { id: "owed" }));
  if (v.passes) facts.append(fact("Passes", `${v.passes} with the stock empty`));
  const piles = el("div", { class: "piles" },
    pile("Stock", [], { back: true, count: v.stock_size, ...ctx.pileAction("draw") }),
    pile("Discard", v.discard, { limit: 6, count: v.discard.length }));
  const out = [facts, piles];
  if (v.reburied && v.reburied.length) {
    out.push(el("p", { class: "reburied" }, "Eights turned up and put back: ", ...cardsText(v.reburied), "."));
  }
  if (v.final_hands) {
    out.push(el("div", { class: "final-hands" }, ...v.final_hands.map((hand, s) =>
      el("p", {}, `${seatName(s, ctx)}: `, ...(hand.length ? cardsText(hand) : ["out"])))));
  }
  return out;
}

export function seat(v, seat, ctx) {
  const bits = [];
  if (v.dealer === seat) bits.push("dealer");
  const known = (v.known_eights || [])[seat] || [];
  if (known.length) bits.push(`holds ${known.join(" ")}`);
  return bits;
}
