# cython: language_level=3
"""Manna from Heaven's state class and the meld primitives the test-only position setter
(_testing) shares with the state machine (_state). The struct is in _data.pxd."""
from cardcore._fast cimport GameState
from cardcore.games.manna._data cimport MannaData

cdef int new_meld(MannaData* s, int tm, int g) noexcept nogil
cdef void meld_card(MannaData* s, int tm, int m, int c) noexcept nogil
cdef bint finish_meld(MannaData* s, int tm, int m) noexcept nogil


cdef class MannaState(GameState):
    cdef MannaData d
