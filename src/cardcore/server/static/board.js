// The table in the middle. Each game's package brings its own board (served at
// /games/<game>/board.js: `board(view, ctx)` and `seat(view, seat, ctx)`) built from the
// seat's view (or the spectator's) only; this module has the pieces they share and the board
// of a game that brings none.
import { el, backImage, fan } from "./cards.js";
import { t } from "./i18n.js";

export function fact(label, value, extra = {}) {
  return el("div", { class: "fact", ...extra }, el("span", { class: "label" }, label), " ", el("span", { class: "value" }, value));
}

export function pile(title, cards, opts = {}) {
  const box = el("div", { class: `pile${opts.clickable ? " clickable" : ""}`, dataset: opts.dataset || {} },
    el("div", { class: "pile-title" }, title));
  if (opts.back) box.append(opts.count ? backImage("normal") : el("div", { class: "empty-pile" }, t("empty")));
  else if (cards.length) box.append(fan(cards, opts.size || "normal", opts.limit || 0));
  else box.append(el("div", { class: "empty-pile" }, t("empty")));
  if (opts.count !== undefined) box.append(el("div", { class: "pile-count" }, t("{n} card(s)", { n: opts.count })));
  if (opts.onclick) {
    // A clickable pile is a button for the keyboard and screen readers too.
    box.setAttribute("role", "button");
    box.setAttribute("tabindex", "0");
    box.addEventListener("click", opts.onclick);
    box.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); opts.onclick(); } });
  }
  return box;
}

// A game without a board of its own: every view key but the common ones, as facts.
const COMMON_KEYS = new Set(["game", "player", "current_player", "phase", "hand", "hand_sizes", "scores", "legal_actions"]);

export const genericBoard = {
  board: (v) => [el("div", { class: "facts" }, ...Object.entries(v).filter(([k]) => !COMMON_KEYS.has(k))
    .map(([k, value]) => fact(k.replace(/_/g, " "), JSON.stringify(value))))],
  seat: () => [],
};

// The game's own board and words, from its package; a game may bring neither.
async function gameModule(game, file) {
  try {
    return await import(`/games/${encodeURIComponent(game)}/${file}`);
  } catch (e) {
    return {};
  }
}

export async function loadGame(game) {
  const [board, words] = await Promise.all([gameModule(game, "board.js"), gameModule(game, "words.js")]);
  return {
    board: board.board ? board : genericBoard,
    words,
  };
}
