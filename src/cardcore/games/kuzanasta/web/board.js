// Kuzanasta on the web table: layout hints only (docs/server.md, "The web table"); the zones,
// their labels and what moves come from the state.
import { N_ } from "/static/i18n.js";

// The wild rank in words ("jacks"), as the terminal says it (words.py RANK_WORDS).
const RANKS = { A: N_("aces"), 2: N_("twos"), 3: N_("threes"), 4: N_("fours"), 5: N_("fives"),
  6: N_("sixes"), 7: N_("sevens"), 8: N_("eights"), 9: N_("nines"), 10: N_("tens"), J: N_("jacks"),
  Q: N_("queens"), K: N_("kings") };

export const layout = {
  center: ["stock", "discard", "aside", "dead"],
  stack: [],
  limit: { discard: 5 },
  facts: [
    { key: "deal", label: N_("Deal") },
    { key: "wild_rank", label: N_("Wild cards"), words: RANKS, none: N_("none") },
    { key: "turn_up", label: N_("Turn-up"), as: "cards" },
    { key: "dealer", label: N_("Dealer"), as: "seat" },
    { key: "pot", label: N_("Pot") },
    { key: "god_holder", label: N_("God"), as: "seat", none: N_("in play") },
  ],
  seat_facts: [{ key: "chips", label: N_("chips {n}") }, { key: "pile_of", label: N_("pile {n}") }],
  actions: {
    draw_stock: N_("Draw from the stock"), draw_discard: N_("Take the top discard"), god_look: N_("Look at God"),
    god_draw: N_("Draw from God"), discard: N_("Discard"), god_discard: N_("Discard to a new pile"), end_turn: N_("End turn"),
    go_out: N_("Go out"),
  },
};
