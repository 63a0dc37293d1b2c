// Card pictures and card words. Pictures are the server's SVGs (/cards/<card>.svg).
import { t } from "./i18n.js";

const SUITS = { C: "♣", S: "♠", D: "♦", H: "♥" };

export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// The cards that are wild now (the state's wild_cards, from the game): their pictures are
// marked and their names say so, in every zone.
let wild = new Set();
export function setWildCards(cards) { wild = new Set(cards || []); }

export function cardImage(card, size = "normal") {
  const name = cardTitle(card);
  return el("img", {
    class: `card-img ${size}${wild.has(card) ? " wild" : ""}`,
    src: `/cards/${encodeURIComponent(card)}.svg`, alt: name, title: name, draggable: "false",
  });
}

export function backImage(size = "small") {
  return el("img", { class: `card-img ${size}`, src: "/cards/back.svg", alt: t("card back"), draggable: "false" });
}

// Card names in words, for screen readers and tooltips: "queen of spades".
const RANK_WORDS = () => ({ A: t("ace"), J: t("jack"), Q: t("queen"), K: t("king") });
const SUIT_WORDS = () => ({ C: t("of clubs"), S: t("of spades"), D: t("of diamonds"), H: t("of hearts") });

export function cardName(card) {
  if (card === "JK") return t("joker");
  const rank = card.slice(0, -1), suit = card.slice(-1);
  return t("{rank} {of_suit}", { rank: RANK_WORDS()[rank] || rank, of_suit: SUIT_WORDS()[suit] || suit });
}

// A card's name with "wild card" when it is one: "two of clubs, wild card".
export function cardTitle(card) {
  return wild.has(card) ? t("{card}, wild card", { card: cardName(card) }) : cardName(card);
}

// A card as coloured text, e.g. 10♥ in red.
export function cardText(card) {
  if (card === "JK") return el("span", { class: "ct joker" }, "🃏JK");
  const suit = card.slice(-1);
  const red = suit === "D" || suit === "H";
  return el("span", { class: `ct ${red ? "red" : "black"}` }, card.slice(0, -1) + (SUITS[suit] || suit));
}

export function cardsText(cards) {
  const out = [];
  cards.forEach((card, i) => { if (i) out.push(" "); out.push(cardText(card)); });
  return out;
}

// A fanned row of card pictures (overlapping when there are many).
export function fan(cards, size = "small", limit = 0) {
  const shown = limit && cards.length > limit ? cards.slice(-limit) : cards;
  const row = el("div", { class: `fan ${size}` });
  if (limit && cards.length > limit) row.append(el("span", { class: "more" }, `+${cards.length - limit}`));
  for (const card of shown) row.append(cardImage(card, size));
  return row;
}

// A card id or a joker's stand-in ("JK=QS") as one piece of text: "Q♠", "joker as Q♠".
// (A joker may stand for a number in some games, e.g. 5: shown as it is.)
export function cardLabel(card) {
  card = String(card);
  if (card.startsWith("JK=")) return t("joker as {card}", { card: cardLabel(card.slice(3)) });
  if (card === "JK") return t("joker");
  if (!/^(?:10|[2-9JQKA])[CDHS]$/.test(card)) return card;
  const suit = card.slice(-1);
  return card.slice(0, -1) + (SUITS[suit] || suit);
}

const CARD_TOKEN = /^(?:10|[2-9JQKA])[CDHS]$|^JK(?:=\S+)?$/;

// Notation ("play JS 10D", "take") as words and coloured cards: the cards become card text,
// the kind the game's word for it (words: {kind: "played"}).
export function notationText(notation, words = {}) {
  const [kind, ...rest] = String(notation).split(" ");
  const out = [words[kind] || kind.replace(/_/g, " ")];
  for (const token of rest) {
    out.push(" ");
    if (CARD_TOKEN.test(token)) out.push(token.startsWith("JK=") ? el("span", { class: "ct joker" }, cardLabel(token)) : cardText(token));
    else out.push(token);
  }
  return out;
}
