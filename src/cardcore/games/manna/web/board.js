// Manna from Heaven on the web table: layout hints only (docs/server.md, "The web table"); the
// zones (the teams' melds among them), their labels and what moves come from the state.
import { N_ } from "/static/i18n.js";

export const layout = {
  center: ["stock", "discard"],
  stack: [],
  limit: { discard: 4 },
  facts: [
    { key: "hand_number", label: N_("Hand") },
    { key: "dealer", label: N_("Dealer"), as: "seat" },
    { key: "min_meld", label: N_("Minimum first meld"), as: "teams" },
    { key: "turn_points", label: N_("Melded this turn") },
    { key: "frozen", label: N_("Discard pile"), words: { true: N_("frozen"), false: N_("not frozen") } },
  ],
  seat_facts: [],
  actions: {
    draw_stock: N_("Draw from the stock"), discard: N_("Discard"), go_out: N_("Go out"), take_pile: N_("Take the pile"),
    meld: N_("Meld"), retract: N_("Take back melds"),
  },
};
