# cython: language_level=3
"""Manna from Heaven's state class, for the test-only position setter (_testing). The struct
is the C kernel's (kernel.h, declared in _data.pxd)."""
from cardcore._fast cimport GameState
from cardcore.games.manna._data cimport MannaData


cdef class MannaState(GameState):
    cdef MannaData d
