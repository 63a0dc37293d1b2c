// Crazy Eights in words on the web table: its moves' buttons and its suits (msgids in this
// game's catalog, src/cardcore/games/crazy_eights/locale). What happened is the server's
// (each event's text).
import { N_, t } from "/static/i18n.js";

export const SUIT_NAMES = { C: N_("clubs"), D: N_("diamonds"), H: N_("hearts"), S: N_("spades") };
export function suitName(suit) { return SUIT_NAMES[suit] ? t(SUIT_NAMES[suit]) : suit; }

export const MOVE_WORDS = { play: N_("Play"), draw: N_("Draw"), pass: N_("Pass"), nominate: N_("Nominate") };


export function moveLabel(a, words) {
  return a.kind === "nominate" && a.suit ? `${words} ${suitName(a.suit)}` : words;
}
