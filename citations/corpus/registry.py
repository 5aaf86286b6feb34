"""The registry of all German federal laws, read in place from the corpus folder.

``de-federal/registry.json`` (6,876 rows: doknr, jurabk, title, slug) is never
copied into the repository. It is read on the first look-up of a law name and
kept in memory as a :class:`~citations.domain.federal.LawIndex` (about 7,000
instruments, ~20,000 aliases: a few MB, ~0.1 s to build), which is cheaper than
a database table and needs no import step; a missing file gives an empty index
(then only the static registry and the pinned laws are known by name).
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

from citations.domain.federal import LawIndex, install_law_index

logger = logging.getLogger(__name__)

REGISTRY_PATH = Path("de-federal") / "registry.json"


def law_index_load(*, corpus_dir: Path) -> LawIndex:
    """The index of every law in ``corpus_dir/de-federal/registry.json``."""
    path = corpus_dir / REGISTRY_PATH
    if not path.is_file():
        logger.warning("no federal-law registry at %s: laws known by name only", path)
        return LawIndex()
    data = json.loads(path.read_text(encoding="utf-8"))
    rows = [(r["jurabk"], r["title"]) for r in data["laws"] if r.get("jurabk")]
    return LawIndex.build(rows)


def law_index_install(*, corpus_dir: Path) -> None:
    """Let the parser know every federal law, loading the registry lazily."""
    install_law_index(lambda: law_index_load(corpus_dir=corpus_dir))
