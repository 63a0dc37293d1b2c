// The page's own few words, in the two languages the server speaks. Everything about a game
// (its title, its zones' labels, what happened, the scoring) comes from the server already in
// the reader's language: these are only the page's buttons and headings.
export type Lang = "en" | "ru";

const WORDS = {
  en: {
    "app": "cardcore: a table for every game",
    "game": "Game",
    "players": "Players",
    "seed": "Seed (empty: random)",
    "options": "Options",
    "others": "Other seats",
    "create": "Start a table with bots",
    "default": "default",
    "none": "—",
    "yes": "yes",
    "wild": "{card}, wild card",
    "you": "you",
    "seat": "Seat {n}",
    "team": "Team {n}",
    "score": "score {n}",
    "cards": "{n} cards",
    "empty": "empty",
    "open_slot": "uncovered",
    "your_turn": "Your turn.",
    "waiting": "Waiting for {who}.",
    "moves": "Your moves",
    "pick": "Click cards in your hand to choose which ones a move uses.",
    "picked": "Chosen: {cards}",
    "clear": "Clear",
    "log": "What happened",
    "round_over": "Scoring",
    "match_over": "The match is over",
    "reason": "Why",
    "what": "What",
    "count": "Count",
    "points": "Points",
    "rule": "Rule",
    "total": "Total",
    "winners": "Winners: {who}",
    "scores": "Scores",
    "continue": "Continue",
    "lobby": "Back to the lobby",
    "status": "Connection: {status}",
    "connecting": "connecting",
    "open": "open",
    "reconnecting": "reconnecting",
    "closed": "closed",
    "language": "Language",
    "refused": "Refused: {error}",
    "watching": "watching",
    "watch": "Watch",
    "tables": "Tables to watch",
    "no_tables": "No table is playing now.",
    "table_line": "{game}, {players} players, {moves} moves",
  },
  ru: {
    "app": "cardcore: стол для любой игры",
    "game": "Игра",
    "players": "Игроки",
    "seed": "Номер раздачи (пусто — случайный)",
    "options": "Настройки",
    "others": "Остальные места",
    "create": "Начать игру с ботами",
    "default": "по умолчанию",
    "none": "—",
    "yes": "да",
    "wild": "{card}, дикая карта",
    "you": "вы",
    "seat": "Место {n}",
    "team": "Команда {n}",
    "score": "очки: {n}",
    "cards": "карт: {n}",
    "empty": "пусто",
    "open_slot": "не покрыта",
    "your_turn": "Ваш ход.",
    "waiting": "Ходит: {who}.",
    "moves": "Ваши ходы",
    "pick": "Щёлкните карты в руке, чтобы выбрать, какие из них пойдут в ход.",
    "picked": "Выбраны: {cards}",
    "clear": "Сбросить выбор",
    "log": "Что произошло",
    "round_over": "Подсчёт очков",
    "match_over": "Партия окончена",
    "reason": "Почему",
    "what": "Что",
    "count": "Сколько",
    "points": "Очки",
    "rule": "Правило",
    "total": "Итого",
    "winners": "Победители: {who}",
    "scores": "Очки",
    "continue": "Продолжить",
    "lobby": "В лобби",
    "status": "Связь: {status}",
    "connecting": "подключение",
    "open": "есть",
    "reconnecting": "переподключение",
    "closed": "закрыта",
    "language": "Язык",
    "refused": "Отказ: {error}",
    "watching": "наблюдение",
    "watch": "Смотреть",
    "tables": "Столы, за которыми можно наблюдать",
    "no_tables": "Сейчас никто не играет.",
    "table_line": "{game}, игроков: {players}, ходов: {moves}",
  },
} as const;

export type Word = keyof typeof WORDS.en;

/** The page's language: `?lang=` of its address, else the browser's first choice. */
export const lang: Lang = (() => {
  const asked = new URLSearchParams(location.search).get("lang")
    ?? navigator.language.slice(0, 2);
  return asked === "ru" ? "ru" : "en";
})();

/** A word of the page in its language, `{name}` filled from `values`. */
export function w(word: Word, values: Record<string, string | number> = {}): string {
  const text: string = WORDS[lang][word];
  return text.replace(/\{(\w+)\}/g, (whole, key: string) =>
    key in values ? String(values[key]) : whole);
}
