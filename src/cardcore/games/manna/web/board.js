// Manna from Heaven on the web table: the stock, the pile, and each team's melds.
import { fact, pile } from "/static/board.js";
import { el, fan, cardsText } from "/static/cards.js";
import { t } from "/static/i18n.js";
import { seatName } from "/static/words.js";
import { CANASTA_KINDS, canastaKind } from "/games/manna/words.js";

export function board(v, ctx) {
  const top = v.discard.length ? v.discard[v.discard.length - 1] : null;
  const facts = el("div", { class: "facts" },
    fact(t("Hand"), String(v.hand_number)), fact(t("Dealer"), seatName(v.dealer, ctx)),
    fact(t("Minimum first meld"), t("team 0: {a}, team 1: {b}", { a: v.min_meld[0], b: v.min_meld[1] })),
    fact(t("Melded this turn"), String(v.turn_points)));
  const piles = el("div", { class: "piles" },
    pile(t("Stock"), [], { back: true, count: v.stock_size, ...ctx.pileAction("draw_stock") }),
    pile(v.frozen ? t("Discard pile (frozen)") : t("Discard pile"), top ? v.discard : [], { limit: 4, count: v.discard.length, ...ctx.pileAction("take_pile") }));
  const teams = el("div", { class: "teams" });
  for (const team of [0, 1]) {
    const seats = [0, 1, 2, 3, 4, 5].filter((s) => s % 2 === team).map((s) => (s === ctx.me ? t("you") : s)).join(", ");
    const box = el("div", { class: `team team-${team}${v.team === team ? " my-team" : ""}`, dataset: { team: String(team) } },
      el("h3", {}, v.opened[team] ? t("Team {n} (seats {seats}) — {points} points", { n: team, seats, points: v.scores[team] })
        : t("Team {n} (seats {seats}) — {points} points, not opened", { n: team, seats, points: v.scores[team] })));
    box.append(el("div", { class: "red-threes" }, `${t("Red threes:")} `, ...(v.red_threes[team].length ? cardsText(v.red_threes[team]) : [t("none")])));
    // How many canastas of each kind the team has (MH-10.1 pays by kind).
    const kinds = {};
    for (const meld of v.melds[team]) if (meld.complete && meld.type) kinds[meld.type] = (kinds[meld.type] || 0) + 1;
    const counted = Object.keys(CANASTA_KINDS).filter((k) => kinds[k]).map((k) => `${canastaKind(k)} ${kinds[k]}`);
    if (counted.length) box.append(el("div", { class: "canasta-counts" }, `${t("Canastas:")} ${counted.join(", ")}`));
    const melds = el("div", { class: "melds" });
    for (const meld of v.melds[team]) {
      const label = meld.rank === "wild" ? t("wild cards") : t("{rank}s", { rank: meld.rank });
      melds.append(el("div", { class: `meld${meld.complete ? " complete" : ""}` },
        el("div", { class: "meld-title" }, `${label} · ${meld.cards.length}${meld.complete ? ` · ${t("{kind} canasta", { kind: canastaKind(meld.type) })}` : ""}`),
        fan(meld.cards, "small")));
    }
    if (!v.melds[team].length) melds.append(el("p", { class: "hint" }, t("no melds yet")));
    box.append(melds);
    teams.append(box);
  }
  return [facts, piles, teams];
}

export function seat(v, seat, ctx) {
  return [t("team {n}", { n: seat % 2 }), v.foot_sizes[seat] ? t("foot {n}", { n: v.foot_sizes[seat] }) : t("foot taken")];
}
