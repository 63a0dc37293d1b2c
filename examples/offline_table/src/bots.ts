// The in-page bots: THE ONE PLACE where a bot chooses its move. `?bots=search` plays the
// engine's IS-MCTS search (Game.searchAction, a short think so a match stays brisk); by
// default the engine's greedy policy plays.
import type { Game, SearchOptions } from "@cardcore/engine";

export type BotKind = "greedy" | "search";

/** Search settings of the search bot: at most 400 iterations or 300 ms a move. */
export const SEARCH: SearchOptions = { iterations: 400, thinkMs: 300 };

/** The bot kind asked for in the address (greedy unless "search"). */
export function botKind(asked: string | null): BotKind {
  return asked === "search" ? "search" : "greedy";
}

/** The move of the bot at the seat to move (`turn`: how many moves were made, for the
 * search's seed). */
export function botMove(game: Game, kind: BotKind, seed: number, turn: number): number {
  if (kind === "search") {
    return game.searchAction({ ...SEARCH, seed: (seed + turn * 7919) % 2 ** 31 });
  }
  return game.greedyAction();
}
