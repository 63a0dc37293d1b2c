// Kings' Stakes on the web table: layout hints only (docs/server.md, "The web table"); the
// zones, their labels and what moves come from the state.
import { N_ } from "/static/i18n.js";

export const layout = {
  center: ["stock", "table", "discard"],
  stack: [],
  limit: { discard: 6 },
  facts: [
    { key: "round", label: N_("Round"), of: "rounds" },
    { key: "stake", label: N_("Stake") },
    { key: "direction", label: N_("Direction"), words: { 1: N_("→ clockwise"), "-1": N_("← counter-clockwise") } },
    { key: "chip_holder", label: N_("Chip"), as: "seat", none: N_("nobody") },
    { key: "out_player", label: N_("Out"), as: "seat", hide: true },
  ],
  seat_facts: [{ key: "chip_holder", label: N_("holds the chip"), is_seat: true }],
  actions: { play: N_("Play"), take: N_("Take the table"), refill: N_("Refill"), end_turn: N_("End turn") },
};
