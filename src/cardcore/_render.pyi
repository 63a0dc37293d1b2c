from typing import Any, Callable, Iterable, Sequence

JSON = Any

class Teller:
    def __init__(self, seat: int | None, who: Callable[[int], str], game: Any,
                 phrases: dict[str, Callable[..., str | None]], the_table: str,
                 sentence: Callable[..., str],
                 words: Callable[..., dict[str, JSON]]) -> None: ...

def seen_moves(table: Any, sight: dict[str, bool],
               moves: Iterable[tuple[str, str, Sequence[int]]], seat: int | None,
               known: str = "either") -> list[dict[str, JSON]]: ...
def render(raw: Any, n: int, seat: int | None, table: Any,
           sight: dict[str, bool] | None) -> dict[str, JSON]: ...
def render_all(raws: Iterable[Any], n: int, seat: int | None, table: Any,
               sight: dict[str, bool], key: str, teller: Teller) -> list[dict[str, JSON]]: ...
