// The table in the middle, per game: piles, melds by team, stakes, wild rank...
// Each board is built from the seat's view (or the spectator's) only.
import { el, cardImage, backImage, fan, cardsText } from "./cards.js";
import { seatName } from "./words.js";

function fact(label, value, extra = {}) {
  return el("div", { class: "fact", ...extra }, el("span", { class: "label" }, label), " ", el("span", { class: "value" }, value));
}

function pile(title, cards, opts = {}) {
  const box = el("div", { class: `pile${opts.clickable ? " clickable" : ""}`, dataset: opts.dataset || {} },
    el("div", { class: "pile-title" }, title));
  if (opts.back) box.append(opts.count ? backImage("normal") : el("div", { class: "empty-pile" }, "empty"));
  else if (cards.length) box.append(fan(cards, opts.size || "normal", opts.limit || 0));
  else box.append(el("div", { class: "empty-pile" }, "empty"));
  if (opts.count !== undefined) box.append(el("div", { class: "pile-count" }, `${opts.count} card${opts.count === 1 ? "" : "s"}`));
  if (opts.onclick) box.addEventListener("click", opts.onclick);
  return box;
}

// ---------------------------------------------------------------- Kings' Stakes
function kingsStakes(v, ctx) {
  const arrow = v.direction === 1 ? "→ clockwise" : "← counter-clockwise";
  const facts = el("div", { class: "facts" },
    fact("Round", `${v.round} of ${v.rounds}`), fact("Stake", String(v.stake), { id: "stake" }),
    fact("Direction", arrow), fact("Chip", v.chip_holder === null ? "nobody" : seatName(v.chip_holder, ctx)));
  if (v.out_player !== null && v.out_player !== undefined) facts.append(fact("Out", seatName(v.out_player, ctx)));
  if (v.teams) facts.append(fact("Teams", v.teams.map((t) => t.join("+")).join(" vs ")));
  const piles = el("div", { class: "piles" },
    pile("Stock", [], { back: true, count: v.stock_size, ...ctx.pileAction("refill") }),
    pile("On the table", v.table, { ...ctx.pileAction("take") }),
    pile("Discard", v.discard, { limit: 6, size: "small", count: v.discard.length }));
  const last = v.last_play ? el("p", { class: "last" }, `Last: ${seatName(v.last_play.player, ctx)} — ${v.last_play.action}`) : null;
  return [facts, piles, last];
}

function kingsStakesSeat(v, seat, ctx) {
  const bits = [`penalty cards ${v.penalty_counts[seat]}`];
  if (v.chip_holder === seat) bits.push("holds the chip");
  return bits;
}

// ---------------------------------------------------------------- Kuzanasta
function kuzanasta(v, ctx) {
  const facts = el("div", { class: "facts" },
    fact("Deal", String(v.deal)), fact("Wild rank", v.wild_rank || "none"),
    fact("Dealer", seatName(v.dealer, ctx)), fact("Pot", String(v.pot)),
    fact("God", v.god_holder === null || v.god_holder === undefined ? "in play" : `with ${seatName(v.god_holder, ctx)}`));
  const piles = el("div", { class: "piles" }, pile("Turn-up", [v.turn_up]));
  (v.stock_sizes || []).forEach((size, k) => {
    const mine = v.my_pile === k;
    piles.append(pile(`Stock ${k}${mine ? " (yours)" : ""}`, [], { back: true, count: size, ...(mine ? ctx.pileAction("draw_stock") : {}) }));
  });
  (v.discards || []).forEach((cards, k) => {
    const owners = (v.pile_of || []).map((p, s) => (p === k ? s : null)).filter((s) => s !== null);
    const mine = v.my_pile === k;
    piles.append(pile(`Discards ${k} (${owners.map((s) => seatName(s, ctx)).join(", ")})`, cards,
      { limit: 5, count: cards.length, ...(mine ? ctx.pileAction("draw_discard") : {}) }));
  });
  const out = [facts, piles];
  if (v.best_sets && v.best_sets.sets) {
    out.push(el("p", { class: "best-sets" }, `Your best sets: ${v.best_sets.sets.join(", ") || "none"} (worth ${v.best_sets.value})`));
  }
  if (v.last_deal && v.last_deal.end === "went_out") {
    const d = v.last_deal;
    out.push(el("p", { class: "last" }, `Last deal: ${seatName(d.winner, ctx)} went out with `, ...cardsText(d.hand),
      ` — sets ${d.sets.map((s) => `${s.set} (${s.value})`).join(", ")}, hand points ${d.hand_points}, total ${d.total}.`));
  }
  return out;
}

function kuzanastaSeat(v, seat, ctx) {
  const bits = [`chips ${v.chips[seat]}`];
  if (v.pile_of) bits.push(`pile ${v.pile_of[seat]}`);
  return bits;
}

// ---------------------------------------------------------------- Manna from Heaven
function manna(v, ctx) {
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

function mannaSeat(v, seat, ctx) {
  return [`team ${seat % 2}`, v.foot_sizes[seat] ? `foot ${v.foot_sizes[seat]}` : "foot taken"];
}

// ---------------------------------------------------------------- any other game
function generic(v, ctx) {
  const skip = new Set(["game", "player", "current_player", "phase", "hand", "hand_sizes", "scores", "legal_actions"]);
  return [el("div", { class: "facts" }, ...Object.entries(v).filter(([k]) => !skip.has(k))
    .map(([k, value]) => fact(k.replace(/_/g, " "), JSON.stringify(value))))];
}

export const BOARDS = {
  kings_stakes: { board: kingsStakes, seat: kingsStakesSeat },
  kuzanasta: { board: kuzanasta, seat: kuzanastaSeat },
  manna: { board: manna, seat: mannaSeat },
};

export function boardFor(game) {
  return BOARDS[game] || { board: generic, seat: () => [] };
}
