// A few DOM helpers: elements, and cards as the server draws them (GET /cards/{card}.svg).
import { w } from "./words.js";
type Child = Node | string | number | null | undefined | false;

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K, props: Record<string, unknown> = {}, ...children: (Child | Child[])[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "class") node.className = String(value);
    else if (name === "dataset") Object.assign(node.dataset, value);
    else if (name.startsWith("on") && typeof value === "function") {
      node.addEventListener(name.slice(2), value as EventListener);
    } else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

/** The server the page talks to: `?server=` of its address (a page served elsewhere), else
 * its own origin. */
export const server: string = new URLSearchParams(location.search).get("server") ?? location.origin;

/** The cards that are wild now (the state's wild_cards, whatever the game): their pictures
 * are framed and their names say so. */
let wild = new Set<string>();
export function setWildCards(cards: readonly string[] | undefined): void {
  wild = new Set(cards ?? []);
}

export function cardImage(card: string | null, size = "normal"): HTMLImageElement {
  const name = card ?? "back";
  const isWild = card !== null && wild.has(card);
  return el("img", {
    class: `card ${size}${isWild ? " wild" : ""}`, src: `${server}/cards/${encodeURIComponent(name)}.svg`,
    alt: card === null ? "" : isWild ? w("wild", { card }) : card, draggable: "false",
    dataset: card ? { card } : {},
  });
}

/** A card as text: "10♥", in the suit's colour. */
export function cardText(card: string): HTMLSpanElement {
  const suits: Record<string, string> = { C: "♣", D: "♦", H: "♥", S: "♠" };
  const suit = card.slice(-1);
  const shown = suits[suit] && card.length > 1 ? card.slice(0, -1) + suits[suit] : card;
  return el("span", { class: `ct ${suit === "D" || suit === "H" ? "red" : "black"}` }, shown);
}
