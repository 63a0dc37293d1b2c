// Durak in words on the web table: its moves' buttons and its suits (msgids in this game's
// catalog, src/cardcore/games/durak/locale). What happened is the server's (each event's text).
import { N_, t } from "/static/i18n.js";

export const SUIT_NAMES = { C: N_("clubs"), D: N_("diamonds"), H: N_("hearts"), S: N_("spades") };
export function suitName(suit) { return SUIT_NAMES[suit] ? t(SUIT_NAMES[suit]) : suit; }

export const MOVE_WORDS = { attack: N_("Attack"), beat: N_("Beat"), transfer: N_("Transfer"), take: N_("Take"), pass: N_("Pass") };
