// Card notation as the engine writes it (rank A 2..9 10 J Q K, suit C S D H; JK the joker) in
// the DOM: suit symbols, red suits red. Action labels are a kind and then notation tokens.
import type { Words } from "./words.js";

const SUITS: Record<string, string> = { C: "♣", S: "♠", D: "♦", H: "♥" };
const CARD = /^(10|[2-9AJQK])([CSDH])$/;
const RANK = /^(10|[2-9AJQK])$/;

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K, attrs: Record<string, string> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

function isRed(suit: string): boolean { return suit === "D" || suit === "H"; }

/** A card as text with its suit symbol ("10♥"), or null when `token` is not a card. */
export function cardText(token: string): string | null {
  const m = CARD.exec(token);
  if (m) return `${m[1]}${SUITS[m[2]!]}`;
  return token === "JK" ? "JK" : null;
}

/** A card face: a small card with its rank and suit (or the joker). */
export function cardFace(card: string, words: Words): HTMLElement {
  const m = CARD.exec(card);
  if (!m) {
    const face = el("span", { class: "card joker", title: words.page("joker") }, card === "JK" ? "★" : card);
    face.dataset.card = card;
    return face;
  }
  const face = el("span", { class: `card ${isRed(m[2]!) ? "red" : "black"}` },
                  el("span", { class: "rank" }, m[1]!), el("span", { class: "suit" }, SUITS[m[2]!]!));
  face.dataset.card = card;
  return face;
}

/** A card in running text (a button, the log): "7♥", coloured. */
export function cardInline(card: string): HTMLElement {
  const m = CARD.exec(card);
  if (!m) return el("span", { class: "ct" }, card);
  return el("span", { class: `ct ${isRed(m[2]!) ? "red" : "black"}` }, `${m[1]}${SUITS[m[2]!]}`);
}

/** Whether a token of an action label is card notation: a card ("7H"), a rank ("K", a
 * meld's), a rank naming a pile ("K:"), the joker ("JK"), the joker standing for a rank or a
 * card ("JK=9"), a suit ("C"), a number. The other words of a label are its verb ("attack",
 * "take back"): the kind's word stands for them. */
export function isNotation(text: string): boolean {
  return CARD.test(text) || /^(?:10|[2-9AJQK]):?$/.test(text) || text === "JK"
    || /^JK=(?:(?:10|[2-9AJQK])[CSDH]?|\d+)$/.test(text) || text in SUITS || /^\d+$/.test(text);
}

/** One notation token of an action label in the DOM. */
function token(text: string, words: Words): (Node | string)[] {
  if (CARD.test(text) || text === "JK") return [cardInline(text)];
  if (text in SUITS) return [el("span", { class: `ct ${isRed(text) ? "red" : "black"}` }, SUITS[text]!)];
  const joker = /^JK=(.+)$/.exec(text);
  if (joker) {
    const as = joker[1]!;
    const parts = words.page("joker_as").split("{card}");
    const shown: Node | string = CARD.test(as) ? cardInline(as) : as;
    return parts.flatMap((part, i) => (i === 0 ? [part] : [shown, part])).filter((p) => p !== "");
  }
  return [text];
}

/** An action in the DOM: the word of its kind, then the notation of its label ("attack 7H":
 * "Attack 7♥"); `lower` for the log ("attack 7♥"). */
export function actionNodes(label: string, kind: string, game: string, words: Words,
                            lower = false): (Node | string)[] {
  let word = words.action(game, kind);
  if (lower) word = word.slice(0, 1).toLowerCase() + word.slice(1);
  const out: (Node | string)[] = [word];
  const rest = label.split(" ").filter((t) => t !== "" && isNotation(t));
  rest.forEach((t, i) => {
    const joinWith = i > 0 && /^JK=/.test(t) ? ", " : " ";
    out.push(joinWith, ...token(t, words));
  });
  return out;
}

/** The kind of an action label when nothing better is known: its first word. */
export function firstWord(label: string): string { return label.split(" ")[0] ?? ""; }
