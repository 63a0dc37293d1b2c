// Crazy Eights in words on the web table: its events and its moves.
import { cardsText } from "/static/cards.js";
import { cardsOrCount, seatName } from "/static/words.js";

const SUIT_NAMES = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };

function next(e, c) {
  if (e.next_player === undefined || e.next_player === null) return "";
  if (e.next_player === e.player) return "";
  return ` ${seatName(e.next_player, c)} ${e.next_player === c.me ? "follow" : "follows"} ${SUIT_NAMES[e.suit] || e.suit}.`;
}

export const EVENT_WORDS = {
  deal: (e, c) => [`Hand ${e.hand} begins: ${seatName(e.dealer, c)} ${e.dealer === c.me ? "deal" : "deals"}, ${e.stock_size} cards in the stock.`],
  play: (e, c) => [`${seatName(e.player, c)} played `, ...cardsOrCount(e), ".", next(e, c)],
  nominate: (e, c) => [`${seatName(e.player, c)} named ${SUIT_NAMES[e.suit] || e.suit}.`, next(e, c)],
  draw: (e, c) => [`${seatName(e.player, c)} ${e.rule === "CE-4.4" ? "took the debt" : "drew"}: `, ...cardsOrCount(e, "nothing"), ` (stock ${e.stock_size}).`],
  pass: (e, c) => [`${seatName(e.player, c)} passed.`, next(e, c)],
  reburied: (e, c) => ["Turned up ", ...cardsText(e.cards || []), e.place === "bottom" ? ": back to the bottom of the stock." : ": back into the stock."],
  turn_up: (e, c) => ["Turned up ", ...cardsText(e.cards || []), `: ${seatName(e.first_player, c)} ${e.first_player === c.me ? "play" : "plays"} first`,
    e.direction === -1 ? ", down the seats" : "", e.draw_two_owed ? `, owing ${e.draw_two_owed}` : "", "."],
  reshuffle: (e, c) => [`The discard pile but its top card (${(e.cards || []).length} cards) becomes the stock.`],
  drew: (e, c) => [`${seatName(e.player, c)} took the rest of the debt from the new stock: `, ...cardsOrCount(e), "."],
  hand_end: (e, c) => [`Hand ${e.hand} is over: ${e.reason === "out" ? "a player went out" : e.reason === "max_turns" ? "the plays allowed are used up" : "everybody passed with the stock empty"}; penalties ${(e.scores || []).join(" / ")}.`],
};

export const MOVE_WORDS = { play: "Play", draw: "Draw", pass: "Pass", nominate: "Nominate" };

// The moves whose cards come out of the hand (the others' cards are shown, not selected).
export const FROM_HAND = ["play"];

export function moveLabel(a, words) {
  return a.kind === "nominate" && a.suit ? `${words} ${SUIT_NAMES[a.suit] || a.suit}` : words;
}
