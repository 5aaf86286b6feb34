"""Text helpers shared by the quote policy and the rules extractor."""

from __future__ import annotations

import re
import unicodedata

_WS = re.compile(r"\s+")
# Characters that PDF extraction inserts or varies without meaning.
_INVISIBLE = dict.fromkeys(map(ord, "\u00ad\u200b\u200c\u200d\ufeff"))


def normalise_ws(text: str) -> str:
    """NFC, invisible characters removed, every whitespace run one space."""
    text = unicodedata.normalize("NFC", text).translate(_INVISIBLE)
    return _WS.sub(" ", text).strip()


def quote_occurs(quote: str, text: str) -> bool:
    """True if ``quote`` appears verbatim in ``text`` after whitespace
    normalisation. Case, punctuation and words must match exactly."""
    needle = normalise_ws(quote)
    return bool(needle) and needle in normalise_ws(text)
