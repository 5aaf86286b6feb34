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

A build that is there but cannot be used (it does not load, or its
``configure()`` refuses this ``Citation``: an extension built before
``citation.py`` changed) is logged once as a warning and the steps run;
with ``1`` it is an error, at every call.
"""

from __future__ import annotations

import importlib
import logging
import os
import threading
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


logger = logging.getLogger(__name__)


class CompiledParserMissing(ImportError):
    """``BELEGT_CITATIONS_COMPILED=1`` but the extension was not built, or
    cannot be used."""


# the import and configure(), tried once per process (per interpreter):
# [module or None]; and why a module that is there is not used: [reason]
_loaded: list[ModuleType | None] = []
_unusable: list[str] = []
_lock = threading.Lock()

_NOT_BUILT = (
    "it was not built: run `make install` on a machine with a C compiler and "
    "the Python headers"
)


def _load() -> ModuleType | None:
    if not _loaded:
        with _lock:
            if not _loaded:
                _loaded.append(_import_and_configure())
    return _loaded[0]


def _import_and_configure() -> ModuleType | None:
    try:
        module = importlib.import_module(MODULE)
    except ModuleNotFoundError:
        return None  # not built (no compiler): the steps, without a word
    except ImportError as error:
        _unusable_now(f"it does not load ({error})")
        return None
    try:
        module.configure(
            Citation,
            tuple(f.name for f in fields(Citation)),
            act_named_before,
            _INSTRUMENT_FIRST,
        )
    except (TypeError, ValueError, AttributeError) as error:
        # its own checks (ValueError, TypeError), an older module's, or one
        # without configure()
        _unusable_now(f"configure() refused it ({type(error).__name__}: {error})")
        return None
    return module


def _unusable_now(reason: str) -> None:
    _unusable[:] = [reason]
    logger.warning(
        "%s cannot be used, %s; citations are parsed by the Python steps "
        "(slower, the same citations). Rebuild it: `make install`.",
        MODULE,
        reason,
    )


def compiled_parser() -> ModuleType | None:
    """The compiled reader, or None where the Python steps run (see the
    module docstring). Raises :class:`CompiledParserMissing` where it is
    required and was not built or cannot be used."""
    setting = os.environ.get(ENV, "auto").strip().lower()
    if setting in _OFF:
        return None
    module = _load()
    if module is None and setting in _REQUIRED:
        why = _unusable[0] if _unusable else _NOT_BUILT
        raise CompiledParserMissing(
            f"{ENV}={setting}, but {MODULE} cannot be used: {why}"
        )
    return module


def parser_path() -> Literal["compiled", "python"]:
    """The path ``parse_citations`` takes now."""
    return "python" if compiled_parser() is None else "compiled"
