# cython: language_level=3
"""Manna's per-seat projection and hidden-card sampling: hooks of the state machine (_state)."""
from libc.stdint cimport int32_t

from cardcore._fast cimport Rng

cdef int mh_observation_size(const void* state) noexcept nogil
cdef void mh_observe(const void* state, int seat, float* out) noexcept nogil
cdef int mh_sample_hidden(void* state, int seat, Rng* rng) noexcept nogil
