// Kuzanasta in words on the web table: its moves' buttons (msgids in this game's catalog,
// src/cardcore/games/kuzanasta/locale). What happened is the server's (each event's text).
import { N_ } from "/static/i18n.js";

export const MOVE_WORDS = {
  draw_stock: N_("Draw from the stock"), draw_discard: N_("Take the top discard"), god_look: N_("Look at God"),
  god_draw: N_("Draw from God"), discard: N_("Discard"), god_discard: N_("Discard to a new pile"), end_turn: N_("End turn"),
  go_out: N_("Go out"),
};

