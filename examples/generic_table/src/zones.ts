// The one model every game shares (docs/api.md, "UI contract"): the table is a set of zones,
// each holding cards the reader may see or only a count of them, and everything that happens
// moves cards (or counts of hidden cards) from one zone to another. Nothing here knows a game.

/** A zone as `game.zones` describes it: its id, what kind of place it is, and whose. */
export interface ZoneInfo {
  id: string;
  kind: string;
  owner: number | null;
  team: number | null;
  label: string;
  /** How the zone is arranged where it is not a plain pile: "pairs" (the view's slots). */
  layout?: "pairs";
}
/** One slot of a zone arranged in pairs (the view's `slots`): a card, the card covering it,
 * and whether it is still open (nothing covers it). */
export interface Slot { card: string; cover: string | null; open: boolean }
export type Slots = Record<string, Slot[]>;
/** A zone's contents as a seat's view holds them: the cards, or a count of hidden ones. */
export type Contents = string[] | { count: number };
export type Zones = Record<string, Contents>;
/** One move of an event or an action: cards (or a count of hidden cards) from one zone to
 * another. */
export type Move = { from: string; to: string; cards: string[] } | { from: string; to: string; count: number };

export function size(contents: Contents | undefined): number {
  if (contents === undefined) return 0;
  return Array.isArray(contents) ? contents.length : contents.count;
}

export function moved(move: Move): number {
  return "cards" in move ? move.cards.length : move.count;
}

/** A copy of `zones` with `moves` applied in order: cards leave `from` (by value, or as a
 * count) and join `to` at its end. The reader's view after the event must be this. */
export function applyMoves(zones: Zones, moves: readonly Move[]): Zones {
  const result: Zones = {};
  for (const [id, contents] of Object.entries(zones)) {
    result[id] = Array.isArray(contents) ? [...contents] : { count: contents.count };
  }
  for (const move of moves) {
    const from = result[move.from] ?? [];
    const to = result[move.to] ?? ("cards" in move ? [] : { count: 0 });
    const n = moved(move);
    if (Array.isArray(from)) {
      if ("cards" in move) {
        for (const card of move.cards) {
          const at = from.lastIndexOf(card);
          if (at >= 0) from.splice(at, 1);
        }
      } else {
        from.splice(Math.max(0, from.length - n), n);
      }
    } else {
      from.count = Math.max(0, from.count - n);
    }
    if (Array.isArray(to) && "cards" in move) to.push(...move.cards);
    else if (Array.isArray(to)) result[move.to] = { count: to.length + n };
    else to.count += n;
    result[move.from] = from;
    if (result[move.to] === undefined) result[move.to] = to;
  }
  return result;
}

/** Where two zone sets differ (as multisets of cards, or counts); empty zones and missing
 * ones are the same. */
export function differences(a: Zones, b: Zones): string[] {
  const ids = new Set([...Object.keys(a), ...Object.keys(b)]);
  const result: string[] = [];
  for (const id of ids) {
    const x = a[id], y = b[id];
    if (size(x) === 0 && size(y) === 0) continue;
    const same = Array.isArray(x) && Array.isArray(y)
      ? [...x].sort().join(" ") === [...y].sort().join(" ")
      : !Array.isArray(x) && !Array.isArray(y) && size(x) === size(y);
    if (!same) result.push(id);
  }
  return result;
}

/** A card's rank: "10H" → "10", "JK" → "JK". Copies and suits of one rank are what an action
 * that names its cards by rank or count may choose between. */
export function rank(card: string): string {
  return /^(?:10|[2-9JQKA])[CDHS]$/.test(card) ? card.slice(0, -1) : card;
}

/** The cards a move list takes from one zone (the reader's hand): those it names. */
export function cardsFrom(moves: readonly Move[] | undefined, zone: string): string[] {
  const result: string[] = [];
  for (const move of moves ?? []) if (move.from === zone && "cards" in move) result.push(...move.cards);
  return result;
}

function key(cards: readonly string[]): string { return [...cards].sort().join(" "); }

/** Whether `wanted` is a sub-multiset of `cards`. */
export function contains(cards: readonly string[], wanted: readonly string[]): boolean {
  const left = new Map<string, number>();
  for (const c of cards) left.set(c, (left.get(c) ?? 0) + 1);
  for (const c of wanted) {
    const n = left.get(c) ?? 0;
    if (n === 0) return false;
    left.set(c, n - 1);
  }
  return true;
}

/** The exact cards to send with an action whose hand cards are `own`, for the cards the
 * player picked: each picked card stands in for a card of the same rank; the rest stay the
 * engine's choice. `null` when the pick does not fit (a rank the action does not use, or more
 * of a rank than it takes). */
export function exactCards(own: readonly string[], picked: readonly string[],
                           hand: readonly string[]): string[] | null {
  const rest = [...own];
  const chosen: string[] = [];
  for (const card of picked) {
    const same = rest.indexOf(card);
    const at = same >= 0 ? same : rest.findIndex((c) => rank(c) === rank(card));
    if (at < 0) return null;
    rest.splice(at, 1);
    chosen.push(card);
  }
  // An engine's card the pick did not replace stays, unless the pick already used that copy
  // (then another copy of its rank from the hand).
  const left = [...hand];
  for (const card of chosen) left.splice(left.indexOf(card), 1);
  for (const card of rest) {
    const at = left.includes(card) ? left.indexOf(card) : left.findIndex((c) => rank(c) === rank(card));
    if (at < 0) return null;
    chosen.push(left[at]!);
    left.splice(at, 1);
  }
  return chosen;
}

/** The actions among `actions` whose hand cards may be chosen by rank: those whose notation
 * does not name those cards (it names ranks or counts: "A A JK", not "AC AS JK"), for which
 * another copy or suit of one of their ranks is in the hand, and that swap is not another
 * action of its own. */
export function choosable(actions: readonly { id: number; label: string; moves?: Move[] }[],
                          zone: string, hand: readonly string[]): Set<number> {
  const keys = new Set(actions.map((a) => key(cardsFrom(a.moves, zone))));
  const result = new Set<number>();
  for (const a of actions) {
    const own = cardsFrom(a.moves, zone);
    const words = a.label.split(/\s+/);
    if (own.every((card) => words.includes(card))) continue;     // it names its cards
    const spare = [...hand];
    for (const c of own) { const i = spare.indexOf(c); if (i >= 0) spare.splice(i, 1); }
    const swaps = own.some((card, i) => spare.some((other) => rank(other) === rank(card) && other !== card
      && !keys.has(key([...own.slice(0, i), other, ...own.slice(i + 1)]))));
    if (swaps) result.add(a.id);
  }
  return result;
}
