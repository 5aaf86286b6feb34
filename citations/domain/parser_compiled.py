"""Which path the citation parser runs: the compiled reader or the Python steps.

``citations/domain/_cparser.c`` (built by ``setup.py`` with the package, where a
C compiler is found) reads the candidate places and every unit that starts
with "§", "Art."/"Artikel"/"Article" or a bare "Abs."/"paragraph", with its
subdivisions, lists, ranges and chains, and builds the citations; it hands
everything else (recitals, annexes, "point (a) of", Anlagen, VV numbers,
spelled sections, and any chain that reaches one) to the Python steps of
:class:`citations.domain.parser._Parser`, which stay the reference: both give
the same citations (``tests/citations/test_parser_compiled.py``).

``BELEGT_CITATIONS_COMPILED`` chooses:

- unset or ``auto``: the compiled reader where it was built, else the steps;
- ``0``: the Python steps only;
- ``1``: the compiled reader, and an error where it was not built (CI sets it,
  so that a build that failed without a word fails the tests).
"""

from __future__ import annotations

import importlib
import os
from dataclasses import fields
from types import ModuleType
from typing import Literal

from citations.domain.citation import Citation
from citations.domain.parser_instrument import act_named_before
from citations.domain.patterns import _INSTRUMENT_FIRST

ENV = "BELEGT_CITATIONS_COMPILED"
MODULE = "citations.domain._cparser"
_OFF = frozenset({"0", "false", "no", "off"})
_REQUIRED = frozenset({"1", "true", "yes", "on", "required"})


class CompiledParserMissing(ImportError):
    """``BELEGT_CITATIONS_COMPILED=1`` but the extension was not built."""


# the import, tried once per process: [module or None]
_loaded: list[ModuleType | None] = []


def _load() -> ModuleType | None:
    if not _loaded:
        try:
            module: ModuleType | None = importlib.import_module(MODULE)
        except ImportError:
            module = None
        if module is not None:
            module.configure(
                Citation,
                tuple(f.name for f in fields(Citation)),
                act_named_before,
                _INSTRUMENT_FIRST,
            )
        _loaded.append(module)
    return _loaded[0]


def compiled_parser() -> ModuleType | None:
    """The compiled reader, or None where the Python steps run (see the
    module docstring). Raises :class:`CompiledParserMissing` where it is
    required and was not built."""
    setting = os.environ.get(ENV, "auto").strip().lower()
    if setting in _OFF:
        return None
    module = _load()
    if module is None and setting in _REQUIRED:
        raise CompiledParserMissing(
            f"{ENV}={setting}, but {MODULE} was not built: run `make install` "
            "on a machine with a C compiler and the Python headers"
        )
    return module


def parser_path() -> Literal["compiled", "python"]:
    """The path ``parse_citations`` takes now."""
    return "python" if compiled_parser() is None else "compiled"
