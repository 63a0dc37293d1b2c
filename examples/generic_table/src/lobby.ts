// The lobby: the server's games (GET /api/games) and a form for each, built from the option
// schemas the server publishes, to start a table with bots at every other seat.
import type { CardcoreClient, GameInfo } from "@cardcore/client";
import { el, server } from "./dom.js";
import { lang, w } from "./words.js";

interface OptionSchema {
  type?: string | string[];
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  default?: unknown;
  description?: string;
}

/** One input per option, from its JSON Schema fragment: a checkbox for a boolean, a list for
 * an enum, a number field for an integer (empty: the default, or null where allowed), a text
 * field otherwise. `read()` gives the value, or undefined to leave the server's default. */
function optionInput(name: string, schema: OptionSchema, fallback: unknown, tr: (text: string) => string):
    { node: HTMLElement; read: () => unknown } {
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  const initial = schema.default !== undefined ? schema.default : fallback;
  if (schema.enum) {
    const select = el("select", { "data-option": name },
      ...schema.enum.map((v) => el("option", { value: JSON.stringify(v), selected: v === initial },
                                   v === null ? w("default") : tr(String(v)))));
    return { node: select, read: () => JSON.parse(select.value) as unknown };
  }
  if (types.includes("boolean")) {
    const box = el("input", { type: "checkbox", "data-option": name, checked: initial === true });
    return { node: box, read: () => box.checked };
  }
  if (types.includes("integer") || types.includes("number")) {
    const input = el("input", {
      type: "number", "data-option": name, min: schema.minimum, max: schema.maximum,
      placeholder: initial === null || initial === undefined ? w("default") : String(initial),
    });
    return { node: input, read: () => (input.value === "" ? undefined : Number(input.value)) };
  }
  const input = el("input", { type: "text", "data-option": name,
                              placeholder: initial === undefined ? "" : String(initial) });
  return { node: input, read: () => (input.value === "" ? undefined : input.value) };
}

/** The server's words in the page's language (GET /api/i18n): each game's catalog apart, for
 * its title and its options' descriptions and values (English needs none). */
export async function catalogs(): Promise<(game: string, text: string) => string> {
  let words: { shared?: Record<string, string>; games?: Record<string, Record<string, string>> } = {};
  try {
    const response = await fetch(`${server}/api/i18n?lang=${lang}`);
    if (response.ok) words = await response.json() as typeof words;
  } catch { /* a server without catalogs: its own words */ }
  return (game, text) => words.games?.[game]?.[text] ?? words.shared?.[text] ?? text;
}

/** The tables being played (GET /api/tables), each with a link to watch it without a seat:
 * the page opened with ?table= and no token is the spectator's. */
async function listTables(client: CardcoreClient, games: GameInfo[], tr: (game: string, text: string) => string,
                          list: HTMLElement): Promise<void> {
  let tables: { table: string; game: string; players: number; moves: number }[] = [];
  try {
    tables = (await client.tables()).tables as typeof tables;
  } catch { /* a server that lists none */ }
  const title = (game: string): string => tr(game, games.find((g) => g.game === game)?.title ?? game);
  list.replaceChildren(...(tables.length ? tables.map((t) => {
    const query = new URLSearchParams(location.search);
    query.set("table", t.table);
    query.set("lang", lang);
    return el("li", { dataset: { table: t.table } },
      w("table_line", { game: title(t.game), players: t.players, moves: t.moves }), " ",
      el("a", { href: `?${query}`, class: "watch" }, w("watch")));
  }) : [el("li", { class: "hint" }, w("no_tables"))]));
}

export async function showLobby(client: CardcoreClient, root: HTMLElement): Promise<void> {
  const [{ games }, tr] = await Promise.all([client.games(), catalogs()]);
  const gameSelect = el("select", { id: "game" },
    ...games.map((g) => el("option", { value: g.game }, tr(g.game, g.title))));
  const form = el("div", { id: "game-form" });
  const start = el("button", { id: "create", type: "button", class: "primary" }, w("create"));
  const errors = el("p", { id: "lobby-error", class: "error", role: "alert" });
  const watchList = el("ul", { id: "watch-list" });
  root.replaceChildren(el("section", { class: "lobby" },
    el("h1", {}, w("app")),
    el("label", {}, w("game"), " ", gameSelect), form, start, errors,
    el("h2", {}, w("tables")), watchList));
  void listTables(client, games, tr, watchList);

  let read: () => Record<string, unknown> = () => ({});
  const build = (info: GameInfo): void => {
    const players = el("select", { id: "players" });
    for (let n = info.min_players; n <= info.max_players; n++) {
      players.append(el("option", { value: String(n), selected: n === info.default_players }, String(n)));
    }
    const bots = info.bots;
    const bot = el("select", { id: "bot" }, ...bots.map((b) => el("option", { value: b }, b)));
    bot.value = bots.includes("greedy") ? "greedy" : bots[0] ?? "";
    const seed = el("input", { id: "seed", type: "number", min: 0 });
    const inputs = Object.entries(info.options).map(([name, option]) => {
      const schema = (option["schema"] ?? {}) as OptionSchema;
      const input = optionInput(name, schema, option.default, (text) => tr(info.game, text));
      const about = tr(info.game, schema.description ?? option.doc);
      return { name, input, row: el("label", { class: "option", title: about },
                                   el("span", { class: "option-name" }, tr(info.game, name.replace(/_/g, " "))), " ",
                                   input.node, el("small", {}, " ", about)) };
    });
    form.replaceChildren(
      el("label", {}, w("players"), " ", players),
      el("label", {}, w("others"), " ", bot),
      el("label", {}, w("seed"), " ", seed),
      el("fieldset", {}, el("legend", {}, w("options")), ...inputs.map((i) => i.row)));
    read = () => {
      const options: Record<string, unknown> = {};
      for (const { name, input } of inputs) {
        const value = input.read();
        if (value !== undefined && value !== (info.options[name]?.default ?? undefined)) options[name] = value;
      }
      const count = Number(players.value);
      const seats = Object.fromEntries(Array.from({ length: count - 1 }, (_, i) => [String(i + 1), bot.value]));
      return { game: info.game, players: count, options, bots: seats,
               ...(seed.value === "" ? {} : { seed: Number(seed.value) }) };
    };
  };
  const chosen = (): GameInfo => games.find((g) => g.game === gameSelect.value) ?? games[0]!;
  gameSelect.addEventListener("change", () => build(chosen()));
  build(chosen());

  start.addEventListener("click", async () => {
    errors.textContent = "";
    try {
      const made = await client.createTable(read() as Parameters<CardcoreClient["createTable"]>[0]);
      const token = made.seats["0"];
      const query = new URLSearchParams(location.search);
      query.set("table", made.table);
      query.set("lang", lang);
      location.assign(`?${query}#token=${encodeURIComponent(token ?? "")}`);
    } catch (e) {
      errors.textContent = w("refused", { error: String((e as Error).message) });
    }
  });
}
