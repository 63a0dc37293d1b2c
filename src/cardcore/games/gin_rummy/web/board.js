// Gin Rummy on the web table: layout hints only (docs/server.md, "The web table"); the
// zones, their labels and what moves come from the state.
import { N_ } from "/static/i18n.js";

export const layout = {
  center: ["stock", "upcard", "discard"],
  stack: [],
  limit: { discard: 6 },
  facts: [
    { key: "upcard", label: N_("Upcard"), as: "cards", none: N_("none") },
    { key: "knock_card", label: N_("Knock card") },
    { key: "deadwood", label: N_("Your deadwood"), hide: true },
    { key: "upcard_draws", label: N_("Upcards drawn"), hide: true },
    { key: "taken", label: N_("Taken this turn"), as: "cards", hide: true },
    { key: "big_gin", label: N_("Big gin"), hide: true, words: { true: N_("yes") } },
    // a match to match_to points (GR-11): the hand's number and the target
    { key: "hand_number", label: N_("Hand"), when: "match_to" },
    { key: "match_to", label: N_("Game to"), hide: true },
  ],
  seat_facts: [{ key: "hands_won", label: N_("hands won {n}") }],
  actions: {
    card: N_("Card"), draw_upcard: N_("Take upcard"), draw_stock: N_("Draw"), pass: N_("Pass"),
    knock: N_("Knock"), meld: N_("Meld"),
  },
};
