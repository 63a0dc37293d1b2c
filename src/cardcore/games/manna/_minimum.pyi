"""Type stubs for Manna's initial-minimum search (cardcore.games.manna._minimum)."""

def py_reach_min(nat: list[int], cred: list[int], twos: int, jokers: int, cred_twos: int,
                 cred_jokers: int, ex_size: list[int], ex_wild: list[int], hand: int,
                 points: int, need: int, foot: bool, wild_sevens: bool = False) -> bool: ...
