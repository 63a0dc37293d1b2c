# cython: language_level=3, boundscheck=False, wraparound=False
"""The zone diff of events' moves (cardcore.zones.diff) and the multiset difference of card
lists, in C: the narration compares every zone at every action, and in Python that was half
of what ``Game.events`` cost. Card ids are 0..255 (the kernel's zone bytes); other values
go to the Python versions in cardcore.zones, which define the results."""

from cpython.bytes cimport PyBytes_AS_STRING
from libc.stdlib cimport free, malloc
from libc.string cimport memset

DEF CARDS = 256

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


def diff(before, after):
    """The moves that take ``before`` to ``after`` (zone id -> cards): cardcore.zones.diff."""
    cdef list zones = list(before)
    cdef set known = set(zones)
    for zone in after:
        if zone not in known:
            zones.append(zone)
    cdef Py_ssize_t nz = len(zones), z, total = 0
    empty = b""
    cdef list pairs = []
    for z in range(nz):
        zone = zones[z]
        was = before.get(zone, empty)
        now = after.get(zone, empty)
        if was != now:                    # most zones: untouched (a C compare of bytes)
            pairs.append((z, was, now))
            total += len(was) + len(now)
    if not pairs:
        return []
    cdef int count[CARDS]
    cdef int* buf = <int*>malloc((2 * total + 2) * sizeof(int))
    # lost[k]: (zone, card) in zone order, each copy once; gained likewise, and
    # used[k]: whether lost[k] went somewhere
    cdef int* lost_zone = <int*>malloc((total + 1) * sizeof(int))
    cdef int* lost_card = <int*>malloc((total + 1) * sizeof(int))
    cdef int* move_key = <int*>malloc((total + 1) * sizeof(int))   # source index, by gain
    cdef int* gain_zone = <int*>malloc((total + 1) * sizeof(int))
    cdef int* gain_card = <int*>malloc((total + 1) * sizeof(int))
    cdef char* used = <char*>malloc(total + 1)
    cdef int nlost = 0, ngain = 0, nw, nn, i, k, c, zi, m, j
    cdef int tmp_z, tmp_c, tmp_s
    if (buf == NULL or lost_zone == NULL or lost_card == NULL or move_key == NULL
            or gain_zone == NULL or gain_card == NULL or used == NULL):
        free(buf); free(lost_zone); free(lost_card); free(move_key); free(gain_zone)
        free(gain_card); free(used)
        raise MemoryError()
    try:
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
            cards = []
            m = k
            while m < ngain and move_key[m] == move_key[k] and gain_zone[m] == gain_zone[k]:
                cards.append(gain_card[m])
                m += 1
            out.append((zones[move_key[k]], zones[gain_zone[k]], cards))
            k = m
        return out
    finally:
        free(buf); free(lost_zone); free(lost_card); free(move_key); free(gain_zone)
        free(gain_card); free(used)
