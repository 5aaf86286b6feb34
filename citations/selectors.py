"""Reads of the corpus: the pinned versions and their validity, a version's
provisions, and a firm's wording confirmations."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from django.db.models import QuerySet

from cases.selectors import scope_to_user
from citations.domain.resolver import (
    ProvisionIndex,
    ProvisionRef,
    VersionChoice,
    VersionSpan,
    version_choice,
)
from citations.models import (
    Instrument,
    InstrumentVersion,
    Provision,
    WordingConfirmation,
)

_CACHE: dict[tuple[int, str, str], ProvisionIndex] = {}
_LOCK = threading.Lock()


def instruments_in_corpus() -> dict[str, Instrument]:
    """Instruments that have at least one imported version, by canonical prefix."""
    qs = Instrument.objects.filter(versions__isnull=False).distinct()
    return {i.prefix: i for i in qs}


@dataclass(slots=True)
class CorpusSnapshot:
    """Every pinned version with its instrument, read in one query: a whole
    check (a long text, a report's findings) chooses versions from it in
    memory instead of asking the database once per citation."""

    instruments: dict[str, Instrument] = field(default_factory=dict)
    versions: dict[int, InstrumentVersion] = field(default_factory=dict)
    spans: dict[int, list[VersionSpan]] = field(default_factory=dict)

    def choice(
        self, *, instrument: Instrument, at: date, language: str
    ) -> VersionChoice:
        return version_choice(
            self.spans.get(instrument.pk, []), at=at, language=language
        )

    def version(self, span: VersionSpan) -> InstrumentVersion:
        return self.versions[span.key]

    def index(self, span: VersionSpan) -> ProvisionIndex:
        return provision_index(self.versions[span.key])


def corpus_snapshot() -> CorpusSnapshot:
    """The pinned corpus as it is now (one query)."""
    snapshot = CorpusSnapshot()
    for version in InstrumentVersion.objects.select_related("instrument"):
        instrument = version.instrument
        snapshot.instruments.setdefault(instrument.prefix, instrument)
        snapshot.versions[version.pk] = version
        snapshot.spans.setdefault(instrument.pk, []).append(
            VersionSpan(
                version.pk, version.language, version.valid_from, version.valid_to
            )
        )
    return snapshot


def version_valid_at(
    *, instrument: Instrument, at: date, language: str
) -> tuple[InstrumentVersion | None, list[InstrumentVersion]]:
    """The version valid at ``at``: the latest one starting on or before it, in
    ``language`` if there is one, else in another language. Also returns every
    version of the instrument (for the reason when none is valid)."""
    versions = list(instrument.versions.order_by("-valid_from", "language"))
    spans = [VersionSpan(v.pk, v.language, v.valid_from, v.valid_to) for v in versions]
    choice = version_choice(spans, at=at, language=language)
    by_pk = {v.pk: v for v in versions}
    return (by_pk[choice.valid.key] if choice.valid else None), versions


def provision_index(version: InstrumentVersion) -> ProvisionIndex:
    """The version's provisions, loaded once per process with one query (keyed
    by hash and import time, so a re-import with other content is seen)."""
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


def wording_confirmations_for_user(*, user: Any) -> QuerySet[WordingConfirmation]:
    """The wording confirmations of the user's firm (none for anyone else)."""
    return scope_to_user(WordingConfirmation.objects.all(), user, case_path="")


def wording_confirmations_for_organisation(
    *, organisation_id: int
) -> list[WordingConfirmation]:
    """Every wording confirmation of one firm, with who decided (one query)."""
    return list(
        WordingConfirmation.objects.filter(organisation_id=organisation_id)
        .select_related("decided_by", "version")
        .order_by("id")
    )
