// Durak on the web table: layout hints only (docs/server.md, "The web table"): the stock
// with the face-up trump card at its bottom, the bout on the table in play order, the discard
// pile; the zones, their labels and what moves come from the state.
import { N_ } from "/static/i18n.js";

export const layout = {
  center: ["stock", "table", "discard"],
  stack: [],
  limit: { discard: 4 },
  facts: [
    { key: "trump_suit", label: N_("Trumps"), words: { C: N_("clubs"), D: N_("diamonds"), H: N_("hearts"), S: N_("spades") } },
    { key: "trump_card", label: N_("Trump card"), as: "cards" },
    { key: "attacker", label: N_("Attacker"), as: "seat", hide: true, say: [N_("You attack"), N_("{who} attacks")] },
    { key: "defender", label: N_("Defender"), as: "seat", hide: true, say: [N_("You defend"), N_("{who} defends")] },
    { key: "bout_limit", label: N_("Attacking cards at most") },
    { key: "defender", label: N_("Taking"), as: "seat", when: "taking", say: [N_("You take; the others may throw in"), N_("{defender} takes; the others may throw in")] },
    { key: "durak", label: N_("Durak"), as: "seat", hide: true },
    { key: "dealer", label: N_("Dealer"), as: "seat" },
  ],
  seat_facts: [
    { key: "attacker", label: N_("attacks"), is_seat: true },
    { key: "defender", label: N_("defends"), is_seat: true },
    { key: "durak", label: N_("durak"), is_seat: true },
  ],
  actions: { attack: N_("Attack"), beat: N_("Beat"), transfer: N_("Transfer"), take: N_("Take"), pass: N_("Pass") },
  // While throwing in: a card is thrown in, and passing says the bout is beaten («Бито») or,
  // after a take, that the taker has enough («Хватит»).
  phase_actions: {
    throw_in: { attack: N_("Throw in"), pass: N_("Beaten") },
    take_throw_in: { attack: N_("Throw in"), pass: N_("Enough") },
  },
  // The hint: there is no winner, only a durak (DU-8.2).
  hint: N_("Suggested: {move} (not the durak in {share}% of the searched games)"),
  // The turn line: [yours, theirs, theirs while you take]; {about}: the defender.
  turn: {
    over: "event",                     // the end as the events say it: «Игра окончена. Вы не дурак!»
    attack: { say: [N_("You attack."), N_("{who} attacks.")] },
    defend: { say: [N_("You defend."), N_("{who} defends.")] },
    throw_in: { say: [N_("You throw in."), N_("{who} throws in.")] },
    take_throw_in: { about: "defender", say: [N_("You throw in ({about} takes)."), N_("{who} throws in ({about} takes)."), N_("{who} throws in (you take).")] },
  },
};
