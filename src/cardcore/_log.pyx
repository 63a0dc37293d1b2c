# cython: language_level=3
"""``cardcore.events.SharedLog`` in C: the narration appends to two at every action (its
events and its history), and the information states to theirs at every event."""


cdef class SharedLog:
    """An append-only list whose copies share their common prefix: ``copy()`` costs O(1),
    and a copy copies the items only when it appends after another copy has appended. A
    narration is copied with every clone of its game, so a search that clones at every step
    of a long match (and keeps the clones) would otherwise hold one list per clone."""

    cdef readonly object _items   # a list or an array.array, shared with other copies
    cdef Py_ssize_t _n            # this copy's length: the shared items' first _n

    def __init__(self, items=None):
        """Over a new list, or over ``items`` (a list or an ``array.array``, kept as given)."""
        self._items = [] if items is None else items
        self._n = len(self._items)

    def copy(self):
        cdef SharedLog other = SharedLog.__new__(SharedLog)
        other._items, other._n = self._items, self._n
        return other

    cdef inline void _own(self) except *:
        if len(self._items) != self._n:           # another copy appended: go our own way
            self._items = self._items[:self._n]

    def append(self, item):
        self._own()
        self._items.append(item)
        self._n += 1

    def extend(self, items):
        """Append ``items``; the index the first of them has."""
        self._own()
        cdef Py_ssize_t before = len(self._items)
        self._items.extend(items)
        self._n += len(self._items) - before
        return before

    def __len__(self):
        return self._n

    def __getitem__(self, index):
        start, stop, step = (<slice?>index).indices(self._n)
        return self._items[start:stop:step]

    def __iter__(self):
        return iter(self._items[:self._n])
