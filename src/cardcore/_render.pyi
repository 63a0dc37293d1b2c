from typing import Any, Callable, Iterable, Sequence

JSON = Any

class Raw:
    kind: str
    player: int | None
    cards: tuple[int, ...]
    seen_by: frozenset[int] | None
    public: dict[str, JSON]
    private: dict[str, JSON] | None
    auto: bool
    source: str | None
    target: str | None
    moves: Sequence[tuple[str, str, tuple[int, ...]]]
    new_zones: Sequence[dict[str, JSON]]
    def __init__(self, kind: str, player: int | None, cards: Iterable[int] = (),
                 seen_by: frozenset[int] | None = None, public: dict[str, JSON] | None = None,
                 private: dict[str, JSON] | None = None, auto: bool = True,
                 source: str | None = None, target: str | None = None,
                 moves: Sequence[tuple[str, str, tuple[int, ...]]] = (),
                 new_zones: Sequence[dict[str, JSON]] = ()) -> None: ...
    def render(self, n: int, seat: int | None, table: Any = None) -> dict[str, JSON]: ...
    def rendered(self, n: int, seat: int | None, table: Any,
                 sight: dict[str, bool] | None) -> dict[str, JSON]: ...

class Line:
    yours: str
    theirs: str | None
    of: str
    personal: bool
    fields: dict[str, str | Line]
    nothing: str | None
    def __init__(self, text: str, theirs: str | None = None, *, of: str = "player",
                 personal: bool = True, fields: dict[str, str | Line] | None = None,
                 nothing: str | None = None) -> None: ...
    def __call__(self, event: dict[str, Any], seat: int | None, who: Callable[[int], str],
                 name: str) -> str: ...

def say(said: str | Line | tuple[str | Line, ...] | None, event: dict[str, Any],
        seat: int | None, who: Callable[[int], str], name: str) -> str | None: ...

def cards_text(event: dict[str, Any]) -> str: ...

class Teller:
    def __init__(self, seat: int | None, who: Callable[[int], str], game: Any,
                 phrases: dict[str, Any], the_table: str,
                 sentence: Callable[..., str],
                 words: Callable[..., dict[str, JSON]]) -> None: ...

def seen_moves(table: Any, sight: dict[str, bool],
               moves: Iterable[tuple[str, str, Sequence[int]]], seat: int | None,
               known: str = "either", shown: Sequence[int] = ()) -> list[dict[str, JSON]]: ...
def render_all(raws: Iterable[Raw], n: int, seat: int | None, table: Any,
               sight: dict[str, bool], told: list[Any], teller: Teller
               ) -> list[dict[str, JSON]]: ...
