// The lobby: the games, open tables, and a form that starts a table (docs/server.md).
import { el } from "./cards.js";
import { botName, capitalized } from "./words.js";
import { mySeats, rememberSeat, forgetTable, inviteLink } from "./seats.js";
import { t, tGame, N_, loadWords, lang } from "./i18n.js";

let games = [];

async function api(path, options = {}) {
  const response = await fetch(path, { headers: { "Content-Type": "application/json", "Accept-Language": lang }, ...options });
  const body = await response.json();
  if (!response.ok) throw new Error(body.error || `HTTP ${response.status}`);
  return body;
}

// A game's own words (its title, its options') come from its own catalog, never another game's.
function titleOf(name) { const g = games.find((x) => x.game === name); return g ? tGame(name, g.title) : name; }

function currentGame() { return games.find((g) => g.game === document.getElementById("game").value); }

function fillPlayers() {
  const g = currentGame();
  const players = document.getElementById("players");
  players.replaceChildren(...Array.from({ length: g.max_players - g.min_players + 1 }, (_, i) => {
    const n = g.min_players + i;
    return el("option", { value: String(n), selected: n === g.default_players }, String(n));
  }));
  const options = document.getElementById("options");
  options.replaceChildren(...Object.entries(g.options).map(([name, o]) => optionWidget(g.game, name, o)));
  fillSeats();
}

// One option's widget, from its schema (GET /api/games): a checkbox, a list of the allowed
// values, a number within its bounds, or a text field; the description beside it.
function optionWidget(gameName, name, o) {
  const tg = (msgid) => tGame(gameName, msgid);
  const schema = o.schema || o;
  const types = [].concat(schema.type || []);
  const data = { option: name, default: JSON.stringify(o.default) };
  const enumValues = schema.enum || (schema.anyOf || schema.oneOf || []).flatMap((x) => x.enum || ("const" in x ? [x.const] : []));
  let input;
  if (types.includes("boolean") && types.length === 1) {
    input = el("input", { type: "checkbox", name: `option-${name}`, dataset: { ...data, kind: "boolean" }, checked: o.default === true });
  } else if (enumValues.length && !(schema.anyOf || []).some((x) => x.type === "integer")) {
    input = el("select", { name: `option-${name}`, dataset: { ...data, kind: "json" } },
      ...enumValues.map((v) => el("option", { value: JSON.stringify(v), selected: JSON.stringify(v) === data.default }, v === null ? t("none") : typeof v === "string" ? tg(v) : String(v))));
  } else if ((types.includes("integer") || types.includes("number")) && !types.includes("string")) {
    input = el("input", { type: "number", name: `option-${name}`, dataset: { ...data, kind: "number" }, value: o.default ?? "",
      min: schema.minimum ?? null, max: schema.maximum ?? null, step: types.includes("integer") ? "1" : "any", placeholder: o.default === null ? t("none") : null });
  } else {
    input = el("input", { name: `option-${name}`, dataset: { ...data, kind: "json" }, value: JSON.stringify(o.default) });
  }
  const doc = o.description || o.doc ? tg(o.description || o.doc) : "";
  return el("label", { class: "option" }, el("span", { class: "option-name" }, tg(name.replace(/_/g, " "))), input,
    doc ? el("span", { class: "hint option-doc" }, doc) : "");
}

function optionValue(input) {
  if (input.dataset.kind === "boolean") return input.checked;
  if (input.dataset.kind === "number") return input.value === "" ? null : Number(input.value);
  try { return JSON.parse(input.value); } catch { return input.value; }
}

function fillSeats() {
  const g = currentGame();
  const n = Number(document.getElementById("players").value);
  const seat = document.getElementById("seat");
  const mine = Math.min(Number(seat.value || 0), n - 1);
  seat.replaceChildren(...Array.from({ length: n }, (_, k) => el("option", { value: String(k), selected: k === mine }, t("player {n}", { n: k + 1 }))));
  fillOthers();
}

function fillOthers() {
  const g = currentGame();
  const n = Number(document.getElementById("players").value);
  const mine = Number(document.getElementById("seat").value);
  const box = document.getElementById("others");
  const choices = [...g.bots, "person", "open"];
  // "level:1" .. "level:5": the difficulty levels (docs/bots.md), 1 the beginner.
  const botLabel = (c) => c === "level:1" ? t("level 1 bot (beginner)") : c === "level:5" ? t("level 5 bot (strongest)")
    : t("{name} bot", { name: botName(c) });
  box.replaceChildren(el("legend", {}, t("The other seats")), ...Array.from({ length: n }, (_, k) => k).filter((k) => k !== mine).map((k) =>
    el("label", {}, `${t("player {n}", { n: k + 1 })} `, el("select", { name: `seat-${k}`, dataset: { seat: String(k) } },
      ...choices.map((c) => el("option", { value: c, selected: c === (g.bots.includes("greedy") ? "greedy" : g.bots[0]) },
        c === "person" ? t("a person (invite link)") : c === "open" ? t("an open seat (anyone may join)") : botLabel(c)))))));
}

async function create(event) {
  event.preventDefault();
  const error = document.getElementById("lobby-error");
  error.textContent = "";
  const body = { game: document.getElementById("game").value, players: Number(document.getElementById("players").value), bots: {}, options: {} };
  const open = [];
  for (const select of document.querySelectorAll("#others select")) {
    if (select.value === "open") open.push(Number(select.dataset.seat));
    else if (select.value !== "person") body.bots[select.dataset.seat] = select.value;
  }
  // Open seats: anyone in the lobby may claim them with a name (docs/server.md, "Seats").
  if (open.length) { body.open_seats = open; body.join = "anyone"; }
  const myName = document.getElementById("my-name").value.trim();
  if (myName) body.names = { [document.getElementById("seat").value]: myName };
  for (const input of document.querySelectorAll("#options [data-option]")) {
    const value = optionValue(input);
    if (JSON.stringify(value) === input.dataset.default) continue;
    body.options[input.dataset.option] = value;
  }
  if (document.getElementById("takeback").checked) body.takeback = true;
  const seed = document.getElementById("seed").value.trim();
  if (seed) body.seed = Number(seed);
  try {
    const made = await api("/api/tables", { method: "POST", body: JSON.stringify(body) });
    const mine = document.getElementById("seat").value;
    // The invite too: the table page shows it while seats are open (table.js).
    rememberSeat(made.table, made.seats[mine], { game: body.game, seat: Number(mine), invite: made.invite });
    const link = (seat) => `/tables/${encodeURIComponent(made.table)}#token=${encodeURIComponent(made.seats[seat])}`;
    const others = Object.keys(made.seats).filter((s) => s !== mine);
    if (!others.length && !made.open_seats.length) { location.href = link(mine); return; }
    const box = document.getElementById("created");
    box.hidden = false;
    // The invite: whoever opens it takes an open seat with a name (start() below).
    const invite = inviteLink(made.table, made.invite);
    box.replaceChildren(
      others.length ? el("p", {}, t("Send each person their own link (it is their seat's key):")) : "",
      others.length ? el("ul", {}, ...others.map((s) => el("li", {}, `${t("player {n}", { n: s + 1 })}: `, el("input", { readonly: true, size: "60", "aria-label": t("link for player {n}", { n: s + 1 }), value: new URL(link(s), location.href).href })))) : "",
      made.open_seats.length ? el("p", {}, `${t("Open seats: anyone with this link takes one with a name (they are listed below too):")} `,
        el("input", { readonly: true, size: "60", id: "invite-link", "aria-label": t("invite link"), value: invite })) : "",
      el("p", {}, el("a", { href: link(mine), id: "my-seat" }, t("Go to your seat (player {n}) →", { n: mine + 1 }))));
  } catch (e) {
    error.textContent = e.message;
  }
}

// Presence in words (GET /api/tables: each seat's).
const PRESENCE = { connected: N_("connected"), away: N_("away"), open: N_("open"), bot: N_("bot") };

// One seat of a listed table: its name or bot, its presence; an open seat of a table anyone
// may join gets a name field and Join.
function seatCell(row, k) {
  const bot = row.bots[String(k)];
  const presence = (row.presence || [])[k];
  const label = bot ? t("{name} bot", { name: botName(bot) }) : row.names[String(k)] || t("player {n}", { n: k + 1 });
  const item = el("li", { class: `lobby-seat presence-${presence}` }, `${label} `,
    presence && !bot ? el("span", { class: "presence" }, `(${t(PRESENCE[presence])})`) : "");
  if (presence === "open" && row.join === "anyone" && !row.over) {
    const name = el("input", { name: "name", maxlength: "24", required: true, size: "10", autocomplete: "nickname",
      "aria-label": t("your name for player {n}", { n: k + 1 }) });
    const form = el("form", { class: "join", dataset: { table: row.table, seat: String(k) } }, name,
      el("button", { type: "submit" }, t("Join")));
    form.addEventListener("submit", (event) => join(event, row, k, name));
    item.append(form);
  }
  return item;
}

// Claim an open seat with a name, keep its token (seats.js) and go to the table.
async function join(event, row, seat, input) {
  event.preventDefault();
  const error = document.getElementById("lobby-error");
  error.textContent = "";
  try {
    const claimed = await api(`/api/tables/${encodeURIComponent(row.table)}/seats`,
      { method: "POST", body: JSON.stringify({ name: input.value, seat }) });
    rememberSeat(row.table, claimed.token, { game: row.game, seat: claimed.seat });
    location.href = `/tables/${encodeURIComponent(row.table)}#token=${encodeURIComponent(claimed.token)}`;
  } catch (e) {
    error.textContent = e.message;
  }
}

async function loadTables() {
  const { tables } = await api("/api/tables");
  const body = document.querySelector("#tables tbody");
  // A refresh must not wipe a name being typed.
  if (document.activeElement && document.activeElement.closest && document.activeElement.closest("#tables form.join")) return;
  body.replaceChildren(...tables.map((row) => el("tr", {},
    el("td", {}, titleOf(row.game)), el("td", {}, String(row.players)),
    el("td", {}, el("ul", { class: "lobby-seats" }, ...Array.from({ length: row.players }, (_, k) => seatCell(row, k)))),
    el("td", {}, String(row.moves)),
    el("td", {}, el("a", { href: `/tables/${encodeURIComponent(row.table)}` }, t("watch"))))));
  if (!tables.length) body.append(el("tr", {}, el("td", { colspan: "5" }, t("No open tables yet."))));
}

// The seats this browser holds (seats.js), each checked with its token: rejoin or forget.
async function loadMine() {
  const body = document.querySelector("#my-tables tbody");
  const rows = [];
  for (const seat of mySeats().filter((s) => s.mine !== false)) {
    const response = await fetch(`/api/tables/${encodeURIComponent(seat.table)}`, { headers: { Authorization: `Bearer ${seat.token}` } });
    if (response.status === 404 || response.status === 410) { forgetTable(seat.table); continue; }
    if (!response.ok) continue;
    const s = await response.json();
    const status = s.over ? t("over") : s.current_player === s.seat ? t("your turn") : t("playing");
    rows.push(el("tr", {}, el("td", {}, titleOf(s.game)), el("td", {}, t("player {n}", { n: s.seat + 1 })), el("td", {}, status),
      el("td", {}, el("a", { href: `/tables/${encodeURIComponent(seat.table)}#token=${encodeURIComponent(seat.token)}`, class: "rejoin" }, s.over ? t("see the result") : t("rejoin")))));
  }
  body.replaceChildren(...rows);
  if (!rows.length) body.append(el("tr", {}, el("td", { colspan: "4" }, t("None yet: tables you sit at appear here."))));
}

// An invite link (/#table=ID&invite=I) opens the join card alone (the lobby behind its link):
// who invites, to which game, how many players, the seat that is open, a name and one
// button; then the table. A table that has ended, is full or is gone says so.
async function showInvite() {
  const hash = new URLSearchParams(location.hash.slice(1));
  const table = hash.get("table");
  const invite = hash.get("invite");
  if (!table || !invite) return false;
  const card = document.getElementById("join-card");
  const title = document.getElementById("join-title");
  const error = document.getElementById("join-error");
  card.hidden = false;
  document.querySelector("main.lobby").hidden = true;
  document.body.dataset.join = "loading";
  title.textContent = t("You are invited to a table.");
  let state = null, status = 200;
  // The table as a watcher sees it (a table without spectators answers 403: join blind).
  const response = await fetch(`/api/tables/${encodeURIComponent(table)}`, { headers: { "Accept-Language": lang } });
  status = response.status;
  if (response.ok) state = await response.json();
  if (status === 404 || status === 410) return joinClosed(t("This table does not exist any more: it may have ended and been cleared away."), "gone");
  if (state && state.over) return joinClosed(t("This table has finished: its match is over."), "over");
  const open = state ? state.seats.filter((s) => s.presence === "open").map((s) => s.seat) : [];
  if (state && !open.length) return joinClosed(t("This table is full: every seat is taken."), "full");
  if (state) {
    ({ games } = await api("/api/games"));
    const host = state.seats.find((s) => !s.bot && s.presence !== "open" && s.name)
      || state.seats.find((s) => !s.bot && s.presence !== "open");
    const hostName = host ? host.name || t("Player {n}", { n: host.seat + 1 }) : null;
    title.textContent = hostName ? t("{host} invites you to a game of {game}", { host: hostName, game: titleOf(state.game) })
      : t("You are invited to a game of {game}", { game: titleOf(state.game) });
    const fact = (label, value, key) => [el("dt", {}, label), el("dd", { dataset: { fact: key } }, value)];
    document.getElementById("join-facts").replaceChildren(
      ...fact(t("Game"), titleOf(state.game), "game"),
      ...fact(t("Players"), String(state.players), "players"),
      ...fact(t("Your seat"), capitalized(t("player {n}", { n: open[0] + 1 })), "seat"),
      ...(hostName ? fact(t("Host"), hostName, "host") : []));
  }
  const form = document.getElementById("join-form");
  form.hidden = false;
  document.body.dataset.join = "open";
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    try {
      const claimed = await api(`/api/tables/${encodeURIComponent(table)}/seats`,
        { method: "POST", body: JSON.stringify({ name: document.getElementById("join-name").value, invite, ...(open.length ? { seat: open[0] } : {}) }) });
      rememberSeat(table, claimed.token, { seat: claimed.seat, ...(state ? { game: state.game } : {}) });
      location.href = `/tables/${encodeURIComponent(table)}#token=${encodeURIComponent(claimed.token)}`;
    } catch (e) {
      error.textContent = e.message;
    }
  });
  return true;
}

// The invite's table cannot be joined: why, in words, and the way to the lobby.
function joinClosed(why, kind) {
  document.getElementById("join-title").textContent = t("This invitation cannot be used");
  document.getElementById("join-facts").hidden = true;
  const text = document.getElementById("join-why");
  text.textContent = why;
  text.hidden = false;
  document.body.dataset.join = kind;
  return true;
}

async function start() {
  await loadWords(null);
  if (await showInvite()) {                  // the lobby waits behind its link
    document.getElementById("join-lobby").addEventListener("click", (e) => {
      e.preventDefault();
      history.replaceState(null, "", "/");
      location.reload();
    });
    return;
  }
  ({ games } = await api("/api/games"));
  const select = document.getElementById("game");
  select.replaceChildren(...games.map((g) => el("option", { value: g.game }, titleOf(g.game))));
  document.getElementById("games").replaceChildren(...games.map((g) =>
    el("li", {}, t("{game}: {n} players", { game: titleOf(g.game), n: g.min_players === g.max_players ? g.min_players : `${g.min_players}–${g.max_players}` }),
      " · ", el("a", { href: `/howto/${encodeURIComponent(g.game)}?lang=${encodeURIComponent(lang)}`, class: "howto-link", dataset: { game: g.game } }, t("How to play")))));
  select.addEventListener("change", fillPlayers);
  document.getElementById("players").addEventListener("change", fillSeats);
  document.getElementById("seat").addEventListener("change", fillOthers);
  document.getElementById("new-table").addEventListener("submit", create);
  fillPlayers();
  await Promise.all([loadTables(), loadMine()]);
  setInterval(() => loadTables().catch(() => {}), 10000);   // new tables appear by themselves
}

start().catch((e) => { document.getElementById("lobby-error").textContent = e.message; });
