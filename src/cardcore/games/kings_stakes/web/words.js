// Kings' Stakes in words on the web table: its moves' buttons (msgids in this game's
// catalog, src/cardcore/games/kings_stakes/locale). What happened is the server's (each
// event's text).
import { cardLabel } from "/static/cards.js";
import { N_, t } from "/static/i18n.js";

export const MOVE_WORDS = { play: N_("Play"), take: N_("Take the table"), refill: N_("Refill"), end_turn: N_("End turn") };


export function moveLabel(a, words) {
  if (a.kind === "play" && Array.isArray(a.jokers_as) && a.jokers_as.length) {
    return `${words} (${a.jokers_as.map((card) => t("joker as {card}", { card: cardLabel(card) })).join(", ")})`;
  }
  return words;
}
