# cython: language_level=3, boundscheck=False, wraparound=False
"""An event as one reader sees it, in C: the raw events of a narration (``Raw``), rendered
for each seat and language that asks (``Game.events``), with their words (``Line``,
``Teller``). Here rather than in Python bytecode: every event of every reader passes through
(benchmarks/README.md, "Narration"). ``cardcore.events.Raw`` is the class here;
``cardcore.zones.seen_moves`` is the function here."""

cimport cython

from string import Formatter

from cardcore.cards import CARD_NAMES
from cardcore.i18n import _current as _LANGUAGE

cdef tuple NAMES = CARD_NAMES          # card id -> notation (the kernel's ids: 0..255)
cdef object _PARSE = Formatter().parse


cdef inline list _named(object cards):
    """The notation of each card id of ``cards`` (any ints in 0..255: the kernel's)."""
    cdef list out = []
    for c in cards:
        out.append(NAMES[c])
    return out


@cython.no_gc
cdef class Raw:
    """One event before it is rendered for a seat: ``kind``, ``player``, its ``cards`` (ids),
    ``seen_by`` (the seats that see the cards; None: everybody), ``public`` fields and
    ``private`` ones (only ``seen_by`` see them), ``auto`` (not a player's action). The zones
    the narrator says the cards go from and to (``source``, ``target``: "hand:2", "stock"),
    if it says: an automatic event with a ``target`` claims the moves of its cards into that
    zone. Set by the Narration (shared code): ``moves``, the cards that changed zone
    (cardcore.zones), and ``new_zones``, the descriptors of the zones made in play that
    these moves first fill.

    A C class (every event of a replay is one, and every rendering reads its fields), not
    tracked by the collector: its fields hold card ids, strings and JSON values, never an
    object that could lead back to it, so it is in no reference cycle."""

    cdef public str kind
    cdef public object player
    cdef public tuple cards
    cdef public object seen_by
    cdef public dict public
    cdef public object private
    cdef public bint auto
    cdef public object source, target
    cdef public object moves
    cdef public object new_zones

    def __init__(self, str kind, player, cards=(), seen_by=None, dict public=None,
                 private=None, bint auto=True, source=None, target=None, moves=(),
                 new_zones=()):
        self.kind, self.player, self.seen_by = kind, player, seen_by
        self.cards = cards if type(cards) is tuple else tuple(cards)   # ids: any iterable
        self.public = {} if public is None else public
        self.private, self.auto, self.source, self.target = private, auto, source, target
        self.moves, self.new_zones = moves, new_zones

    def __repr__(self):
        return (f"Raw({self.kind!r}, {self.player!r}, {self.cards!r}, seen_by={self.seen_by!r}, "
                f"public={self.public!r}, private={self.private!r}, auto={self.auto!r}, "
                f"source={self.source!r}, target={self.target!r}, moves={self.moves!r})")

    def render(self, Py_ssize_t n, seat, table=None):
        """The event as ``seat`` (None: a spectator) sees it, numbered ``n``; with the
        game's zone ``table``, its ``moves`` too (cards named where the seat sees the source
        or the target zone)."""
        return _render(self, n, seat, table, None if table is None else table.sight_of(seat))

    def rendered(self, Py_ssize_t n, seat, table, sight):
        """``render``, given the table's ``sight_of(seat)`` (asked once per ``events()``
        call, not once per event)."""
        return _render(self, n, seat, table, sight)


def seen_moves(table, dict sight, moves, seat, str known="either", shown=()):
    """Moves as ``seat`` sees them, given ``table.sight_of(seat)`` (filled here as zones
    are asked about): the cards when it sees the source zone or (``known="either"``) the
    target, or when the event shows the seat every card moved (``shown``: a card drawn
    face up), a count else."""
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
        if not sees and shown:
            sees = all(c in shown for c in cards)
        if sees:
            out.append({"from": source, "to": target, "cards": _named(cards)})
        else:
            out.append({"from": source, "to": target, "count": len(cards)})
    return out


cdef class Line:
    """A phrase that is one template filled from the event (no Python runs to tell it): a
    msgid whose ``{name}`` is the seat in the event's field ``of`` ("you", "player 3"; the table
    when the player is none), whose ``{cards}`` is the event's cards as its reader saw them
    (``cards_text``; ``nothing``'s words when it saw none, if given) and whose other
    fields are the event's own (``fields``: template field -> the event's, where they differ:
    ``{"count": "stock_size"}``, or another Line whose words fill it). ``Line(P_(text))``:
    said of that seat, translated in the context "you" or "they" (``i18n.personal``);
    ``Line(N_(text), personal=False)``: of nobody; ``Line(N_(yours), N_(theirs))``: two
    sentences, the first when the reader is that seat (``narrate.mine``). A Line is a phrase
    (``Line(...)(event, seat, who, name)``), and a phrase function may call one."""

    cdef readonly str yours, theirs, of, nothing
    cdef readonly bint personal
    cdef readonly dict fields
    cdef dict forms                    # catalogs -> (yours, theirs) parsed: one per language

    def __init__(self, str text, str theirs=None, *, str of="player", bint personal=True,
                 dict fields=None, str nothing=None):
        self.yours, self.theirs, self.of, self.nothing = text, theirs, of, nothing
        self.personal = personal and theirs is None
        self.fields = dict(fields or {})
        for text in (self.yours, self.theirs):
            if text is not None:
                _parsed(text)          # a template a Line cannot fill fails here, at import
        self.forms = {}

    def __repr__(self):
        return f"Line({self.yours!r})" if self.theirs is None else \
            f"Line({self.yours!r}, {self.theirs!r})"

    def __call__(self, dict event, seat, who, name):
        return self.fill(event, seat, who, name, _LANGUAGE.get()[1], False)

    cdef tuple parsed(self, catalogs):
        forms = self.forms.get(catalogs)
        if forms is None:
            if self.theirs is not None:
                forms = (self.named(catalogs.gettext(self.yours)),
                         self.named(catalogs.gettext(self.theirs)))
            elif self.personal:
                forms = (self.named(catalogs.pgettext("you", self.yours)),
                         self.named(catalogs.pgettext("they", self.yours)))
            else:
                form = self.named(catalogs.gettext(self.yours))
                forms = (form, form)
            self.forms[catalogs] = forms
        return <tuple>forms

    cdef tuple named(self, str text):
        """``text`` parsed, its fields the event's keys (``fields``)."""
        form = _parsed(text)
        if not self.fields:
            return form
        return tuple((self.fields.get(part[0], part[0]), part[1]) if type(part) is tuple
                     else part for part in form)

    cdef str fill(self, dict event, seat, who, name, catalogs, bint capital):
        """The words; ``capital``: they start a sentence (a name that starts them is
        capitalised here, not the sentence copied after)."""
        cdef tuple form
        cdef list out
        cdef Py_ssize_t i, n
        person = event.get(self.of)
        forms = self.parsed(catalogs)
        if person is None or seat is None:   # the form for another seat (``mine``: the
            yours = person is seat and self.theirs is not None      # same None is yours)
        else:
            yours = person == seat
        form = forms[0 if yours else 1]
        if self.of != "player":
            name = who(person) if type(person) is int else ""
        n = len(form)
        if n == 1:
            return <str>form[0]
        capital = capital and not form[0]
        out = [form[0]]
        for i in range(1, n, 2):
            field, spec = <tuple>form[i]
            if field == "name":
                value = _capitalized(name) if capital and i == 1 else name
            elif type(field) is Line:
                value = (<Line>field).fill(event, seat, who, name, catalogs, capital and i == 1)
            elif field == "cards":
                value = cards_words(event, catalogs)
                if not value and self.nothing is not None:
                    value = catalogs.gettext(self.nothing)
            else:
                value = event.get(field)
            out.append(format(value, spec) if spec or type(value) is not str else value)
            out.append(form[i + 1])
        return "".join(out)


def say(said, dict event, seat, who, name):
    """What a phrase returned as words in the current language: a Line filled from the event,
    Lines (and strings) one after the other; a string or None as it is."""
    return _said(said, event, seat, who, name, _LANGUAGE.get()[1], False)


cdef object _said(said, dict event, seat, who, name, catalogs, bint capital):
    """``say``; ``capital``: the words start a sentence (``Line.fill``)."""
    cdef list parts
    cdef Py_ssize_t i
    if type(said) is Line:
        return (<Line>said).fill(event, seat, who, name, catalogs, capital)
    if type(said) is not tuple:
        return said
    parts = []
    for i, part in enumerate(<tuple>said):
        parts.append((<Line>part).fill(event, seat, who, name, catalogs, capital and i == 0)
                     if type(part) is Line else part)
    return "".join(parts)


cdef dict _CAPITALIZED = {}


cdef object _capitalized(name):
    """A name that starts a sentence: its first letter upper case ("you" -> "You")."""
    found = _CAPITALIZED.get(name)
    if found is None:
        found = name
        if type(name) is str and name and (<str>name)[0].islower():
            found = (<str>name)[0].upper() + (<str>name)[1:]
        if len(_CAPITALIZED) < 10_000:           # seat names: a few per language
            _CAPITALIZED[name] = found
    return found


cdef dict _PARSED = {}


cdef tuple _parsed(str text):
    """A template as (literal, (field, spec), literal, ...): ``str.format``'s own parsing."""
    form = _PARSED.get(text)
    if form is None:
        parts = [""]                   # literals at even places, fields between them
        for literal, field, spec, conversion in _PARSE(text):
            parts[len(parts) - 1] += literal       # (no negative index: wraparound is off)
            if field is not None:
                if conversion or not field.isidentifier():
                    raise ValueError(f"a Line's fields are plain names: {text[:60]!r}")
                parts.append((field, spec))
                parts.append("")
        form = _PARSED[text] = tuple(parts)
    return <tuple>form


cdef dict _UNSEEN = {}                 # (catalogs, how many) -> "2 cards", in that language


def cards_text(dict event not None):
    """The event's cards as its reader saw them, in the current language: the named ones,
    then how many were unseen ("9S and 2 unseen", "2 cards"). ``cardcore.narrate``'s."""
    return cards_words(event, _LANGUAGE.get()[1])


cdef str cards_words(dict event, catalogs):
    """``cards_text`` in ``catalogs``' language."""
    shown = " ".join(event.get("cards", ()))
    hidden = event.get("hidden", 0)
    if not hidden:
        return shown
    if shown:
        return catalogs.gettext("{shown} and {hidden} unseen").format(shown=shown,
                                                                    hidden=hidden)
    key = (catalogs, hidden)
    text = _UNSEEN.get(key)
    if text is None:
        text = _UNSEEN[key] = catalogs.ngettext("{n} card", "{n} cards", hidden).format(
            n=hidden)
    return <str>text


cdef class Teller:
    """The words of events for one reader (a seat, in the current language): ``phrases``
    (event kind -> the game's or the shared phrase, ``cardcore.narrate.phrases_of``) told
    here, in C (a Line or Lines with no Python run; a function's Lines filled here); any
    other kind, or a phrase that has nothing to say, by ``sentence(event,
    seat, who, game)`` (cardcore.narrate's ``_event_text``, which these give the same words
    as); a round or match end or a breakdown by ``words(...)`` (a dict of fields)."""

    cdef object seat, who, game, the_table, sentence, words, catalogs
    cdef dict phrases

    def __init__(self, seat, who, game, dict phrases, str the_table, sentence, words):
        self.seat, self.who, self.game = seat, who, game
        self.catalogs = _LANGUAGE.get()[1]          # the current language's (cardcore.i18n)
        self.phrases, self.the_table = phrases, the_table
        self.sentence, self.words = sentence, words

    cdef object tell(self, dict event):
        cdef Py_UCS4 first
        if "reason_code" in event or "breakdown" in event:
            return self.words(event, self.seat, self.who, self.game)
        phrase = self.phrases.get(event["kind"])
        if phrase is not None:
            player = event.get("player")
            name = self.who(player) if type(player) is int else self.the_table
            if type(phrase) is Line or type(phrase) is tuple:
                said = phrase
            else:
                said = phrase(event, self.seat, self.who, name)
            text = _said(said, event, self.seat, self.who, name, self.catalogs, True)
            if type(text) is str:
                # a sentence: its first letter upper case (names start lower case; a Line
                # that starts with the name has made it so)
                if text:
                    first = (<str>text)[0]
                    if first.islower():
                        return (<str>text)[0].upper() + (<str>text)[1:]
                return text
        return self.sentence(event, self.seat, self.who, self.game)


def render_all(raws, Py_ssize_t n, seat, table, dict sight, list told not None,
               Teller teller not None):
    """``Game.events``' loop: each of ``raws`` rendered (numbered from ``n``) with its words
    in the current language (``teller``'s), kept in ``told`` at the event's number (a place
    for each event already made; None until told): a string, most events' ``text``, or a
    dict of fields."""
    cdef list out = []
    cdef dict event
    raws = list(raws)
    if raws and (n < 0 or n + len(raws) > len(told)):     # told[n] is read unchecked
        raise ValueError(f"told holds {len(told)} places, not the {n + len(raws)} needed")
    for raw in raws:
        event = _render(<Raw?>raw, n, seat, table, sight)
        words = told[n]
        if words is None:
            words = told[n] = teller.tell(event)
        n += 1
        if type(words) is str:
            event["text"] = words
        else:
            event.update(words)
        out.append(event)
    return out


cdef dict _render(Raw raw, Py_ssize_t n, seat, table, sight):
    cdef dict event
    seen_by = raw.seen_by
    cards = raw.cards
    cdef bint sees_cards = seen_by is None or (seat is not None and seat in seen_by)
    if sees_cards:
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
            event["moves"] = seen_moves(table, sight, moves, seat,
                                        shown=cards if sees_cards else ())
        made = raw.new_zones
        if made:
            event["new_zones"] = [dict(z) for z in made]
    return event
