// Crazy Eights in words on the web table: its events and its moves (msgids in this game's
// catalog, src/cardcore/games/crazy_eights/locale).
import { cardsText } from "/static/cards.js";
import { N_, t, tx } from "/static/i18n.js";
import { cardsOrCount, seatName, who } from "/static/words.js";

export const SUIT_NAMES = { C: N_("clubs"), D: N_("diamonds"), H: N_("hearts"), S: N_("spades") };
export function suitName(suit) { return SUIT_NAMES[suit] ? t(SUIT_NAMES[suit]) : suit; }

function next(e, c) {
  if (e.next_player === undefined || e.next_player === null) return "";
  if (e.next_player === e.player) return "";
  return " " + (e.next_player === c.me ? t("You follow {suit}.", { suit: suitName(e.suit) })
    : t("{who} follows {suit}.", { who: seatName(e.next_player, c), suit: suitName(e.suit) }));
}

const HAND_ENDS = { out: N_("a player went out"), max_turns: N_("the plays allowed are used up"), passes: N_("everybody passed with the stock empty") };

export const EVENT_WORDS = {
  deal: (e, c) => [e.dealer === c.me ? t("Hand {n} begins: you deal, {stock} cards in the stock.", { n: e.hand, stock: e.stock_size })
    : t("Hand {n} begins: {who} deals, {stock} cards in the stock.", { n: e.hand, who: seatName(e.dealer, c), stock: e.stock_size })],
  play: (e, c) => [...who(e.player, c, N_("You played {cards}."), N_("{who} played {cards}."), { cards: cardsOrCount(e) }), next(e, c)],
  nominate: (e, c) => [...who(e.player, c, N_("You named {suit}."), N_("{who} named {suit}."), { suit: suitName(e.suit) }), next(e, c)],
  draw: (e, c) => [...(e.rule === "CE-4.4"
    ? who(e.player, c, N_("You took the debt: {cards}"), N_("{who} took the debt: {cards}"), { cards: cardsOrCount(e, t("nothing")) })
    : who(e.player, c, N_("You drew: {cards}"), N_("{who} drew: {cards}"), { cards: cardsOrCount(e, t("nothing")) })), ` (${t("stock {n}", { n: e.stock_size })}).`],
  pass: (e, c) => [...who(e.player, c, N_("You passed."), N_("{who} passed.")), next(e, c)],
  reburied: (e, c) => (e.place === "bottom" ? tx("Turned up {cards}: back to the bottom of the stock.", { cards: cardsText(e.cards || []) })
    : tx("Turned up {cards}: back into the stock.", { cards: cardsText(e.cards || []) })),
  turn_up: (e, c) => [...tx("Turned up {cards}.", { cards: cardsText(e.cards || []) }), " ",
    e.first_player === c.me ? t("You play first.") : t("{who} plays first.", { who: seatName(e.first_player, c) }),
    e.direction === -1 ? ` ${t("Play goes down the seats.")}` : "", e.draw_two_owed ? ` ${t("Owing {n}.", { n: e.draw_two_owed })}` : ""],
  reshuffle: (e, c) => [t("The discard pile but its top card ({n} cards) becomes the stock.", { n: (e.cards || []).length })],
  drew: (e, c) => who(e.player, c, N_("You took the rest of the debt from the new stock: {cards}."), N_("{who} took the rest of the debt from the new stock: {cards}."), { cards: cardsOrCount(e) }),
  hand_end: (e, c) => [t("Hand {n} is over: {why}; penalties {scores}.", { n: e.hand, why: t(HAND_ENDS[e.reason] || e.reason || ""), scores: (e.scores || []).join(" / ") })],
};

export const MOVE_WORDS = { play: N_("Play"), draw: N_("Draw"), pass: N_("Pass"), nominate: N_("Nominate") };

// The moves whose cards come out of the hand (the others' cards are shown, not selected).
export const FROM_HAND = ["play"];

export function moveLabel(a, words) {
  return a.kind === "nominate" && a.suit ? `${words} ${suitName(a.suit)}` : words;
}
