"""Reads of the corpus: which version is valid at a date, and its provisions."""

from __future__ import annotations

import threading
from datetime import date

from citations.domain.resolver import ProvisionIndex, ProvisionRef
from citations.models import Instrument, InstrumentVersion, Provision

_CACHE: dict[tuple[int, str, str], ProvisionIndex] = {}
_LOCK = threading.Lock()


def instruments_in_corpus() -> dict[str, Instrument]:
    """Instruments that have at least one imported version, by canonical prefix."""
    qs = Instrument.objects.filter(versions__isnull=False).distinct()
    return {i.prefix: i for i in qs}


def version_valid_at(
    *, instrument: Instrument, at: date, language: str
) -> tuple[InstrumentVersion | None, list[InstrumentVersion]]:
    """The version valid at ``at``: the latest one starting on or before it, in
    ``language`` if there is one, else in another language. Also returns every
    version of the instrument (for the reason when none is valid)."""
    versions = list(instrument.versions.order_by("-valid_from", "language"))
    valid = [v for v in versions if v.valid_from <= at]
    for v in valid:
        if v.language == language:
            return v, versions
    return (valid[0] if valid else None), versions


def provision_index(version: InstrumentVersion) -> ProvisionIndex:
    """The version's provisions, loaded once per process (keyed by hash and
    import time, so a re-import with other content is seen)."""
    key = (version.pk, version.sha256, version.imported_at.isoformat())
    index = _CACHE.get(key)
    if index is not None:
        return index
    rows = Provision.objects.filter(version=version).values_list(
        "path", "kind", "label", "text", "heading", "repealed"
    )
    index = ProvisionIndex.build(
        ProvisionRef(path=p, kind=k, label=lb, text=t, heading=h, repealed=r)
        for p, k, lb, t, h, r in rows.iterator(chunk_size=5000)
    )
    with _LOCK:
        for stale in [k for k in _CACHE if k[0] == version.pk]:
            del _CACHE[stale]
        _CACHE[key] = index
    return index
