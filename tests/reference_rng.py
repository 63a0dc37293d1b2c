"""A plain-Python twin of the core generator (PCG32 XSH RR, splitmix64 seeding, Lemire's
bounded draw, Fisher-Yates), written from the published algorithms, for differential tests."""
from __future__ import annotations

M64 = (1 << 64) - 1
M32 = (1 << 32) - 1


def splitmix64(x: int) -> tuple[int, int]:
    x = (x + 0x9E3779B97F4A7C15) & M64
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return x, z ^ (z >> 31)


class ReferencePCG32:
    def __init__(self, seed: int) -> None:
        x, initstate = splitmix64(seed & M64)
        x, initseq = splitmix64(x)
        self.state = 0
        self.inc = ((initseq << 1) | 1) & M64
        self.next32()
        self.state = (self.state + initstate) & M64
        self.next32()

    def next32(self) -> int:
        old = self.state
        self.state = (old * 6364136223846793005 + self.inc) & M64
        xorshifted = (((old >> 18) ^ old) >> 27) & M32
        rot = old >> 59
        return ((xorshifted >> rot) | (xorshifted << ((-rot) & 31))) & M32

    def below(self, n: int) -> int:
        m = self.next32() * n
        low = m & M32
        if low < n:
            threshold = ((1 << 32) - n) % n
            while low < threshold:
                m = self.next32() * n
                low = m & M32
        return m >> 32

    def shuffle(self, items: list) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
