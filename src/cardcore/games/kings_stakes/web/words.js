// Kings' Stakes in words on the web table: its events and its moves (msgids in this game's
// catalog, src/cardcore/games/kings_stakes/locale).
import { cardLabel, cardsText } from "/static/cards.js";
import { N_, t, tx } from "/static/i18n.js";
import { cardsOrCount, seatName, who } from "/static/words.js";

export const EVENT_WORDS = {
  play: (e, c) => [...who(e.player, c, N_("You played {cards}."), N_("{who} played {cards}."), { cards: cardsOrCount(e) }),
    e.stake !== undefined ? ` ${t("Stake {n}.", { n: e.stake })}` : ""],
  take: (e, c) => e.cards && e.cards.length
    ? who(e.player, c, N_("You took the table: {cards}."), N_("{who} took the table: {cards}."), { cards: cardsText(e.cards) })
    : who(e.player, c, N_("You took the table."), N_("{who} took the table.")),
  refill: (e, c) => who(e.player, c, N_("You refilled from the stock."), N_("{who} refilled from the stock.")),
  draw: (e, c) => who(e.player, c, N_("You drew {cards}."), N_("{who} drew {cards}."), { cards: cardsOrCount(e) }),
  table_cleared: (e, c) => tx("A king cleared the table: {cards} went to the discard.", { cards: cardsText(e.cards || []) }),
  chip: (e, c) => who(e.player, c, N_("You take the forget-me chip."), N_("{who} takes the forget-me chip.")),
  out: (e, c) => who(e.player, c, N_("You are out of cards."), N_("{who} is out of cards.")),
  round_end: (e, c) => [t("Round {n} is over: points this round {points}; scores {scores}.",
    { n: e.round, points: (e.round_points || []).join(" / "), scores: (e.scores || []).join(" / ") })],
};

export const MOVE_WORDS = { play: N_("Play"), take: N_("Take the table"), refill: N_("Refill"), end_turn: N_("End turn") };

// The moves whose cards come out of the hand (the others' cards are shown, not selected).
export const FROM_HAND = ["play"];

export function moveLabel(a, words) {
  if (a.kind === "play" && Array.isArray(a.jokers_as) && a.jokers_as.length) {
    return `${words} (${a.jokers_as.map((card) => t("joker as {card}", { card: cardLabel(card) })).join(", ")})`;
  }
  return words;
}
