// Manna from Heaven in words on the web table: its events and its moves (msgids in this
// game's catalog, src/cardcore/games/manna/locale).
import { cardsText } from "/static/cards.js";
import { N_, t, tx } from "/static/i18n.js";
import { seatName, who } from "/static/words.js";

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

export const EVENT_WORDS = {
  foot_dealt: (e, c) => who(e.player, c, N_("You get a foot of {n} cards, face down."), N_("{who} gets a foot of {n} cards, face down."), { n: e.hidden || (e.cards || []).length }),
  first_discard: (e, c) => tx("The discard pile starts with {cards}.", { cards: cardsText(e.cards || []) }),
  red_three: (e, c) => (e.replaced ? tx("A red three goes before team {team}: {cards} (replaced from the stock).", { team: e.team, cards: cardsText(e.cards || []) })
    : tx("A red three goes before team {team}: {cards}.", { team: e.team, cards: cardsText(e.cards || []) })),
  take_pile: (e, c) => [...who(e.player, c, N_("You took the pile ({how})"), N_("{who} took the pile ({how})"), { how: takeWords(e.action) }),
    ...(e.cards && e.cards.length ? [": ", ...cardsText(e.cards)] : []), ...(e.melded ? ["; ", ...tx("melded {cards}", { cards: cardsText(e.melded) })] : []), "."],
  meld: (e, c) => [...who(e.player, c, N_("You melded {cards}"), N_("{who} melded {cards}"), { cards: cardsText(e.cards || []) }),
    e.turn_points ? ` (${e.min_meld ? t("{n} points this turn; the first meld needs {min}", { n: e.turn_points, min: e.min_meld }) : t("{n} points this turn", { n: e.turn_points })})` : "", "."],
  retract: (e, c) => who(e.player, c, N_("You took back the melds: {cards}."), N_("{who} took back the melds: {cards}."), { cards: cardsText(e.cards || []) }),
  canasta: (e, c) => who(e.player, c, N_("You completed a {type} canasta of {rank}s for team {team}."), N_("{who} completed a {type} canasta of {rank}s for team {team}."),
    { type: canastaKind(e.type), rank: e.rank === "wild" ? t("wild cards") : e.rank, team: e.team }),
  foot: (e, c) => e.cards && e.cards.length
    ? who(e.player, c, N_("You picked up the foot: {cards}."), N_("{who} picked up the foot: {cards}."), { cards: cardsText(e.cards) })
    : who(e.player, c, N_("You picked up the foot."), N_("{who} picked up the foot.")),
  hand_end: (e, c) => [e.went_out !== null && e.went_out !== undefined
    ? t("Hand {n} is over: {who} went out.", { n: e.hand, who: seatName(e.went_out, c) })
    : t("Hand {n} is over.", { n: e.hand })],
};

export const MOVE_WORDS = {
  draw_stock: N_("Draw from the stock"), discard: N_("Discard"), go_out: N_("Go out"), take_pile: N_("Take the pile"),
  meld: N_("Meld"), retract: N_("Take back melds"),
};

export const FROM_HAND = ["discard", "meld"];

// A pile take melds its top card with cards from the hand (info.from_hand).
export function handCards(a) {
  return a.kind === "take_pile" && Array.isArray(a.from_hand) ? a.from_hand : null;
}

export function moveLabel(a, words) {
  if (a.kind === "meld" && a.group) {
    if (a.group === "wild") return a.new === false ? t("Add to the wild cards") : t("New meld of wild cards");
    return a.new === false ? t("Add to the {rank}s", { rank: a.group }) : t("New meld of {rank}s", { rank: a.group });
  }
  if (a.kind === "take_pile") return `${words} (${takeWords(a.label)})`;
  return words;
}
