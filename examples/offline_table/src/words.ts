// The page's words: texts.json (written by export_texts.py from cardcore's gettext catalogs),
// per language the page's own few words and, per game, its title, its zone kinds' labels, its
// action kinds' words and where each zone kind belongs. Nothing here knows a game.
import { fillRefusal, type Refusal } from "@cardcore/engine";

export type Lang = "en" | "ru";

export interface GameWords {
  title: string;
  zones: Record<string, string>;
  actions: Record<string, string>;
  /** The refusal templates, indexed by the engine's refusal reasons. */
  refusals: string[];
}

export interface GameData {
  players: { min: number; max: number; default: number };
  /** zone kind -> "seat" | "team" | "pile" | "shared": what the number of an id "kind:n" is. */
  scopes: Record<string, string>;
  /** Action kinds by id: [first id, kind] runs (default options), for the default player
   * count; `kinds_by_players` those of the counts that differ. */
  kinds: [number, string][];
  kinds_by_players: Record<string, [number, string][]>;
  en: GameWords;
  ru: GameWords;
}

export interface Texts {
  languages: string[];
  page: Record<Lang, Record<string, string | string[]>>;
  games: Record<string, GameData>;
}

const CATEGORIES = ["zero", "one", "two", "few", "many", "other"];

export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) =>
    key in values ? String(values[key]) : whole);
}

export function capitalized(text: string): string {
  return text.slice(0, 1).toUpperCase() + text.slice(1);
}

export function lowered(text: string): string {
  return text.slice(0, 1).toLowerCase() + text.slice(1);
}

export class Words {
  constructor(readonly lang: Lang, readonly texts: Texts) {}

  /** A page word, `{name}` filled from `values`. */
  page(key: string, values: Record<string, string | number> = {}): string {
    const text = this.texts.page[this.lang][key] ?? this.texts.page.en[key] ?? key;
    return fill(Array.isArray(text) ? text[0] ?? key : text, values);
  }

  /** A page word with plural forms, the form for `n` chosen by the language's plural rules
   * (gettext lists the forms in CLDR's order of categories). */
  plural(key: string, n: number, values: Record<string, string | number> = {}): string {
    const forms = this.texts.page[this.lang][key];
    if (!Array.isArray(forms) || forms.length === 0) return this.page(key, values);
    const rules = new Intl.PluralRules(this.lang);
    const used = CATEGORIES.filter((c) => rules.resolvedOptions().pluralCategories.includes(c as Intl.LDMLPluralRule));
    const at = Math.min(Math.max(used.indexOf(rules.select(n)), 0), forms.length - 1);
    return fill(forms[at] ?? key, values);
  }

  data(game: string): GameData | undefined { return this.texts.games[game]; }

  #game(game: string): GameWords | undefined { return this.texts.games[game]?.[this.lang]; }

  title(game: string): string { return this.#game(game)?.title ?? game.replace(/_/g, " "); }

  zone(game: string, kind: string): string { return this.#game(game)?.zones[kind] ?? kind.replace(/_/g, " "); }

  /** An action kind's word ("Attack"); the kind itself, spaced, for a kind without one. */
  action(game: string, kind: string): string {
    return this.#game(game)?.actions[kind] ?? capitalized(kind.replace(/_/g, " "));
  }

  /** The kind of action `id` with `players` seats; null when texts.json does not say. */
  kindOf(game: string, players: number, id: number): string | null {
    const data = this.texts.games[game];
    if (!data) return null;
    const runs = data.kinds_by_players[String(players)] ?? data.kinds;
    let kind: string | null = null;
    for (const [first, name] of runs) {
      if (first > id) break;
      kind = name;
    }
    return kind;
  }

  /** Why a move is refused, in the page's language, with its rule ID: the game's template
   * for the reason, filled with the refusal's fields (named as in the English template). */
  refusal(game: string, refusal: Refusal): string {
    const english = this.texts.games[game]?.en.refusals[refusal.reason];
    if (english === undefined) return refusal.rule;
    const text = this.#game(game)?.refusals[refusal.reason] ?? english;
    return `${fillRefusal(english, refusal.args, text)} [${refusal.rule}]`;
  }

  /** Seat 0 is "You", the others "Player n" counted from 1. */
  seat(seat: number): string {
    return seat === 0 ? this.page("you") : this.page("player", { n: seat + 1 });
  }
}

/** The page's language: `?lang=`, else English. */
export function pageLang(params: URLSearchParams): Lang {
  return params.get("lang") === "ru" ? "ru" : "en";
}
