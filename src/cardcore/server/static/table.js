// The web table: one seat (or a spectator) at one table, over the WebSocket protocol
// of docs/server.md. Plays by clicking cards and the buttons built from `legal`.
import { el, cardImage, cardsText, cardLabel, cardTitle, setWildCards } from "./cards.js";
import { describe, breakdownTable, seatName, botName, rankingList, scoreTable, storyText, roundTexts } from "./words.js";
import { loadLayout, zoneBox, ordered, facts, seatFacts, size } from "./board.js";
import { rememberSeat, forgetTable, sortedHand, SORT_KEY, inviteLink, heldInvite, lastShownEnd, rememberShownEnd } from "./seats.js";
import { t, loadWords, useGame, lang } from "./i18n.js";

// The seat token: from the link's fragment (#token=..., never sent to the server, so never
// in a log), or from ?token= (older links). The socket carries it as a subprotocol.
const params = new URLSearchParams(location.search);
const token = new URLSearchParams(location.hash.slice(1)).get("token") || params.get("token");
const tableId = decodeURIComponent(location.pathname.split("/").pop());

const MANY_MOVES = 40;          // past this, card moves wait for a card to be selected
if (token) rememberSeat(tableId, token);

const ANIMATION_MS = 350;       // a card's flight from one zone to another
// A forced move (the seat's only legal move names no card of its hand: a pass, a take, a
// draw) is made for the player after FORCED_MS, counting down with a Cancel button; the
// table menu's setting (FORCED_KEY, on by default) turns it off. The pause is the same
// whatever the hand holds, so its timing tells the others nothing the rules do not.
const FORCED_MS = 3000;
const FORCED_KEY = "cardcore.forced";

// The game's layout hints (its package's web/board.js, data only) and what it calls a round,
// from GET /api/games; loaded with the first state.
let game = null;

async function loadParts(name) {
  const [layout, catalogue] = await Promise.all([loadLayout(name), fetch("/api/games").then((r) => r.json())]);
  const entry = (catalogue.games || catalogue).find((g) => g.game === name) || {};
  return { layout, title: entry.title || name, roundName: entry.round_name || "round",
    roundEnd: entry.round_end_event || "round_end" };
}

// The zones' descriptors (the state's `zones`, and the `new_zones` of the events that make
// zones in play), by id.
const described = new Map();
// A zone the state does not describe yet (one a legal move would make, a new meld) has the
// label of its kind: another zone's of that kind, else the game's word for the kind.
function zoneOf(id) {
  const found = described.get(id);
  if (found) return found;
  const kind = id.split(":")[0];
  const same = [...described.values()].find((z) => z.kind === kind);
  return { id, kind, owner: null, team: null, label: same ? same.label : t(kind) };
}
function myHand() {
  for (const z of described.values()) if (z.kind === "hand" && z.owner === state.seat) return z.id;
  return `hand:${state.seat}`;
}
function zonesNow() { return state.view.zones || {}; }

// The cards of an action that leave the hand (so they can be selected): those its moves take
// from the seat's hand zone (docs/server.md, "Zones and moves"); other cards it moves (a pile
// taken, a card drawn) are shown, not selected.
function handCardsOf(a) {
  const hand = myHand();
  return (a.moves || []).filter((m) => m.from === hand && Array.isArray(m.cards)).flatMap((m) => m.cards);
}

let state = null;               // the last state message
let events = [];                // every event received, in order
let selected = [];              // indexes into the hand
let pending = false;            // an action was sent; wait for the next state
let socket = null;
let retry = 0;
let incoming = Promise.resolve();
let shownEnds = null;           // event numbers of the round and match ends already shown
let hinted = [];                // action ids the last hint suggested
let movesPage = 0;              // the page of moves shown when they do not all fit (showPage)
let rewinds = 0;                // the table's take-backs seen (docs/server.md, "Take-backs")
let forced = null;              // the forced move counting down: {id, n, until, timer, ticker}
let forcedCancelled = -1;       // the event count at which the player cancelled one

function setStatus(text, kind = "") {
  const node = document.getElementById("status");
  // Its text is live from now on: the page's translation pass (on the first state, when the
  // game's words arrive) must not put the placeholder "connecting" back.
  node.removeAttribute("data-i18n");
  node.textContent = text;
  node.className = `status ${kind}`;
}

// A notice (a refusal, a hint, a copied link) for 5 s: in the bar of the hand and the moves,
// in place of the line over the moves, so it covers nothing on the table; the moves are laid
// out again with it (it may take two lines).
function toast(text) {
  const node = document.getElementById("toast");
  node.textContent = text;
  showToast(true);
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => showToast(false), 5000);
}

function showToast(shown) {
  document.getElementById("toast").hidden = !shown;
  document.getElementById("selection-hint").hidden = shown;
  if (state) renderMoves();
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const query = new URLSearchParams();
  query.set("since", String(events.length));
  if (rewinds) query.set("rewinds", String(rewinds));
  query.set("lang", lang);                 // the server's refusals in the page's language
  query.set("presence", "1");                   // each seat's presence as it changes
  const protocols = token ? ["cardcore", `cardcore.token.${token}`] : [];
  socket = new WebSocket(`${scheme}://${location.host}/ws/tables/${encodeURIComponent(tableId)}?${query}`, protocols);
  socket.addEventListener("open", () => { retry = 0; setStatus(t("connected"), "ok"); });
  socket.addEventListener("message", (message) => {
    const data = JSON.parse(message.data);
    // In order, one at a time: the first state waits for the game's parts to load.
    incoming = incoming.then(() => (data.type === "state" ? onState(data)
      : data.type === "error" ? onError(data) : data.type === "presence" ? onPresence(data)
      : data.type === "rematch" && state && state.seat !== null ? toast(t("A rematch is ready: press Rematch to join it."))
      : data.type === "bot" ? toast(data.text) : null));   // a failing plug-in: the server's words
  });
  socket.addEventListener("close", (e) => {
    setStatus(t("disconnected — reconnecting"), "bad");
    if (e.code === 1008) { setStatus(t("refused"), "bad"); return; }
    retry = Math.min(retry + 1, 6);
    setTimeout(connect, 250 * 2 ** retry);
  });
}

// A seat came, went, was claimed or left (docs/server.md, "Presence").
function onPresence(data) {
  const seat = state && state.seats[data.seat];
  if (!seat) return;
  seat.presence = data.presence;
  seat.name = data.name;
  render();
}

function onError(data) {
  pending = false;
  document.body.dataset.pending = "false";
  if (!state && (data.status === 404 || data.status === 410)) { showMissing(data); return; }
  if (data.status === 403 && !state) setStatus(t("refused: {error}", { error: data.error }), "bad");
  toast(data.error);
  if (state) render();
}

// A table that does not exist (or no longer does): say so, with the way back.
function showMissing(data) {
  forgetTable(tableId);
  document.body.dataset.missing = "true";
  document.querySelector("main").hidden = true;
  document.getElementById("dock").hidden = true;
  document.getElementById("missing").hidden = false;
  if (data.status === 410) document.getElementById("missing-why").textContent = t("This table was deleted.");
  document.getElementById("title").textContent = t("no such table");
  setStatus(t("not found"), "bad");
  document.title = `${t("No such table")} · cardcore`;
}

// The game's how-to-play page (GET /howto/{game}) in this page's language, in a new tab.
function showRulesLink(name) {
  const link = document.getElementById("rules-link");
  link.href = `/howto/${encodeURIComponent(name)}?lang=${encodeURIComponent(lang)}`;
  link.target = "_blank";
  link.rel = "noopener";
  link.hidden = false;
}

// The score table's hint says the game's round («после каждой партии»): its msgid, in the
// page and in the copy a take-back puts back (the page's pass translates it).
function roundHint() {
  const msgid = roundTexts(game.roundName).hint;
  for (const node of [document.getElementById("score-table"), ...sideStart["score-table"]]) {
    const hint = node.classList && node.classList.contains("hint") ? node : node.querySelector && node.querySelector(".hint");
    if (hint) { hint.textContent = msgid; hint.dataset.msgid = msgid; }
  }
}

async function onState(data) {
  if (!game) {
    game = await loadParts(data.game);
    roundHint();
    useGame(data.game);          // this game's words, not another game's with the same msgid
    showRulesLink(data.game);
  }
  for (const z of data.zones || []) described.set(z.id, { ...z });
  for (const e of data.events) for (const z of e.new_zones || []) if (!described.has(z.id)) described.set(z.id, { ...z, label: t(z.label) });
  if (data.rewound) {            // a take-back: the events start again from 0
    events = [];
    shownEnds = null;            // the ends still in the log are history, not news
    resetSide();
  }
  rewinds = data.takeback ? data.takeback.rewinds : rewinds;
  const before = events.length;
  for (const event of data.events) {
    if (event.n === events.length) events.push(event);   // never twice, never out of order
  }
  const first = state === null;
  if (first && token) rememberSeat(tableId, token, { game: data.game, seat: data.seat });
  if (first || data.rewound || data.event_count !== state.event_count) hinted = [];
  const rects = zoneRects();
  state = data;
  pending = false;
  selected = [];
  movesPage = 0;
  render();
  if (!first && !data.rewound) animate(events.slice(before), rects);
  // Round and match ends arriving live open the end panel. Of the history at (re)load: a
  // finished match shows its result, and the last round end its panel if this browser has
  // not shown it yet (a page that connects after the round ended), once.
  if (shownEnds === null) {
    shownEnds = new Set(events.filter((e) => e.kind === game.roundEnd || e.kind === "match_end").map((e) => e.n));
    const last = [...events].reverse().find((e) => e.kind === game.roundEnd);
    const unseen = first && last && last.n > lastShownEnd(tableId) ? last : null;
    if (first && (data.over || unseen)) showEndPanel(unseen);
  } else {
    const ends = events.slice(before).filter((e) => (e.kind === game.roundEnd || e.kind === "match_end") && !shownEnds.has(e.n));
    for (const e of ends) shownEnds.add(e.n);
    const round = [...ends].reverse().find((e) => e.kind === game.roundEnd);
    if (ends.length) showEndPanel(round || null);
  }
}

// ---------------------------------------------------------------- the end panels
function showEndPanel(roundEvent) {
  const c = ctx();
  const dialog = document.getElementById("panel");
  const body = document.getElementById("panel-body");
  const buttons = document.getElementById("panel-buttons");
  const over = state.over;
  const parts = [];
  if (roundEvent) rememberShownEnd(tableId, roundEvent.n);
  if (roundEvent) {
    parts.push(el("p", { class: "panel-story" }, ...describe(roundEvent, c).childNodes));
    if (roundEvent.breakdown) parts.push(breakdownTable(roundEvent, c));
  }
  if (over) parts.push(el("h3", {}, t("Final ranking")), rankingList(state, events, c));
  document.getElementById("panel-title").textContent = over ? t("The match is over")
    : t("{round} {n} is over", { round: capital(t(game.roundName)), n: roundEvent ? roundEvent[game.roundName] ?? "" : "" });
  body.replaceChildren(...parts);
  const close = () => { dialog.close(); document.body.dataset.panel = ""; scheduleForced(); };
  const list = [];
  if (over) {
    if (state.seat !== null) list.push(el("button", { type: "button", id: "rematch", class: "primary", onclick: rematch }, t("Rematch")));
    list.push(el("a", { href: "/", class: "button" }, t("New game")));
    list.push(el("button", { type: "button", id: "panel-close", onclick: close }, t("Close")));
  } else {
    list.push(el("button", { type: "button", id: "continue", class: "primary", onclick: close }, t("Continue")));
  }
  buttons.replaceChildren(...list);
  if (!dialog.open) dialog.showModal();
  document.body.dataset.panel = over ? "match" : "round";
  stopForced();                  // a forced move waits until the panel is closed
  document.body.dataset.panels = String(Number(document.body.dataset.panels || 0) + 1);
  (list[0]).focus();
}

function capital(word) { return word ? word[0].toUpperCase() + word.slice(1) : ""; }

// The table's rematch (POST /api/tables/{id}/rematch): made once for every seat that asks,
// with the same game, players, options, bots and names; every seat keeps its token, so each
// browser just follows the new table id.
async function rematch() {
  const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}/rematch`, { method: "POST", headers: { Authorization: `Bearer ${token}`, "Accept-Language": lang } });
  const made = await response.json();
  if (!response.ok) { toast(made.error || `HTTP ${response.status}`); return; }
  // The rematch keeps the invite (docs/server.md, "Rematch"): its open seats show it too.
  const invite = heldInvite(tableId);
  rememberSeat(made.table, token, { game: state.game, seat: state.seat, ...(invite ? { invite } : {}) });
  location.assign(`/tables/${encodeURIComponent(made.table)}#token=${encodeURIComponent(token)}`);
}

// ---------------------------------------------------------------- hints
async function askHint() {
  if (!state || state.seat === null || !token) return;
  const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}/hint`, { headers: { Authorization: `Bearer ${token}`, "Accept-Language": lang } });
  const body = await response.json();
  if (!response.ok) { toast(body.error || `HTTP ${response.status}`); return; }
  hinted = body.hints.map((h) => h.action);
  movesPage = 0;                 // the hinted moves lead the first page
  const best = body.hints[0];
  const move = best && state.legal.find((a) => a.id === best.action);
  if (move) {
    selected = [];
    // (a layout's `hint` words what winning is in its game, where nobody wins but a loser)
    toast(t(game.layout.hint || "Suggested: {move} (wins {share}% of the searched games)", { move: `${moveLabel(move)} ${move.cards.map(cardLabel).join(" ")}`.trim(), share: Math.round(best.estimate * 100) }));
  }
  renderHand();
  renderMoves();
}

// ---------------------------------------------------------------- take-backs
function takeBack() {
  if (!socket || socket.readyState !== WebSocket.OPEN || pending || !state || !state.takeback?.available) return;
  pending = true;
  document.body.dataset.pending = "true";
  socket.send(JSON.stringify({ type: "takeback", after: events.length }));
  render();
}

// The side panels as at the start (a take-back can remove the round ends they showed).
const sideStart = Object.fromEntries(["score-table", "scoring"].map((id) =>
  [id, [...document.getElementById(id).childNodes].map((n) => n.cloneNode(true))]));
function resetSide() {
  for (const [id, nodes] of Object.entries(sideStart)) {
    const box = document.getElementById(id);
    box.replaceChildren(...nodes.map((n) => n.cloneNode(true)));
    for (const node of box.querySelectorAll("[data-i18n]")) node.textContent = t(node.textContent.trim());
    delete box.dataset.n;
    delete box.dataset.count;
  }
  const log = document.getElementById("log");
  log.replaceChildren();
  log.dataset.count = "0";
}

// ---------------------------------------------------------------- forced moves
function forcedMove() {
  const s = state;
  if (!s || s.seat === null || !token || pending || s.over || s.current_player !== s.seat) return null;
  if (localStorage.getItem(FORCED_KEY) === "off" || forcedCancelled === s.event_count) return null;
  if (document.body.dataset.panel) return null;      // an end panel is open: read it first
  // (none of the cards it names is in the hand: a round's end may gather the hand, which
  // its moves tell, but that is no card the player plays)
  const hand = handCards();
  return s.legal.length === 1 && !s.legal[0].cards.some((c) => hand.includes(c)) ? s.legal[0] : null;
}

function scheduleForced() {
  const move = forcedMove();
  if (forced && (!move || forced.id !== move.id || forced.n !== state.event_count)) stopForced();
  if (!move || forced) return;
  const n = state.event_count;
  forced = { id: move.id, n, until: Date.now() + FORCED_MS, ticker: setInterval(showForced, 250),
    timer: setTimeout(() => {
      const now = forcedMove();
      stopForced();
      if (now && now.id === move.id && state.event_count === n) send(now);
    }, FORCED_MS) };
  showForced();
}

function showForced() {
  if (!forced) return;
  const move = state.legal.find((a) => a.id === forced.id);
  if (!move) { stopForced(); return; }
  const seconds = Math.max(1, Math.ceil((forced.until - Date.now()) / 1000));
  document.getElementById("forced-text").textContent = t("Your only move: {move} in {n} s", { move: moveLabel(move), n: seconds });
  document.getElementById("forced").hidden = false;
  document.body.dataset.forced = String(move.id);
}

function stopForced() {
  if (forced) { clearTimeout(forced.timer); clearInterval(forced.ticker); }
  forced = null;
  document.getElementById("forced").hidden = true;
  delete document.body.dataset.forced;
}

function cancelForced() {
  if (!forced) return;
  forcedCancelled = forced.n;
  stopForced();
  document.body.dataset.forcedCancelled = String(forcedCancelled);
  document.querySelector("#moves button.move")?.focus();
}

function send(action) {
  stopForced();
  if (!socket || socket.readyState !== WebSocket.OPEN || pending) return;
  pending = true;
  document.body.dataset.pending = "true";
  socket.send(JSON.stringify({ type: "action", action: action.id, after: events.length }));
  renderMoves();
}

// ---------------------------------------------------------------- rendering
function ctx() {
  return {
    me: state.seat, seats: state.seats, roundName: game.roundName, roundEnd: game.roundEnd,
    carried: state.carried ?? null,
  };
}

// A zone that can be clicked: exactly one legal move takes cards from it into the hand and
// none from the hand (a draw, a take).
function zoneAction(id) {
  if (pending || state.seat === null) return {};
  const hand = myHand();
  const moves = state.legal.filter((a) => !handCardsOf(a).length && (a.moves || []).some((m) => m.from === id && m.to === hand));
  return moves.length === 1 ? { kind: moves[0].kind, onclick: () => send(moves[0]) } : {};
}

// ---------------------------------------------------------------- cards in flight
// Where each zone is on screen, before a state is drawn and after.
function zoneRects() {
  const found = new Map();
  for (const node of document.querySelectorAll("[data-zone]")) {
    if (node.offsetParent !== null) found.set(node.dataset.zone, node.getBoundingClientRect());
  }
  return found;
}

// Each move of the new events as cards flying from its zone to the other (faces where this
// seat may see them, backs where not); with reduced motion, none.
function animate(fresh, before) {
  if (window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
  const after = zoneRects();
  const layer = document.getElementById("flying");
  let delay = 0, count = 0;
  for (const move of fresh.flatMap((e) => e.moves || [])) {
    const from = before.get(move.from) || after.get(move.from);
    const to = after.get(move.to) || before.get(move.to);
    if (!from || !to) continue;
    const faces = Array.isArray(move.cards) ? move.cards.slice(0, 5) : Array.from({ length: Math.min(move.count || 0, 5) }, () => null);
    faces.forEach((card, i) => {
      const img = card ? cardImage(card, "small") : el("img", { class: "card-img small", src: "/cards/back.svg", alt: "" });
      img.classList.add("flying");
      img.style.left = `${from.left + 6 + i * 6}px`;
      img.style.top = `${from.top + 14}px`;
      layer.append(img);
      img.animate([{ transform: "translate(0, 0)" }, { transform: `translate(${to.left - from.left}px, ${to.top - from.top}px)` }],
        { duration: ANIMATION_MS, delay, easing: "ease", fill: "forwards" }).finished.then(() => img.remove(), () => img.remove());
      count += 1;
    });
    delay = Math.min(delay + 80, 800);
  }
  document.body.dataset.animated = String(Number(document.body.dataset.animated || 0) + count);
}

function render() {
  const s = state, v = s.view, c = ctx();
  const me = s.seat;
  setWildCards(s.wild_cards);
  document.title = `${t(game.title)} · cardcore`;
  document.getElementById("title").textContent =
    `${t(game.title)} · ${me === null ? t("watching") : t("you are player {n}", { n: me + 1 })}`;
  // The header stays short (game and seat); the table's id is under a menu.
  document.getElementById("table-id").textContent = t("table {id}", { id: s.table });
  document.getElementById("table-menu").hidden = false;
  document.body.dataset.game = s.game;
  document.body.dataset.eventCount = String(s.event_count);
  document.body.dataset.over = String(s.over);
  document.body.dataset.myTurn = String(me !== null && s.current_player === me);
  document.body.dataset.pending = String(pending);
  document.getElementById("hint").hidden = me === null || !token;
  document.getElementById("hint").disabled = pending || s.over || s.current_player !== me;
  const undo = document.getElementById("undo");
  undo.hidden = me === null || !token || !s.takeback;
  undo.disabled = pending || !s.takeback?.available;
  renderSeats(s, v, c);
  renderInvite(s);
  renderBoard(s, v, c);
  renderTurn(s, c);
  renderHand();
  renderMoves();
  renderLog(c);
  scheduleForced();
  fitDock();
}

// The page keeps room under the table for the fixed bar of the hand and the moves.
function fitDock() {
  const dock = document.getElementById("dock");
  document.documentElement.style.setProperty("--dock-h", `${dock.hidden ? 0 : dock.offsetHeight}px`);
}

// The board: the layout's facts, the shared zones, each team's zones.
function renderBoard(s, v, c) {
  const zones = zonesNow();
  const layout = game.layout;
  const known = [...new Set([...described.keys(), ...Object.keys(zones)])].map(zoneOf);
  const shared = ordered(known.filter((z) => z.owner === null && z.team === null), layout);
  const piles = el("div", { class: "piles" }, ...shared.map((z) => zoneBox(z, zones[z.id], layout, { ...zoneAction(z.id), slots: (v.slots || {})[z.id] })));
  const teamIds = [...new Set(known.filter((z) => z.owner === null && z.team !== null).map((z) => z.team))].sort();
  const myTeam = s.seat === null ? null : zoneOf(myHand()).team;
  const teams = teamIds.length ? el("div", { class: "teams" }, ...teamIds.map((team) => {
    const own = known.filter((z) => z.owner === null && z.team === team);
    const seats = known.filter((z) => z.kind === "hand" && z.team === team).map((z) => seatName(z.owner, c));
    return el("div", { class: `team team-${team}${myTeam === team ? " my-team" : ""}`, dataset: { team: String(team) } },
      el("h3", {}, capital(t("team {n}", { n: team })), " ", el("span", { class: "team-seats" }, `(${seats.join(", ")})`)),
      el("div", { class: "team-zones" }, ...own.filter((z) => size(zones[z.id]))
        .map((z, i, list) => sameLabel(zoneBox(z, zones[z.id], layout, zoneAction(z.id)), i > 0 && list[i - 1].label === z.label))),
      own.some((z) => size(zones[z.id])) ? "" : el("p", { class: "hint" }, t("nothing on the table yet")));
  })) : null;
  const board = document.getElementById("board");
  board.classList.toggle("with-teams", Boolean(teams));
  board.replaceChildren(...[facts(v, layout, (seat) => seatName(seat, c)), piles, teams].filter(Boolean));
  fitBoard();
}

// A zone box whose title repeats the one before it (a team's melds): the smallest density
// leaves its title out (fitBoard).
function sameLabel(box, same) { if (same) box.classList.add("same-label"); return box; }

// On a laptop the felt is what the seats, the turn line and the bar leave: when the teams'
// zones (a deal of melds) need more, their cards get smaller, step by step, until every
// zone is in sight (the felt scrolls only past the smallest).
const DENSITIES = ["", "dense", "denser", "densest"];
function fitBoard() {
  const board = document.getElementById("board");
  for (const density of DENSITIES) {
    board.dataset.density = density;
    if (!board.classList.contains("with-teams") || board.scrollHeight <= board.clientHeight + 1) break;
  }
}

// Partners (docs/server.md, "The web table"): a seat's team is its hand zone's (a game where
// seats share a side gives its seats' zones their team); null where every seat is alone.
function teamOf(seat) {
  const zone = [...described.values()].find((z) => z.kind === "hand" && z.owner === seat);
  return zone && zone.team !== null && zone.team !== undefined ? zone.team : null;
}
function partnersPlay() {
  const teams = state.seats.map(({ seat }) => teamOf(seat)).filter((team) => team !== null);
  return teams.length > new Set(teams).size;
}
// A seat's team mark: its team's colour and the word for it from this seat's side.
function teamMark(seat) {
  if (!partnersPlay()) return "";
  const team = teamOf(seat), mine = state.seat === null ? null : teamOf(state.seat);
  const word = state.seat === null ? t("team {n}", { n: team + 1 }) : seat === state.seat ? t("your team")
    : team === mine ? t("partner") : t("opponent");
  return el("span", { class: `team-mark team-${team}${team === mine ? " ours" : ""}`, dataset: { team: String(team) } }, "● ", word);
}
// The seat as the turn line names it: a partner says so («партнёр Игрок 3 (простой)»; the
// line starts with a capital).
function turnName(seat, c) {
  const name = seatName(seat, c);
  if (!partnersPlay() || state.seat === null || seat === state.seat || teamOf(seat) !== teamOf(state.seat)) return name;
  return t("partner {name}", { name });
}

function renderSeats(s, v, c) {
  const box = document.getElementById("seats");
  const zones = zonesNow();
  const known = [...new Set([...described.keys(), ...Object.keys(zones)])].map(zoneOf);
  const hand = s.seat === null ? null : myHand();
  const presenceWords = { connected: t("connected"), away: t("away"), open: t("open") };
  box.replaceChildren(...s.seats.map(({ seat, bot, name, presence }) => {
    const turn = s.current_player === seat;
    const winner = s.over && s.winners.includes(seat);
    const node = el("div", { class: `seat${turn ? " to-move" : ""}${seat === s.seat ? " me" : ""}${winner ? " winner" : ""}`, dataset: { seat: String(seat) } },
      el("div", { class: "seat-name" }, seat === s.seat ? t("You (player {n})", { n: seat + 1 }) : name || t("Player {n}", { n: seat + 1 }), bot ? el("span", { class: "bot" }, ` ${t("{name} bot", { name: botName(bot) })}`) : "",
        presenceWords[presence] ? el("span", { class: `presence presence-${presence}` }, ` · ${presenceWords[presence]}`) : ""),
      el("div", { class: "seat-zones" }, ...known.filter((z) => z.owner === seat && z.id !== hand)
        .map((z) => zoneBox(z, zones[z.id], game.layout, { compact: true }))),
      teamMark(seat),
      el("div", { class: "seat-score" }, t("score {n}", { n: s.scores[seat] })),
      el("div", { class: "seat-extra" }, seatFacts(v, seat, game.layout).join(" · ")));
    if (turn) node.append(el("div", { class: "turn-mark" }, seat === s.seat ? t("your turn") : t("thinking")));
    if (winner) node.append(el("div", { class: "winner-mark" }, t("winner")));
    return node;
  }));
}

// The layout's sentence for the phase (docs/server.md, "The web table"): [yours, theirs, and
// optionally theirs while you are the view's `about` seat], {who} the seat to move, {about}
// the seat the view's `about` key names («Игрок 2 подкидывает, Игрок 1 берёт»).
function turnWords(s, c) {
  const words = (game.layout.turn || {})[s.view.phase];
  if (!words || !words.say || s.current_player === null || s.current_player === undefined) return "";
  const about = words.about ? s.view[words.about] : null;
  const fields = { who: turnName(s.current_player, c), about: about === null || about === undefined ? "" : turnName(about, c) };
  if (s.current_player === s.seat) return t(words.say[0], fields);
  return t(words.say[about === s.seat && words.say[2] ? 2 : 1], fields);
}

function renderTurn(s, c) {
  const node = document.getElementById("turn");
  let text;
  // A layout's `turn.over: "event"`: the match end's own sentence («Игра окончена. Вы не
  // дурак!»), for a game where nobody wins but one loses.
  const end = s.over && (game.layout.turn || {}).over === "event" ? [...events].reverse().find((e) => e.kind === "match_end") : null;
  if (end && end.text) {
    text = end.text;
  } else if (s.over) {
    const names = s.winners.map((w) => seatName(w, c));
    const winners = { winners: names.join(", ") };
    text = (names.length === 1 ? t("The match is over. Winner: {winners}.", winners) : t("The match is over. Winners: {winners}.", winners)) + " " +
      (s.seat === null ? "" : s.winners.includes(s.seat) ? t("Well played!") : t("Better luck next time."));
  } else if (turnWords(s, c)) {
    text = capital(turnWords(s, c));
  } else if (s.current_player === s.seat && s.seat !== null) {
    text = t("Your turn ({phase}).", { phase: t(s.view.phase) });
  } else {
    text = capital(t("{who} to move ({phase}).", { who: turnName(s.current_player, c), phase: t(s.view.phase) }));
  }
  node.textContent = text;
  node.className = s.current_player === s.seat && !s.over ? "mine" : "";
}

function handCards() {
  const zone = state.seat === null ? undefined : zonesNow()[myHand()];
  return Array.isArray(zone) ? zone : state.view.hand || [];
}

function usableCards() {
  // How many of each card some legal move uses (so a card can be clicked).
  const counts = {};
  for (const a of state.legal) {
    const need = {};
    for (const card of handCardsOf(a)) need[card] = (need[card] || 0) + 1;
    for (const [card, n] of Object.entries(need)) counts[card] = Math.max(counts[card] || 0, n);
  }
  return counts;
}

function renderHand() {
  const hand = handCards();
  const area = document.getElementById("hand-area");
  area.hidden = state.seat === null;
  const usable = usableCards();
  const seen = {};
  const row = document.getElementById("hand");
  row.dataset.zone = state.seat === null ? "" : myHand();
  const order = document.getElementById("sort").value;
  row.replaceChildren(...sortedHand(hand, order).map((i) => {
    const card = hand[i];
    seen[card] = (seen[card] || 0) + 1;
    const can = !pending && (usable[card] || 0) > 0;
    const button = el("button", {
      class: `card${selected.includes(i) ? " selected" : ""}${can ? " usable" : " unplayable"}`,
      type: "button", dataset: { card, index: String(i) }, disabled: !can,
      "aria-label": can ? cardTitle(card) : t("{card} (no move uses it now)", { card: cardTitle(card) }),
      "aria-pressed": String(selected.includes(i)), onclick: () => toggle(i),
    }, cardImage(card));
    return button;
  }));
  document.getElementById("hand-title").textContent = t("Your hand ({n})", { n: hand.length });
  fitHand();
}

// How much the hand's cards overlap: none while they fit the row side by side (a small gap
// then), else just enough for one row, but never so much that a card shows less than its
// corner (HAND_CORNER px): past that the row wraps.
const HAND_GAP = 5, HAND_CORNER = 26;
function fitHand() {
  const row = document.getElementById("hand");
  const first = row.querySelector("button.card");
  if (!first || row.offsetParent === null) return;
  const n = row.children.length, w = first.offsetWidth;
  const style = getComputedStyle(row);
  const room = row.clientWidth - parseFloat(style.paddingLeft) - 1;     // 1: rounding
  // side by side, each card takes w - overlap (its margin): n of them must fit the room; when
  // they overlap, the last card's overhang sits in the row's padding (CSS) as well
  const apart = w - room / n;
  const needed = apart <= 0 || n === 1 ? apart : (n * w - room) / (n - 1);
  const overlap = Math.min(Math.max(-HAND_GAP, Math.ceil(needed)), w - HAND_CORNER);
  row.style.setProperty("--hand-overlap", `${overlap}px`);
}

function toggle(i) {
  selected = selected.includes(i) ? selected.filter((j) => j !== i) : [...selected, i];
  movesPage = 0;
  renderHand();
  renderMoves();
}

function selectedCards() { return selected.map((i) => handCards()[i]); }

function contains(cards, wanted) {
  const left = {};
  for (const c of cards) left[c] = (left[c] || 0) + 1;
  for (const c of wanted) { if (!left[c]) return false; left[c] -= 1; }
  return true;
}

function matchingMoves() {
  const want = selectedCards();
  return state.legal.filter((a) => contains(handCardsOf(a), want));
}

// A move's words: the layout's caption for its kind, else its moves from zone to zone in the
// zones' words; where its hand cards go when there is more than one zone of that kind (a
// meld of the team's, one of several piles), that zone's first card, or "new".
const labels = new WeakMap();      // each state's move words, by action (worked out once)
function moveLabel(a) {
  if (!labels.has(state)) labels.set(state, new Map());
  const done = labels.get(state);
  if (!done.has(a.id)) done.set(a.id, moveWords(a));
  return done.get(a.id);
}

// A layout's caption for an action kind: the phase's own (`phase_actions`: a lead and a card
// thrown in read differently), else the kind's (`actions`).
function captionOf(kind) {
  return ((game.layout.phase_actions || {})[state.view.phase] || {})[kind] || game.layout.actions[kind];
}

function moveWords(a) {
  const hand = myHand();
  const where = (id) => (id === hand ? t("your hand") : zoneOf(id).label);
  const caption = captionOf(a.kind) ? t(captionOf(a.kind))
    : (a.moves || []).length ? capital(a.moves.map((m) => `${where(m.from)} → ${where(m.to)}`).join(", "))
    : t(capital(a.kind.replace(/_/g, " ")));
  const zones = zonesNow();
  const known = [...new Set([...described.keys(), ...Object.keys(zones)])].map(zoneOf);
  // (the zones this seat knows, and those the legal moves would make)
  const into = (b) => (b.moves || []).filter((m) => m.from === hand && m.to !== hand).map((m) => m.to);
  const targets = new Set([...known.map((z) => z.id), ...state.legal.flatMap(into)]);
  const several = (id) => [...targets].filter((other) => zoneOf(other).kind === zoneOf(id).kind).length > 1;
  const detail = [...new Set(into(a))].filter(several)
    .map((id) => { const cards = zones[id]; return `→ ${where(id)} ${Array.isArray(cards) && cards.length ? cardLabel(cards[0]) : t("new")}`; });
  return [caption, ...detail].join(" ");
}

// The move buttons. The bar at the bottom must show them without scrolling: when every
// move does not fit (many card combinations, a small screen), the moves that use hand cards
// wait for a card to be selected; the card-free ones (and those of one card, the hint's moves)
// stay. When even those do not fit (long words on a phone), they come in pages (showPage).
function renderMoves() {
  const box = document.getElementById("moves");
  const hint = document.getElementById("selection-hint");
  for (const key of ["pages", "page", "count"]) delete box.dataset[key];
  if (!state || state.seat === null) { box.replaceChildren(); hint.textContent = ""; return; }
  const moves = matchingMoves();
  const keep = (a) => !handCardsOf(a).length || hinted.includes(a.id);
  const single = (a) => handCardsOf(a).length === 1;        // one card out (a discard)
  const levels = selected.length ? [moves] : [
    moves,
    moves.filter((a) => keep(a) || single(a)),
    moves.some(keep) ? moves.filter(keep) : moves.filter(single),
  ];
  const tooMany = !selected.length && moves.filter((a) => handCardsOf(a).length).length > MANY_MOVES;
  let shown = moves;
  for (let level = tooMany ? 1 : 0; level < levels.length; level++) {
    shown = levels[level];
    if (level > 0) hint.textContent = t("{n} moves: click cards in your hand to see the ones that use them.", { n: moves.length });
    else if (selected.length) hint.textContent = moves.length ? t("Moves with {cards}:", { cards: selectedCards().map(cardLabel).join(" ") }) : t("No move uses exactly these cards together; click a card again to drop it.");
    else hint.textContent = state.legal.length ? t("Your moves (or click cards to narrow them down):") : "";
    box.replaceChildren(...shown.map(moveButton));
    if (dockFits()) break;
  }
  if (!dockFits()) showPage(box, [...shown.filter((a) => hinted.includes(a.id)), ...shown.filter((a) => !hinted.includes(a.id))]);
  fitDock();
}

function dockFits() {
  const dock = document.getElementById("dock");
  return dock.scrollHeight <= dock.clientHeight + 1;
}

// Moves past what the bar holds come in pages: as many as fit, then "Other moves (n)", which
// shows the next page (from the last, the first again). Every move is a tap or two away and
// none is off the screen. The pages are measured with the largest count the button can show.
function showPage(box, shown) {
  const other = (n, onclick) => el("button", { class: "tool other-moves", type: "button", onclick }, t("Other moves ({n})", { n }));
  const starts = [];
  for (let start = 0; start < shown.length;) {
    starts.push(start);
    const page = shown.slice(start).map(moveButton);
    box.replaceChildren(...page, other(shown.length));
    while (page.length > 1 && !dockFits()) page.pop().remove();
    start += page.length;
  }
  if (starts.length === 1) { box.replaceChildren(...shown.map(moveButton)); return; }   // the hand fills the bar
  const at = movesPage % starts.length;
  const end = starts[at + 1] ?? shown.length;
  box.replaceChildren(...shown.slice(starts[at], end).map(moveButton), other(shown.length - (end - starts[at]), () => {
    movesPage = (at + 1) % starts.length;
    renderMoves();
    document.querySelector("#moves button.move")?.focus();
  }));
  Object.assign(box.dataset, { pages: String(starts.length), page: String(at), count: String(shown.length) });
}

// Moves whose words and cards read the same (a suit to nominate, ways of taking a pile) are
// told apart by apartWords.
const wordsKey = (b) => `${moveLabel(b)}|${b.cards.join(" ")}`;
function alikeMoves(a) { return state.legal.filter((b) => wordsKey(b) === wordsKey(a)); }
function sameWords(a) { return alikeMoves(a).length > 1; }

// They say which hand cards each one uses when that tells them apart (two ways of taking a
// pile into a new meld: Q♣ Q♠ or Q♣ 2♦), else the rest of their notation.
function apartWords(a) {
  const own = handCardsOf(a).join(" ");
  if (own && alikeMoves(a).filter((b) => handCardsOf(b).join(" ") === own).length === 1) {
    return [" ", t("from your hand"), " ", ...cardsText(handCardsOf(a))];
  }
  return [" ", ...storyText(a.label.split(" ").slice(1).join(" "))];
}

function moveButton(a) {
  const extra = sameWords(a) ? apartWords(a) : [];
  return el("button", {
    class: `move kind-${a.kind}${hinted.includes(a.id) ? " hinted" : ""}${hinted[0] === a.id ? " best" : ""}`, type: "button", disabled: pending,
    dataset: { id: String(a.id), kind: a.kind, label: a.label, cards: handCardsOf(a).join(" ") }, title: a.label,
    onclick: () => send(a),
  }, el("span", { class: "move-words" }, moveLabel(a), ...extra), a.cards.length ? el("span", { class: "move-cards" }, " ", ...cardsText(a.cards)) : "");
}

function renderLog(c) {
  const log = document.getElementById("log");
  const shown = Number(log.dataset.count || 0);
  if (shown > events.length) log.replaceChildren();
  const start = shown > events.length ? 0 : shown;
  const items = events.slice(start).map((e) => describe(e, c));
  log.append(...items);
  // What happened since this seat last moved is highlighted (a watcher: the last event).
  const mine = c.me === null ? -1 : events.findLastIndex((e) => e.player === c.me);
  const since = c.me === null || mine < 0 ? events.length - 2 : mine;
  for (const item of log.children) item.classList.toggle("recent", Number(item.dataset.n) > since);
  log.dataset.count = String(events.length);
  if (items.length) log.scrollTop = log.scrollHeight;
  const last = [...events].reverse().find((e) => e.breakdown);
  const scoring = document.getElementById("scoring");
  if (last && scoring.dataset.n !== String(last.n)) {
    scoring.replaceChildren(breakdownTable(last, c));
    scoring.dataset.n = String(last.n);
  }
  const ends = events.filter((e) => e.breakdown && e.kind === c.roundEnd);
  const table = document.getElementById("score-table");
  if ((ends.length || c.carried) && table.dataset.count !== String(ends.length)) {
    table.replaceChildren(scoreTable(ends, c));
    table.dataset.count = String(ends.length);
  }
}

// The invite link, for the browser that created the table (it holds the invite), while a
// seat is open and the match runs: whoever opens it takes an open seat with a name.
function renderInvite(s) {
  const box = document.getElementById("invite-area");
  const invite = heldInvite(tableId);
  const open = !s.over && Object.values(s.seats || {}).some((seat) => seat && seat.presence === "open");
  box.hidden = !(invite && open);
  if (!box.hidden) document.getElementById("invite-url").value = inviteLink(tableId, invite);
}

async function copyInvite() {
  const input = document.getElementById("invite-url");
  try {
    await navigator.clipboard.writeText(input.value);
  } catch {                       // no clipboard API (a page not served over https): select it
    input.select();
    if (!document.execCommand("copy")) { toast(t("Select the link and copy it")); return; }
  }
  toast(t("Invite link copied"));
}

const sort = document.getElementById("sort");
sort.value = localStorage.getItem(SORT_KEY) || "dealt";
sort.addEventListener("change", () => { localStorage.setItem(SORT_KEY, sort.value); if (state) renderHand(); });
document.getElementById("hint").addEventListener("click", () => askHint().catch((e) => toast(String(e))));
document.getElementById("undo").addEventListener("click", takeBack);
document.getElementById("forced-cancel").addEventListener("click", cancelForced);
const forcedSetting = document.getElementById("forced-setting");
forcedSetting.checked = localStorage.getItem(FORCED_KEY) !== "off";
forcedSetting.addEventListener("change", () => {
  localStorage.setItem(FORCED_KEY, forcedSetting.checked ? "on" : "off");
  if (state) { if (!forcedSetting.checked) stopForced(); else scheduleForced(); }
});
document.getElementById("copy-invite").addEventListener("click", () => copyInvite().catch((e) => toast(String(e))));
// A new size (a phone turned), or the page's fonts arriving: the hand and the moves are laid
// out again for the room they have.
const relayout = () => { fitHand(); if (state) renderMoves(); fitDock(); if (state) fitBoard(); };
window.addEventListener("resize", relayout);
document.fonts?.ready.then(relayout);
loadWords(null).catch(() => {}).finally(connect);
