// What this browser remembers: the seats it holds (so a closed tab can rejoin them from the
// lobby's "My tables") and how the hand is sorted. Tokens stay in this browser's storage.
const SEATS_KEY = "cardcore.seats";
export const SORT_KEY = "cardcore.sort";
const KEEP = 50;                        // the newest seats kept

export function mySeats() {
  try {
    const list = JSON.parse(localStorage.getItem(SEATS_KEY) || "[]");
    return Array.isArray(list) ? list.filter((s) => s && typeof s.table === "string" && typeof s.token === "string") : [];
  } catch { return []; }
}

// mine: false for the seats of other people at a table this browser created (invite links).
export function rememberSeat(table, token, extra = {}) {
  const list = mySeats().filter((s) => !(s.table === table && s.token === token));
  const old = mySeats().find((s) => s.table === table && s.token === token) || {};
  list.unshift({ mine: true, ...old, ...extra, table, token, at: Date.now() });
  localStorage.setItem(SEATS_KEY, JSON.stringify(list.slice(0, KEEP)));
}

// The table's invite link (docs/server.md, "Seats"): whoever opens it gives a name and takes
// an open seat. In the fragment, which browsers never send.
export function inviteLink(table, invite) {
  return new URL(`/#table=${encodeURIComponent(table)}&invite=${encodeURIComponent(invite)}`, location.href).href;
}

// The invite of a table this browser created (the creation answer's), if it holds one.
export function heldInvite(table) {
  const seat = mySeats().find((s) => s.table === table && typeof s.invite === "string");
  return seat ? seat.invite : null;
}

// The last round end (its event number) this browser showed in a panel, by table: a page
// that connects after a round ended shows that round's panel once (table.js).
const ENDS_KEY = "cardcore.ends";
function shownEndsByTable() {
  try { const map = JSON.parse(localStorage.getItem(ENDS_KEY) || "{}"); return map && typeof map === "object" ? map : {}; } catch { return {}; }
}
export function lastShownEnd(table) { const n = shownEndsByTable()[table]; return typeof n === "number" ? n : -1; }
export function rememberShownEnd(table, n) {
  const map = shownEndsByTable();
  if ((map[table] ?? -1) >= n) return;
  delete map[table];
  map[table] = n;
  const keys = Object.keys(map);                  // the newest KEEP tables
  for (const old of keys.slice(0, Math.max(0, keys.length - KEEP))) delete map[old];
  localStorage.setItem(ENDS_KEY, JSON.stringify(map));
}

export function forgetTable(table) {
  localStorage.setItem(SEATS_KEY, JSON.stringify(mySeats().filter((s) => s.table !== table)));
}

// Card ids: rank then suit letter ("10D", "AS"), "JK" for a joker.
const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
const SUIT_ORDER = ["C", "D", "S", "H"];          // alternating colours

function rankOf(card) { const r = RANKS.indexOf(card.slice(0, -1)); return card === "JK" ? 99 : r; }
function suitOf(card) { return card === "JK" ? 99 : SUIT_ORDER.indexOf(card.slice(-1)); }

// The hand's indexes in display order ("dealt": the view's own order).
export function sortedHand(hand, order) {
  const index = hand.map((_, i) => i);
  if (order === "rank") index.sort((a, b) => rankOf(hand[a]) - rankOf(hand[b]) || suitOf(hand[a]) - suitOf(hand[b]) || a - b);
  else if (order === "suit") index.sort((a, b) => suitOf(hand[a]) - suitOf(hand[b]) || rankOf(hand[a]) - rankOf(hand[b]) || a - b);
  return index;
}
