// Card pictures and card words. Pictures are the server's SVGs (/cards/<card>.svg).

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

export function cardImage(card, size = "normal") {
  return el("img", {
    class: `card-img ${size}`, src: `/cards/${encodeURIComponent(card)}.svg`,
    alt: cardName(card), title: cardName(card), draggable: "false",
  });
}

export function backImage(size = "small") {
  return el("img", { class: `card-img ${size}`, src: "/cards/back.svg", alt: "card back", draggable: "false" });
}

export function cardName(card) {
  if (card === "JK") return "joker";
  const rank = card.slice(0, -1), suit = card.slice(-1);
  const ranks = { A: "ace", J: "jack", Q: "queen", K: "king" };
  const suits = { C: "clubs", S: "spades", D: "diamonds", H: "hearts" };
  return `${ranks[rank] || rank} of ${suits[suit] || suit}`;
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
