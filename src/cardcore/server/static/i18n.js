// The web table's words in the reader's language: the server's message catalogs (gettext,
// the same ones the terminal reads), as JSON from GET /api/i18n. The msgids are the English
// texts, marked t("...") here and in the games' web files, and extracted into the catalogs
// (tests/i18n_catalogs.py). {name} in a text is filled from t()'s second argument.
const LANG_KEY = "cardcore.lang";
let catalog = {};               // the shared words, with the game's at a table (useGame)
let shared = {};
let games = {};                 // each game's own words, never merged with another game's
let plurals = {};               // singular msgid -> the language's plural forms (tn)
let filled = null;              // [regex, msgid] for the catalog's texts with {fields}
export let lang = "en";

export function t(msgid, values = {}) {
  const text = catalog[msgid] || msgid;
  return text.replace(/\{(\w+)\}/g, (whole, key) => (key in values ? String(values[key]) : whole));
}

// A text that counts something: "{n} card" / "{n} cards" in English; in another language
// the catalog's form for n, picked by the language's plural rules (CLDR, Intl.PluralRules;
// gettext lists the forms in CLDR's order of categories: one, few, many for Russian).
const CATEGORIES = ["zero", "one", "two", "few", "many", "other"];

export function tn(singular, plural, n, values = {}) {
  const forms = plurals[singular];
  let text = n === 1 ? singular : plural;
  if (forms && forms.length) {
    const rules = new Intl.PluralRules(lang);
    const used = CATEGORIES.filter((c) => rules.resolvedOptions().pluralCategories.includes(c));
    text = forms[Math.min(used.indexOf(rules.select(n)), forms.length - 1)] || text;
  }
  return text.replace(/\{(\w+)\}/g, (whole, key) => (key in values ? String(values[key]) : whole));
}

// A text the server made by filling one of the catalog's templates ("red threes (6)",
// a breakdown row): the template translated and filled with the same values.
export function tFilled(text) {
  if (catalog[text]) return catalog[text];
  if (filled === null) {
    filled = Object.keys(catalog).filter((k) => /\{\w+\}/.test(k)).map((k) => {
      const names = [];
      const source = k.split(/(\{\w+\})/).map((part) => {
        const m = /^\{(\w+)\}$/.exec(part);
        if (m) { names.push(m[1]); return "(.+?)"; }
        return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      }).join("");
      return [new RegExp(`^${source}$`), k, names];
    });
  }
  for (const [regex, msgid, names] of filled) {
    const m = regex.exec(text);
    if (m) return t(msgid, Object.fromEntries(names.map((n, i) => [n, m[i + 1]])));
  }
  return text;
}

// The language chosen on this page before (remembered), else the server's pick from the
// browser's Accept-Language.
export function chosenLang() { return localStorage.getItem(LANG_KEY) || ""; }

export async function loadWords(game = null) {
  const query = new URLSearchParams();
  if (chosenLang()) query.set("lang", chosenLang());
  if (game) query.set("game", game);
  const response = await fetch(`/api/i18n?${query}`);
  const body = await response.json();
  lang = body.lang;
  shared = body.shared || body.messages || {};
  games = body.games || {};
  plurals = body.plurals || {};
  catalog = game ? { ...shared, ...(games[game] || {}) } : shared;
  filled = null;
  document.documentElement.lang = lang;
  translatePage();
  languagePicker(body.languages || ["en"]);
  return lang;
}

// At a table: its game's words over the shared ones (a game's msgid may mean something
// else in another game: "Discard" is one game's pile and another's move).
export function useGame(game) {
  catalog = { ...shared, ...(games[game] || {}) };
  filled = null;
  translatePage();
}

// A text of one game's (the lobby: its title, its options' words), from that game's catalog.
export function tGame(game, msgid, values = {}) {
  const text = (games[game] || {})[msgid] || shared[msgid] || msgid;
  return text.replace(/\{(\w+)\}/g, (whole, key) => (key in values ? String(values[key]) : whole));
}

// The page's own texts: elements marked data-i18n hold their English msgid.
function translatePage() {
  for (const node of document.querySelectorAll("[data-i18n]")) {
    if (!node.dataset.msgid) node.dataset.msgid = node.textContent.trim();
    node.textContent = t(node.dataset.msgid);
  }
  for (const node of document.querySelectorAll("[data-i18n-label]")) {
    if (!node.dataset.msgidLabel) node.dataset.msgidLabel = node.getAttribute("aria-label");
    node.setAttribute("aria-label", t(node.dataset.msgidLabel));
  }
}

const NAMES = { en: "English", ru: "Русский" };

function languagePicker(languages) {
  const select = document.getElementById("lang");
  if (!select || select.options.length) return;
  for (const code of languages) select.append(new Option(NAMES[code] || code, code, false, code === lang));
  select.addEventListener("change", () => { localStorage.setItem(LANG_KEY, select.value); location.reload(); });
}

// t() for a sentence with pieces that are nodes (cards as coloured text): an array of text
// and nodes, {name} filled from values (a string, a node or an array of them).
export function tx(msgid, values = {}) {
  const text = catalog[msgid] || msgid;
  const out = [];
  for (const part of text.split(/(\{\w+\})/)) {
    const m = /^\{(\w+)\}$/.exec(part);
    if (m && m[1] in values) {
      const v = values[m[1]];
      if (Array.isArray(v)) out.push(...v); else out.push(v);
    } else if (part) out.push(part);
  }
  return out;
}

// Marks a msgid for extraction; translated where it is shown (t(word)).
export function N_(msgid) { return msgid; }
