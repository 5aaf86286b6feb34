# The compiled reader of the citation parser (_cparser.c); see parser_compiled.py.
from collections.abc import Callable

from citations.domain.citation import Citation
from citations.domain.instruments import InstrumentInfo

def candidates(text: str, /) -> list[int]: ...
def advance(parser: object, places: tuple[int, ...] | list[int], i: int, /) -> int: ...
def configure(
    citation: type[Citation],
    fields: tuple[str, ...],
    act_named_before: Callable[[str, int, int], InstrumentInfo | None],
    name_first: str,
    /,
) -> None: ...
