// Manna from Heaven in words on the web table: its moves' buttons and canasta kinds (msgids
// in this game's catalog, src/cardcore/games/manna/locale). What happened is the server's
// (each event's text).
import { N_, t } from "/static/i18n.js";

// The ways to take the pile (MH-5.3), in words.
const TAKE_WORDS = {
  "take add": N_("its top card added to your meld"),
  "take natural+two": N_("its top card melded with a natural and a two"),
  "take natural+joker": N_("its top card melded with a natural and a joker"),
  "take pair": N_("its top card melded with a natural pair"),
};

// Canasta kinds (MH-4), as an adjective before "canasta".
export const CANASTA_KINDS = { natural: N_("natural"), mixed: N_("mixed"), wild: N_("wild"), sevens: N_("sevens") };
export function canastaKind(type) { return CANASTA_KINDS[type] ? t(CANASTA_KINDS[type]) : type || ""; }

function takeWords(action) { return TAKE_WORDS[action] ? t(TAKE_WORDS[action]) : action; }

export const MOVE_WORDS = {
  draw_stock: N_("Draw from the stock"), discard: N_("Discard"), go_out: N_("Go out"), take_pile: N_("Take the pile"),
  meld: N_("Meld"), retract: N_("Take back melds"),
};


export function moveLabel(a, words) {
  if (a.kind === "meld" && a.group) {
    if (a.group === "wild") return a.new === false ? t("Add to the wild cards") : t("New meld of wild cards");
    return a.new === false ? t("Add to the {rank}s", { rank: a.group }) : t("New meld of {rank}s", { rank: a.group });
  }
  if (a.kind === "take_pile") return `${words} (${takeWords(a.label)})`;
  return words;
}
