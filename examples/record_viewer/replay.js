// The record viewer's model: a cardcore-record (docs/api.md, "Match records with the actual
// cards") stepped through with the zones model. Every event's moves take cards from one zone
// to another; a deal's zones are where each deal starts. A plain script, not a module, so the
// page opens from a file (file:// refuses module scripts); Node reads it through
// module.exports (tests/test_match_record.py checks its zones against the engine's).
"use strict";

const HIDDEN = "??";

function copyZones(zones) {
  const out = {};
  for (const [id, cards] of Object.entries(zones)) out[id] = cards.slice();
  return out;
}

// A move's cards leave `from` and go on top of `to`. A card the record names leaves as
// itself; an unseen one (??) as one of the source's unseen cards. In a seat's redaction a
// card may leave unseen from a pile that seat knew card by card (or arrive named from a pile
// it did not see): then one of the source's cards leaves, the counts staying right.
function applyMoves(zones, moves) {
  for (const move of moves) {
    const source = zones[move.from] || (zones[move.from] = []);
    const target = zones[move.to] || (zones[move.to] = []);
    for (const card of move.cards) {
      let at = source.indexOf(card);
      if (at < 0) at = source.indexOf(HIDDEN);
      if (at < 0) at = source.length ? 0 : -1;
      if (at >= 0) source.splice(at, 1);
      target.push(card);
    }
  }
  return zones;
}

// One frame per point of the match: the first deal, then each action (with the next deal's
// zones when the action ended a round). Each frame: the action (null for the first), the
// events of the step, and every zone's cards after it.
function frames(record) {
  const deals = new Map(record.deals.map((deal) => [deal.after, deal]));
  const first = deals.get(null);
  let zones = copyZones(first.zones);
  const out = [{ action: null, events: first.events, zones: copyZones(zones) }];
  for (const action of record.actions) {
    for (const event of action.events) applyMoves(zones, event.moves);
    const deal = deals.get(action.n);
    let events = action.events;
    if (deal) {
      zones = copyZones(deal.zones);
      events = events.concat(deal.events);
    }
    out.push({ action, events, zones: copyZones(zones) });
  }
  return out;
}

if (typeof module !== "undefined") module.exports = { HIDDEN, applyMoves, frames };
