// Compile-time checks of the generated types (`npm run check` compiles this file; nothing in
// it runs): actions and events are unions discriminated by `kind`, and narrowing on `kind`
// gives that kind's fields, required where the schema requires them. A change that made
// them optional, loose or lost would fail `tsc --strict` here.
import type {
  Card, CrazyEightsEvent, GameTypes, KingsStakesAction, KuzanastaEvent, MannaAction,
  MannaEvent, MannaMeldAction, MannaTakePileEvent, Move, ZoneContents,
} from "../src/generated/games.js";
import type { GameEvent, TableState } from "../src/index.js";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2)
  ? true : false;
type Expect<T extends true> = T;

// Narrowing by kind gives exactly that kind's member.
export type NarrowsToMember = Expect<Equal<Extract<MannaEvent, { kind: "take_pile" }>,
  MannaTakePileEvent>>;
export type EventIsTheGamesUnion = Expect<Equal<GameTypes["manna"]["event"], MannaEvent>>;
export type StateEventsAreTheUnion = Expect<Equal<TableState<"manna">["events"][number],
  GameEvent<"manna">>>;

/** The cards a take melded: `melded` is required on take_pile, absent elsewhere. */
export function melded(event: MannaEvent): Card[] {
  if (event.kind === "take_pile") return event.melded;
  // @ts-expect-error: only take_pile events carry `melded`
  return event.melded;
}

/** A meld's counts: required fields of the meld action, typed. */
export function meldSize(action: MannaAction): number {
  if (action.kind !== "meld") return 0;
  const meld: MannaMeldAction = action;
  const counts: [number, number, number] = [meld.naturals, meld.twos, meld.jokers];
  const isNew: boolean = meld.new;
  return counts.reduce((a, b) => a + b, 0) + (isNew ? 0 : 0);
}

/** Match ends: integer scores by seat and the winners' seats, both required. */
export function winners(event: KuzanastaEvent): number[] {
  if (event.kind === "match_end") {
    const scores: number[] = event.scores;
    return scores.length ? event.winners : [];
  }
  if (event.kind === "deal_end") {
    // the round end's breakdown: rows with their points and rule IDs
    return event.breakdown.components.map((row) => row.points);
  }
  return [];
}

/** Automatic events carry `auto: true`; action events `id` and `action` instead. */
export function notation(event: CrazyEightsEvent): string | null {
  switch (event.kind) {
    case "play":
    case "draw":
    case "nominate":
    case "pass":
      return event.action;
    case "turn_up": {
      const auto: true = event.auto;
      return auto ? event.suit : null;
    }
    default:
      // @ts-expect-error: automatic events have no notation
      return event.action;
  }
}

/** Optional details stay optional: a play's amount only for number plays. */
export function amount(action: KingsStakesAction): number | undefined {
  if (action.kind === "play") {
    const effect: string = action.effect;
    return effect === "number" ? action.amount : undefined;
  }
  return undefined;
}

/** The UI contract's shapes: moves named or counted, zones as cards or a count. */
export function moved(moves: Move[], zones: ZoneContents): number {
  let count = 0;
  for (const move of moves) count += "cards" in move ? move.cards.length : move.count;
  for (const zone of Object.values(zones)) {
    if (zone !== undefined) count += Array.isArray(zone) ? zone.length : zone.count;
  }
  return count;
}
