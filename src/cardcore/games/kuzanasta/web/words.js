// Kuzanasta in words on the web table: its events and its moves (msgids in this game's
// catalog, src/cardcore/games/kuzanasta/locale).
import { cardsText } from "/static/cards.js";
import { N_, t, tx } from "/static/i18n.js";
import { cardsOrCount, seatName, who } from "/static/words.js";

// Why a deal ended with nobody out (KZ-7).
const DEAL_ENDS = { no_draw: N_("nothing left to draw"), max_turns: N_("the turn limit was reached") };

export const EVENT_WORDS = {
  turn_up: (e, c) => e.wild_rank ? tx("Turned up {cards}: {rank}s are wild.", { cards: cardsText(e.cards || []), rank: e.wild_rank })
    : tx("Turned up {cards}.", { cards: cardsText(e.cards || []) }),
  pile_start: (e, c) => tx("Discard pile {n} starts with {cards}.", { n: e.pile, cards: cardsText(e.cards || []) }),
  set_aside: (e, c) => [t("{n} cards are set aside.", { n: (e.cards || []).length || e.hidden || 0 })],
  draw_discard: (e, c) => who(e.player, c, N_("You took {cards}, the top card of the discard pile."), N_("{who} took {cards}, the top card of the discard pile."), { cards: cardsOrCount(e, t("a card")) }),
  god_look: (e, c) => who(e.player, c, N_("You looked at God's cards."), N_("{who} looked at God's cards.")),
  god_draw: (e, c) => who(e.player, c, N_("You drew {cards} from God."), N_("{who} drew {cards} from God."), { cards: cardsOrCount(e, t("a card")) }),
  god_discard: (e, c) => who(e.player, c, N_("You started a new pile with {cards}."), N_("{who} started a new pile with {cards}."), { cards: cardsOrCount(e) }),
  recycle: (e, c) => tx("Pile {n} was turned into the stock ({cards}).", { n: e.pile, cards: cardsOrCount(e) }),
  pile_dead: (e, c) => tx("A discard pile left play: {cards}.", { cards: cardsOrCount(e) }),
  deal_end: (e, c) => e.winner === null || e.winner === undefined
    ? [t("Deal {n} ends with nobody out ({why}).", { n: e.deal, why: t(DEAL_ENDS[e.end] || e.end || "") })]
    : tx("Deal {n} is over: {who} went out with {cards}.", { n: e.deal, who: seatName(e.winner, c), cards: cardsText(e.cards || []) }),
};

export const MOVE_WORDS = {
  draw_stock: N_("Draw from the stock"), draw_discard: N_("Take the top discard"), god_look: N_("Look at God"),
  god_draw: N_("Draw from God"), discard: N_("Discard"), god_discard: N_("Discard to a new pile"), end_turn: N_("End turn"),
  go_out: N_("Go out"),
};

export const FROM_HAND = ["discard", "god_discard"];
