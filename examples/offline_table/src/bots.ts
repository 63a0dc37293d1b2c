// The in-page bots. THE ONE PLACE where a bot chooses its move: `botMove`. `?bots=search`
// asks for the engine's IS-MCTS search (a Game method `searchAction({iterations, thinkMs,
// seed})`) where this engine build has it; otherwise, and by default, the engine's greedy
// policy plays.
import type { Game } from "@cardcore/engine";

export type BotKind = "greedy" | "search";

interface SearchOptions { iterations?: number; thinkMs?: number; seed?: number }
type Searching = { searchAction?: (options: SearchOptions) => number };

/** Search settings of the search bot: a short think, so that a match stays brisk. */
export const SEARCH: SearchOptions = { iterations: 400, thinkMs: 300 };

/** Whether this engine build has the search (the method is looked up on the game). */
export function hasSearch(game: Game): boolean {
  return typeof (game as unknown as Searching).searchAction === "function";
}

/** The bot kind that will actually play: `asked` when the engine can, else greedy. */
export function botKind(asked: string | null, game: Game): BotKind {
  return asked === "search" && hasSearch(game) ? "search" : "greedy";
}

/** The move of the bot at the seat to move (`turn`: how many moves were made, for the
 * search's seed). */
export function botMove(game: Game, kind: BotKind, seed: number, turn: number): number {
  if (kind === "search") {
    const search = (game as unknown as Searching).searchAction!;
    return search.call(game, { ...SEARCH, seed: (seed + turn * 7919) % 2 ** 31 });
  }
  return game.greedyAction();
}
