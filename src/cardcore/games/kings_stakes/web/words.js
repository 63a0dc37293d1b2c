// Kings' Stakes in words on the web table: its events and its moves.
import { cardLabel, cardsText } from "/static/cards.js";
import { cardsOrCount, seatName } from "/static/words.js";

export const EVENT_WORDS = {
  play: (e, c) => [`${seatName(e.player, c)} played `, ...cardsOrCount(e), e.stake !== undefined ? ` (stake ${e.stake})` : "", "."],
  take: (e, c) => [`${seatName(e.player, c)} took the table`, ...(e.cards && e.cards.length ? [": ", ...cardsText(e.cards)] : []), "."],
  refill: (e, c) => [`${seatName(e.player, c)} refilled from the stock.`],
  draw: (e, c) => [`${seatName(e.player, c)} drew `, ...cardsOrCount(e), "."],
  table_cleared: (e, c) => [`A king cleared the table: `, ...cardsText(e.cards || []), " went to the discard."],
  chip: (e, c) => [`${seatName(e.player, c)} ${e.player === c.me ? "take" : "takes"} the forget-me chip.`],
  out: (e, c) => [`${seatName(e.player, c)} ${e.player === c.me ? "are" : "is"} out of cards.`],
  round_end: (e, c) => [`Round ${e.round} is over: points this round ${(e.round_points || []).join(" / ")}; scores ${(e.scores || []).join(" / ")}${e.direction ? ` (${e.direction})` : ""}.`],
};

export const MOVE_WORDS = { play: "Play", take: "Take the table", refill: "Refill", end_turn: "End turn" };

// The moves whose cards come out of the hand (the others' cards are shown, not selected).
export const FROM_HAND = ["play"];

export function moveLabel(a, words) {
  if (a.kind === "play" && Array.isArray(a.jokers_as) && a.jokers_as.length) {
    return `${words} (${a.jokers_as.map((c) => `joker as ${cardLabel(c)}`).join(", ")})`;
  }
  return words;
}
