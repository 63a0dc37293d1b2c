// Belote Contrée on the web table: layout hints only (docs/server.md, "The web table"): the
// trick in the middle, each partnership's won tricks in its team box (seats 0+2, 1+3); the
// zones, their labels and what moves come from the state.
import { N_ } from "/static/i18n.js";

export const layout = {
  center: ["trick"],
  stack: ["won"],
  limit: {},
  facts: [
    { key: "trump", label: N_("Trumps"), words: { S: N_("spades"), H: N_("hearts"), D: N_("diamonds"), C: N_("clubs"), NT: N_("no trumps"), AT: N_("all trumps") }, none: N_("none yet") },
    { key: "points", label: N_("Card points"), as: "teams" },
    { key: "tricks_won", label: N_("Tricks"), as: "teams" },
    { key: "trick_master", label: N_("Holds the trick"), as: "seat", hide: true },
    { key: "belote_seat", label: N_("Belote"), as: "seat", hide: true },
    { key: "dealer", label: N_("Dealer"), as: "seat" },
    // a match to match_to points (BE-10): the deal's number and the target
    { key: "deal_number", label: N_("Deal"), when: "match_to" },
    { key: "match_to", label: N_("Match to"), hide: true },
  ],
  seat_facts: [{ key: "dealer", label: N_("dealer"), is_seat: true }],
  actions: { play: N_("Play"), pass: N_("Pass"), bid: N_("Bid"), capot: N_("Capot"), contre: N_("Contre"), surcontre: N_("Surcontre") },
};
