// Manna from Heaven on the web table: the stock, the pile, and each team's melds.
import { fact, pile } from "/static/board.js";
import { el, fan, cardsText } from "/static/cards.js";
import { seatName } from "/static/words.js";

export function board(v, ctx) {
  const top = v.discard.length ? v.discard[v.discard.length - 1] : null;
  const facts = el("div", { class: "facts" },
    fact("Hand", String(v.hand_number)), fact("Dealer", seatName(v.dealer, ctx)),
    fact("Minimum first meld", `team 0: ${v.min_meld[0]}, team 1: ${v.min_meld[1]}`),
    fact("Melded this turn", String(v.turn_points)));
  const piles = el("div", { class: "piles" },
    pile("Stock", [], { back: true, count: v.stock_size, ...ctx.pileAction("draw_stock") }),
    pile(`Discard pile${v.frozen ? " (frozen)" : ""}`, top ? v.discard : [], { limit: 4, count: v.discard.length, ...ctx.pileAction("take_pile") }));
  const teams = el("div", { class: "teams" });
  for (const team of [0, 1]) {
    const seats = [0, 1, 2, 3, 4, 5].filter((s) => s % 2 === team).map((s) => (s === ctx.me ? "you" : s)).join(", ");
    const box = el("div", { class: `team team-${team}${v.team === team ? " my-team" : ""}`, dataset: { team: String(team) } },
      el("h3", {}, `Team ${team} (seats ${seats}) — ${v.scores[team]} points${v.opened[team] ? "" : ", not opened"}`));
    box.append(el("div", { class: "red-threes" }, "Red threes: ", ...(v.red_threes[team].length ? cardsText(v.red_threes[team]) : ["none"])));
    const melds = el("div", { class: "melds" });
    for (const meld of v.melds[team]) {
      const label = meld.rank === "wild" ? "wild" : `${meld.rank}s`;
      melds.append(el("div", { class: `meld${meld.complete ? " complete" : ""}` },
        el("div", { class: "meld-title" }, `${label} · ${meld.cards.length}${meld.complete ? ` · ${meld.type} canasta` : ""}`),
        fan(meld.cards, "small")));
    }
    if (!v.melds[team].length) melds.append(el("p", { class: "hint" }, "no melds yet"));
    box.append(melds);
    teams.append(box);
  }
  return [facts, piles, teams];
}

export function seat(v, seat, ctx) {
  return [`team ${seat % 2}`, v.foot_sizes[seat] ? `foot ${v.foot_sizes[seat]}` : "foot taken"];
}
