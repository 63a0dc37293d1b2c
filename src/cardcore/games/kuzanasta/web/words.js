// Kuzanasta in words on the web table: its events and its moves.
import { cardsText } from "/static/cards.js";
import { cardsOrCount, seatName } from "/static/words.js";

export const EVENT_WORDS = {
  turn_up: (e, c) => ["Turned up ", ...cardsText(e.cards || []), e.wild_rank ? `: ${e.wild_rank}s are wild.` : "."],
  pile_start: (e, c) => [`Discard pile ${e.pile} starts with `, ...cardsText(e.cards || []), "."],
  set_aside: (e, c) => [`${(e.cards || []).length || e.hidden || 0} cards are set aside.`],
  draw_discard: (e, c) => [`${seatName(e.player, c)} took `, ...cardsOrCount(e, "the top card"), " from the discard pile."],
  god_look: (e, c) => [`${seatName(e.player, c)} looked at God's cards.`],
  god_draw: (e, c) => [`${seatName(e.player, c)} drew `, ...cardsOrCount(e, "a card"), " from God."],
  god_discard: (e, c) => [`${seatName(e.player, c)} started a new pile with `, ...cardsOrCount(e), "."],
  recycle: (e, c) => [`Pile ${e.pile} was turned into the stock (`, ...cardsOrCount(e), ")."],
  pile_dead: (e, c) => [`A discard pile left play: `, ...cardsOrCount(e), "."],
  deal_end: (e, c) => e.winner === null || e.winner === undefined
    ? [`Deal ${e.deal} ends with nobody out (${e.end || "void"}).`]
    : [`Deal ${e.deal} is over: ${seatName(e.winner, c)} went out with `, ...cardsText(e.cards || []), "."],
};

export const MOVE_WORDS = {
  draw_stock: "Draw from the stock", draw_discard: "Take the top discard", god_look: "Look at God",
  god_draw: "Draw from God", discard: "Discard", god_discard: "Discard to a new pile", end_turn: "End turn",
  go_out: "Go out",
};

export const FROM_HAND = ["discard", "god_discard"];
