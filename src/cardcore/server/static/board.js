// The table in the middle, drawn from the state alone (docs/server.md, "The state"): the
// zones the seat may know (`view.zones`, their descriptors in `zones` and the events'
// `new_zones`), the shared ones in the middle, a team's in its box, a seat's in its seat box.
// A game's package may bring layout hints (GET /games/<game>/board.js: `layout`, data only,
// no code): which shared zones come first, which are stacks, how many cards a fan shows,
// which view fields are shown as facts and with which words. Nothing here names a game.
import { el, backImage, cardImage, cardTitle, cardsText, fan } from "./cards.js";
import { t, tn } from "./i18n.js";

// A layout without hints: every zone fanned, no facts.
export const NO_HINTS = Object.freeze({ center: [], stack: [], limit: {}, facts: [], seat_facts: [], actions: {} });

// The game's layout hints (its package's web/board.js), merged over NO_HINTS.
export async function loadLayout(game) {
  try {
    const module = await import(`/games/${encodeURIComponent(game)}/board.js`);
    return { ...NO_HINTS, ...(module.layout || {}) };
  } catch (e) {
    return { ...NO_HINTS };
  }
}

export function size(contents) {
  if (contents === undefined || contents === null) return 0;
  return Array.isArray(contents) ? contents.length : contents.count;
}

function capital(text) { return text ? text[0].toUpperCase() + text.slice(1) : ""; }

function hinted(list, zone) { return list.includes(zone.id) || list.includes(zone.kind); }

// One zone: its label, its cards (a fan, the top card of a stack, or pairs for a zone laid
// out in pairs, from opts.slots, the view's; backs for hidden cards) and its count.
// opts.onclick makes it a button (a pile to draw from); opts.compact draws it small, for a
// seat's box.
export function zoneBox(zone, contents, layout, opts = {}) {
  const n = size(contents);
  const cardSize = opts.compact ? "tiny" : zone.owner === null && zone.team !== null ? "small" : "normal";
  const box = el("div", {
    class: `zone kind-${zone.kind}${opts.compact ? " compact" : ""}${opts.onclick ? " clickable" : ""}`,
    dataset: { zone: zone.id, size: String(n), ...(opts.kind ? { kind: opts.kind } : {}) },
  }, el("div", { class: "zone-title" }, capital(zone.label)));
  if (opts.compact) {
    box.append(el("div", { class: "zone-line" }, n ? backImage("tiny") : "", ` ${tn("{count} card", "{count} cards", n, { count: n })}`));
    if (Array.isArray(contents) && n) box.append(el("div", { class: "zone-cards" }, ...cardsText(contents)));
    return box;
  }
  if (!n) box.append(el("div", { class: "empty-pile" }, t("empty")));
  else if (!Array.isArray(contents)) box.append(backImage(cardSize));
  else if (zone.layout === "pairs" && opts.slots) box.append(pairs(opts.slots, cardSize));
  else if (hinted(layout.stack, zone)) box.append(cardImage(contents[n - 1], cardSize));
  else box.append(fan(contents, cardSize, layout.limit[zone.id] || layout.limit[zone.kind] || 0));
  box.append(el("div", { class: "pile-count" }, tn("{count} card", "{count} cards", n, { count: n })));
  if (opts.onclick) {
    // A pile that can be clicked is a button for the keyboard and screen readers too.
    box.setAttribute("role", "button");
    box.setAttribute("tabindex", "0");
    box.addEventListener("click", opts.onclick);
    box.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); opts.onclick(); } });
  }
  return box;
}

// A zone laid out in pairs (docs/api.md, "A zone's layout: pairs"): a slot per card, its
// cover laid across it; an open slot (nothing covers its card yet) is marked and says so.
export function pairs(slots, size) {
  return el("div", { class: `pairs ${size}`, dataset: { slots: String(slots.length), open: String(slots.filter((s) => s.open).length) } },
    ...slots.map((slot) => el("div", {
      class: `slot${slot.open ? " open" : ""}`, dataset: { card: slot.card, cover: slot.cover || "" },
      title: slot.open ? t("{card}: not beaten yet", { card: cardTitle(slot.card) }) : t("{card} beaten by {cover}", { card: cardTitle(slot.card), cover: cardTitle(slot.cover) }),
    }, cardImage(slot.card, size), slot.cover ? cardImage(slot.cover, size) : el("span", { class: "open-mark" }, t("not beaten")))));
}

// The shared zones in the layout's order (ids or kinds it names first), then the rest.
export function ordered(zones, layout) {
  const rank = (zone) => {
    const at = layout.center.findIndex((x) => x === zone.id || x === zone.kind);
    return at < 0 ? layout.center.length : at;
  };
  return zones.map((zone, i) => [zone, i]).sort((a, b) => rank(a[0]) - rank(b[0]) || a[1] - b[1]).map(([zone]) => zone);
}

// A fact of the view as the layout names it: {key, label, of?, words?, as?, hide?}. `of`: "n of
// total" with another field; `words`: a value's words; `as`: "seat" (a seat's name), "cards",
// "teams" (one value per team); `hide`: not shown while the value is empty, zero or false.
export function facts(view, layout, seatName) {
  const out = [];
  for (const f of layout.facts) {
    const value = view[f.key];
    if (!(f.key in view) || (f.hide && (value === null || value === undefined || value === 0 || value === false
        || (Array.isArray(value) && !value.length)))) continue;
    if (f.when && !view[f.when]) continue;             // shown only while that key is true
    if (f.say && f.as === "seat" && value !== null && value !== undefined) {
      // one sentence, the verb agreeing with the seat: «Отбиваетесь вы», «Отбивается Игрок 2»
      const words = value === view.player ? t(f.say[0]) : t(f.say[1], { who: seatName(value), [f.key]: seatName(value) });
      out.push(el("div", { class: "fact", dataset: { fact: f.key } }, el("span", { class: "value" }, words)));
      continue;
    }
    out.push(el("div", { class: "fact", dataset: { fact: f.key } }, el("span", { class: "label" }, t(f.label)), " ",
      el("span", { class: "value" }, ...factValue(view, f, value, seatName))));
  }
  return out.length ? el("div", { class: "facts" }, ...out) : null;
}

function factValue(view, f, value, seatName) {
  if (f.of) return [t("{n} of {total}", { n: value, total: view[f.of] })];
  if (f.words && String(value) in f.words) return [t(f.words[String(value)])];
  if (value === null || value === undefined) return [f.none ? t(f.none) : "—"];
  if (f.as === "seat") return [seatName(value)];
  if (f.as === "cards") return cardsText(Array.isArray(value) ? value : [value]);
  if (f.as === "teams") return [value.map((v, team) => t("team {n}: {value}", { n: team, value: v })).join(", ")];
  if (Array.isArray(value)) return [value.join(", ")];
  return [String(value)];
}

// A seat's facts: {key, label, is_seat?}: the label filled with the field's value for the seat
// ({n}), or (is_seat) shown when the field names this seat.
export function seatFacts(view, seat, layout) {
  const out = [];
  for (const f of layout.seat_facts) {
    const value = view[f.key];
    if (f.is_seat) { if (value === seat) out.push(t(f.label)); } else if (Array.isArray(value) && value[seat] !== undefined
      && value[seat] !== null) out.push(t(f.label, { n: value[seat] }));
  }
  return out;
}
