// Gin Rummy on the web table: layout hints only (docs/server.md, "The web table"); the
// zones, their labels and what moves come from the state.
import { N_ } from "/static/i18n.js";

export const layout = {
  center: ["stock", "discard"],
  stack: [],
  limit: { discard: 6 },
  facts: [
    { key: "suit", label: N_("Suit to follow"), words: { C: N_("clubs"), D: N_("diamonds"), H: N_("hearts"), S: N_("spades") } },
    { key: "top_card", label: N_("Top card"), as: "cards", none: N_("none") },
    { key: "direction", label: N_("Direction"), words: { 1: N_("→ up the seats"), "-1": N_("← down the seats") } },
    { key: "draws_this_turn", label: N_("Draws this turn"), of: "max_draw_cards" },
    { key: "plays", label: N_("Plays"), of: "max_turns" },
    { key: "dealer", label: N_("Dealer"), as: "seat" },
    { key: "draw_two_owed", label: N_("Owed"), hide: true },
    { key: "passes", label: N_("Passes"), hide: true },
  ],
  seat_facts: [{ key: "dealer", label: N_("dealer"), is_seat: true }],
  actions: { play: N_("Play"), draw: N_("Draw"), pass: N_("Pass"), nominate: N_("Nominate") },
};
