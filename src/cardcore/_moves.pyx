# cython: language_level=3, boundscheck=False, wraparound=False
"""The zone diff of events' moves (cardcore.zones.diff) and the multiset difference of card
lists, in C: the narration compares every zone at every action, and in Python that was half
of what ``Game.events`` cost. Card ids are 0..255 (the kernel's zone bytes); other values
go to the Python versions in cardcore.zones, which define the results."""

from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_GET_SIZE
from cpython.ref cimport Py_INCREF
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM
from cpython.object cimport PyObject


cdef extern from "Python.h":
    void PyObject_GC_UnTrack(void* op)
from libc.stdlib cimport free, malloc
from libc.string cimport memcmp, memset

DEF CARDS = 256
DEF STACK = 256                # cards a step's changed zones hold, before and after

cdef inline bint _ids(object cards, int* out, int* n, int limit):
    """Copy ``cards`` (bytes or a sequence of ints) into ``out``; False if an id is out of
    0..255 or there are more than ``limit``."""
    cdef Py_ssize_t i, size = len(cards)
    cdef const unsigned char* view
    cdef object c
    if size > limit:
        return False
    if type(cards) is bytes:
        view = <const unsigned char*>PyBytes_AS_STRING(cards)
        for i in range(size):
            out[i] = view[i]
    else:
        for i in range(size):
            c = cards[i]
            if type(c) is not int or not 0 <= c < CARDS:
                return False
            out[i] = c
    n[0] = <int>size
    return True


def multiset_minus(a, b):
    """Cards of ``a`` not matched by a card of ``b`` (multisets), in ``a``'s order."""
    cdef int left[CARDS]
    cdef int na, nb, i
    cdef int* buf
    if not (isinstance(a, (list, tuple, bytes)) and isinstance(b, (list, tuple, bytes))):
        from cardcore.zone_diff import _multiset_minus
        return _multiset_minus(a, b)
    cdef Py_ssize_t la = len(a), lb = len(b)
    buf = <int*>malloc((la + lb + 1) * sizeof(int))
    if buf == NULL:
        raise MemoryError()
    try:
        if not (_ids(a, buf, &na, la) and _ids(b, buf + la, &nb, lb)):
            from cardcore.zone_diff import _multiset_minus
            return _multiset_minus(a, b)
        memset(left, 0, sizeof(left))
        for i in range(nb):
            left[buf[la + i]] += 1
        out = []
        for i in range(na):
            if left[buf[i]]:
                left[buf[i]] -= 1
            else:
                out.append(buf[i])
        return out
    finally:
        free(buf)


cdef inline bint _same(object was, object now) except -1:
    """Whether two zones hold the same cards in the same order: a memcmp for the kernel's
    bytes (every zone of every narrated action is compared), else Python's ``==``."""
    cdef Py_ssize_t n
    if type(was) is bytes and type(now) is bytes:
        n = PyBytes_GET_SIZE(was)
        return n == PyBytes_GET_SIZE(now) and memcmp(PyBytes_AS_STRING(was),
                                                     PyBytes_AS_STRING(now), n) == 0
    return was == now


def diff(before, after):
    """The moves that take ``before`` to ``after`` (zone id -> cards): cardcore.zones.diff.
    A tuple of ``(from, to, cards)`` tuples, the cards a tuple: immutable, so the collector
    stops walking the moves a narration keeps once it has seen them."""
    if type(before) is not dict or type(after) is not dict:
        from cardcore.zone_diff import _diff
        return _diff(before, after)
    cdef dict was_of = <dict>before, now_of = <dict>after
    cdef list zones = []
    cdef list pairs = []
    cdef Py_ssize_t z = 0, total = 0
    empty = b""
    cdef Py_ssize_t missing = 0
    for zone, was in was_of.items():        # the zones before, then those made since
        now = now_of.get(zone)
        if now is None:
            missing += 1
            now = empty
        if not _same(was, now):             # most zones: untouched
            pairs.append((z, was, now))
            total += len(was) + len(now)
        zones.append(zone)
        z += 1
    if missing or len(now_of) != z:         # not the same zones: those made since
        for zone, now in now_of.items():
            if zone not in was_of:
                if len(now):
                    pairs.append((z, empty, now))
                    total += len(now)
                zones.append(zone)
                z += 1
    if not pairs:
        return ()
    # the working arrays: on the stack for a step's few cards, on the heap for a round's
    cdef int sbuf[2 * STACK + 2]
    cdef int slost_zone[STACK + 1]
    cdef int slost_card[STACK + 1]
    cdef int smove_key[STACK + 1]
    cdef int sgain_zone[STACK + 1]
    cdef int sgain_card[STACK + 1]
    cdef char sused[STACK + 1]
    cdef int* buf = sbuf
    cdef int* lost_zone = slost_zone
    cdef int* lost_card = slost_card
    cdef int* move_key = smove_key      # source index, by gain
    cdef int* gain_zone = sgain_zone
    cdef int* gain_card = sgain_card
    cdef char* used = sused
    cdef bint heap = total > STACK
    if heap:
        buf = <int*>malloc((2 * total + 2) * sizeof(int))
        lost_zone = <int*>malloc((total + 1) * sizeof(int))
        lost_card = <int*>malloc((total + 1) * sizeof(int))
        move_key = <int*>malloc((total + 1) * sizeof(int))
        gain_zone = <int*>malloc((total + 1) * sizeof(int))
        gain_card = <int*>malloc((total + 1) * sizeof(int))
        used = <char*>malloc(total + 1)
        if (buf == NULL or lost_zone == NULL or lost_card == NULL or move_key == NULL
                or gain_zone == NULL or gain_card == NULL or used == NULL):
            free(buf); free(lost_zone); free(lost_card); free(move_key); free(gain_zone)
            free(gain_card); free(used)
            raise MemoryError()
    try:
        return _moves_of(zones, pairs, total, buf, lost_zone, lost_card, move_key, gain_zone,
                         gain_card, used, before, after)
    finally:
        if heap:
            free(buf); free(lost_zone); free(lost_card); free(move_key); free(gain_zone)
            free(gain_card); free(used)


cdef object _moves_of(list zones, list pairs, Py_ssize_t total, int* buf, int* lost_zone,
                      int* lost_card, int* move_key, int* gain_zone, int* gain_card,
                      char* used, object before, object after):
    """The moves of the changed zones ``pairs`` ((zone index, cards before, after)), each
    gained card matched with the first zone (in zone order) that lost a copy of it."""
    cdef int count[CARDS]
    cdef int nlost = 0, ngain = 0, nw, nn, i, k, c, zi, m, j
    cdef int tmp_z, tmp_c, tmp_s
    memset(count, 0, sizeof(count))
    for zi_obj, was, now in pairs:
        zi = zi_obj
        if not (_ids(was, buf, &nw, total) and _ids(now, buf + nw, &nn, total)):
            from cardcore.zone_diff import _diff
            return _diff(before, after)
        for i in range(nw):
            count[buf[i]] += 1
        for i in range(nn):
            count[buf[nw + i]] -= 1
        # what the zone lost, each copy once (in card order: the order within one zone
        # does not change which zone a card is matched with)
        for i in range(nw + nn):
            c = buf[i]
            while count[c] > 0:
                lost_zone[nlost] = zi
                lost_card[nlost] = c
                nlost += 1
                count[c] -= 1
            while count[c] < 0:
                gain_zone[ngain] = zi
                gain_card[ngain] = c
                ngain += 1
                count[c] += 1
    memset(used, 0, nlost + 1)
    # each card gained takes the first zone (in zone order) that lost a copy of it
    for k in range(ngain):
        c = gain_card[k]
        for j in range(nlost):
            if not used[j] and lost_card[j] == c:
                used[j] = 1
                move_key[k] = lost_zone[j]
                break
        else:
            raise KeyError(c)                         # a card from nowhere
    for j in range(nlost):
        if not used[j]:
            raise AssertionError("cards left a zone and reached none")
    # sort the gains by (source, target, card): insertion sort, a step moves few cards
    for k in range(1, ngain):
        tmp_s, tmp_z, tmp_c = move_key[k], gain_zone[k], gain_card[k]
        m = k - 1
        while m >= 0 and (move_key[m] > tmp_s or (move_key[m] == tmp_s and (
                gain_zone[m] > tmp_z or (gain_zone[m] == tmp_z
                                         and gain_card[m] > tmp_c)))):
            move_key[m + 1], gain_zone[m + 1], gain_card[m + 1] = (
                move_key[m], gain_zone[m], gain_card[m])
            m -= 1
        move_key[m + 1], gain_zone[m + 1], gain_card[m + 1] = tmp_s, tmp_z, tmp_c
    out = []
    k = 0
    while k < ngain:
        m = k
        while m < ngain and move_key[m] == move_key[k] and gain_zone[m] == gain_zone[k]:
            m += 1
        cards = PyTuple_New(m - k)
        for i in range(k, m):
            card = gain_card[i]
            Py_INCREF(card)
            PyTuple_SET_ITEM(cards, i - k, card)
        move = (zones[move_key[k]], zones[gain_zone[k]], cards)
        # ints in a tuple, strings and that tuple in a tuple: nothing the collector could
        # find a cycle through, so it need not walk them (what it would decide on its
        # own, one collection per level, while a narration keeps them)
        PyObject_GC_UnTrack(<PyObject*>cards)
        PyObject_GC_UnTrack(<PyObject*>move)
        out.append(move)
        k = m
    moves = tuple(out)
    PyObject_GC_UnTrack(<PyObject*>moves)
    return moves


def snapshot(list zone_ids, list blobs):
    """``{zone_ids[k]: blobs[k]}`` but for the ids that are None (a split zone's entry):
    ``ZoneTable.cards`` from one ``GameState.zone_bytes()`` call, at every narrated action."""
    cdef dict out = {}
    cdef Py_ssize_t k, n = min(len(zone_ids), len(blobs))
    for k in range(n):
        zone = zone_ids[k]
        if zone is not None:
            out[zone] = blobs[k]
    return out


def add_parts(dict out, tuple part_ids, parts):
    """``out[part_ids[k]] = parts[k]`` for each part that holds cards (a split zone's piles:
    a team's melds); ``part_ids`` names at least as many parts as there are."""
    cdef Py_ssize_t k
    if len(parts) > len(part_ids):
        raise IndexError(f"{len(parts)} parts, {len(part_ids)} ids")
    for k in range(len(parts)):
        cards = parts[k]
        if len(cards):
            out[part_ids[k]] = cards
