// Manna from Heaven in words on the web table: its events and its moves.
import { cardsText } from "/static/cards.js";
import { seatName } from "/static/words.js";

// The ways to take the pile (MH-5.3), in words.
const TAKE_WORDS = {
  "take add": "its top card added to your meld",
  "take natural+two": "its top card melded with a natural and a two",
  "take natural+joker": "its top card melded with a natural and a joker",
  "take pair": "its top card melded with a natural pair",
};

export const EVENT_WORDS = {
  foot_dealt: (e, c) => [`${seatName(e.player, c)} ${e.player === c.me ? "get" : "gets"} a foot of ${e.hidden || (e.cards || []).length} cards, face down.`],
  first_discard: (e, c) => ["The discard pile starts with ", ...cardsText(e.cards || []), "."],
  red_three: (e, c) => [`A red three goes before team ${e.team}: `, ...cardsText(e.cards || []), e.replaced ? " (replaced from the stock)." : "."],
  take_pile: (e, c) => [`${seatName(e.player, c)} took the pile (${TAKE_WORDS[e.action] || e.action})`, ...(e.cards && e.cards.length ? [": ", ...cardsText(e.cards)] : []), ...(e.melded ? ["; melded ", ...cardsText(e.melded)] : []), "."],
  meld: (e, c) => [`${seatName(e.player, c)} melded `, ...cardsText(e.cards || []), e.turn_points ? ` (${e.turn_points} points this turn${e.min_meld ? `; the first meld needs ${e.min_meld}` : ""})` : "", "."],
  retract: (e, c) => [`${seatName(e.player, c)} took back the melds: `, ...cardsText(e.cards || []), "."],
  canasta: (e, c) => [`${seatName(e.player, c)} completed a ${e.type || ""} canasta of ${e.rank}s for team ${e.team}.`],
  foot: (e, c) => [`${seatName(e.player, c)} picked up the foot`, ...(e.cards && e.cards.length ? [": ", ...cardsText(e.cards)] : []), "."],
  hand_end: (e, c) => [`Hand ${e.hand} is over${e.went_out !== null && e.went_out !== undefined ? `: ${seatName(e.went_out, c)} went out` : ""}.`],
};

export const MOVE_WORDS = {
  draw_stock: "Draw from the stock", discard: "Discard", go_out: "Go out", take_pile: "Take the pile",
  meld: "Meld", retract: "Take back melds",
};

export const FROM_HAND = ["discard", "meld"];

// A pile take melds its top card with cards from the hand (info.from_hand).
export function handCards(a) {
  return a.kind === "take_pile" && Array.isArray(a.from_hand) ? a.from_hand : null;
}

export function moveLabel(a, words) {
  if (a.kind === "meld" && a.group) {
    const group = a.group === "wild" ? "wild cards" : `${a.group}s`;
    return a.new === false ? `Add to the ${group}` : `New meld of ${group}`;
  }
  if (a.kind === "take_pile") return `${words} (${TAKE_WORDS[a.label] || a.label})`;
  return words;
}
