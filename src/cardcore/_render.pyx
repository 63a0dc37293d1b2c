# cython: language_level=3, boundscheck=False, wraparound=False
"""An event as one reader sees it, in C: ``Game.events`` renders every event of a narration
for each seat and language that asks. Here rather than in Python bytecode, with the phrase
chosen here too, a narrated action costs 6-8 % fewer instructions (benchmarks/README.md,
"Narration"). ``cardcore.events.Raw.rendered``
and ``cardcore.zones.seen_moves`` are these functions; the Raw's fields are read by name (it
stays a Python dataclass)."""

from cardcore.cards import CARD_NAMES

cdef tuple NAMES = CARD_NAMES          # card id -> notation (the kernel's ids: 0..255)


cdef inline list _named(object cards):
    """The notation of each card id of ``cards`` (any ints in 0..255: the kernel's)."""
    cdef list out = []
    for c in cards:
        out.append(NAMES[c])
    return out


def seen_moves(table, dict sight, moves, seat, str known="either"):
    """Moves as ``seat`` sees them, given ``table.sight_of(seat)`` (filled here as zones
    are asked about): the cards when it sees the source zone or (``known="either"``) the
    target, a count else."""
    cdef list out = []
    cdef bint either = known == "either"
    for source, target, cards in moves:
        sees = sight.get(source)
        if sees is None:
            sees = sight[source] = table.sees(source, seat)
        if not sees and either:
            sees = sight.get(target)
            if sees is None:
                sees = sight[target] = table.sees(target, seat)
        if sees:
            out.append({"from": source, "to": target, "cards": _named(cards)})
        else:
            out.append({"from": source, "to": target, "count": len(cards)})
    return out


def render(raw, Py_ssize_t n, seat, table, sight):
    """``raw`` (a cardcore.events.Raw) as ``seat`` (None: a spectator) sees it, numbered
    ``n``; with the zone ``table`` (and its ``sight_of(seat)``, or None to ask), its moves."""
    return _render(raw, n, seat, table, sight)


cdef class Teller:
    """The words of events for one reader (a seat, in the current language): ``phrases``
    (event kind -> the game's or the shared phrase, ``cardcore.narrate.phrases_of``) told
    here, in C; any other kind, or a phrase that has nothing to say, by ``sentence(event,
    seat, who, game)`` (cardcore.narrate's ``_event_text``, which these give the same words
    as); a round or match end or a breakdown by ``words(...)`` (a dict of fields)."""

    cdef object seat, who, game, the_table, sentence, words
    cdef dict phrases

    def __init__(self, seat, who, game, dict phrases, str the_table, sentence, words):
        self.seat, self.who, self.game = seat, who, game
        self.phrases, self.the_table = phrases, the_table
        self.sentence, self.words = sentence, words

    cdef object tell(self, dict event):
        if "reason_code" in event or "breakdown" in event:
            return self.words(event, self.seat, self.who, self.game)
        phrase = self.phrases.get(event["kind"])
        if phrase is not None:
            player = event.get("player")
            text = phrase(event, self.seat, self.who,
                          self.who(player) if type(player) is int else self.the_table)
            if type(text) is str:
                # a sentence: its first letter upper case (names start lower case)
                if text and (<str>text)[0].islower():
                    return (<str>text)[0].upper() + (<str>text)[1:]
                return text
        return self.sentence(event, self.seat, self.who, self.game)


def render_all(raws, Py_ssize_t n, seat, table, dict sight, str key, Teller teller):
    """``Game.events``' loop: each of ``raws`` rendered (numbered from ``n``) with its words
    in the current language (``teller``'s), cached in the Raw under ``key``
    (``words_key``): a string, most events' ``text``, or a dict of fields."""
    cdef list out = []
    cdef dict event
    for raw in raws:
        event = _render(raw, n, seat, table, sight)
        n += 1
        cached = raw.words
        told = None if cached is None else (<dict?>cached).get(key)
        if told is None:
            told = teller.tell(event)
            if cached is None:
                raw.words = {key: told}
            else:
                (<dict?>cached)[key] = told
        if type(told) is str:
            event["text"] = told
        else:
            event.update(told)
        out.append(event)
    return out


cdef dict _render(raw, Py_ssize_t n, seat, table, sight):
    cdef dict event
    seen_by = raw.seen_by
    cards = raw.cards
    if seen_by is None or (seat is not None and seat in seen_by):
        event = {"n": n, "kind": raw.kind, "player": raw.player, "cards": _named(cards)}
        if raw.auto:
            event["auto"] = True
        event.update(raw.public)
        private = raw.private
        if private:
            event.update(private)
    else:
        event = {"n": n, "kind": raw.kind, "player": raw.player, "cards": []}
        if len(cards):
            event["hidden"] = len(cards)
        if raw.auto:
            event["auto"] = True
        event.update(raw.public)
    if table is not None:
        moves = raw.moves
        if not moves:
            event["moves"] = []
        else:
            if sight is None:
                sight = table.sight_of(seat)
            event["moves"] = seen_moves(table, sight, moves, seat)
        made = raw.new_zones
        if made:
            event["new_zones"] = [dict(z) for z in made]
    return event
