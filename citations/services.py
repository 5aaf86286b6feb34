"""Citations: import the pinned corpus, and check citations in a text.

Other apps use :func:`citations_check` (parse + resolve) and
:func:`citation_version_info` (which pinned text a resolved citation was
checked against).
"""

from __future__ import annotations

import dataclasses
import logging
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from django.db import transaction
from django.dispatch import Signal
from django.utils import timezone
from django.utils.translation import gettext as _

from cases.audit import audit_event_record
from citations.corpus.pins import DEFAULT_PINS_PATH, Pin, PinsFile, sha256_file
from citations.corpus.readers import DocumentIR, read_document
from citations.domain.federal import federal_info
from citations.domain.instruments import (
    BY_KEY,
    InstrumentInfo,
    UnitStyle,
    instrument_lookup,
)
from citations.domain.parser import Citation, parse_citations
from citations.domain.resolver import (
    Outcome,
    ProvisionIndex,
    VersionChoice,
    VersionSpan,
    lookup_key,
    resolve_in_index,
    unit_mismatch,
    validity_spans,
)
from citations.domain.transitions import TransitionRule, transition_rules_for
from citations.errors import (
    CitationInputTooLarge,
    CorpusCountMismatch,
    CorpusFileMissing,
    CorpusPinMismatch,
    UnknownInstrument,
)
from citations.models import Instrument, InstrumentVersion, Provision
from citations.selectors import CorpusSnapshot, corpus_snapshot

logger = logging.getLogger(__name__)

EXCERPT_CHARS = 300

# The largest text one check takes (page and API alike): about 150 pages of a
# brief; resolving is cheap, parsing a text of this size takes a few seconds.
MAX_CHECK_CHARS = 200_000

# Sent after a pinned version was created or replaced (kwargs: instrument_key,
# language, action). The reports app marks reports citing changed texts stale.
corpus_version_changed = Signal()


# --- import ---


@dataclass(frozen=True, slots=True)
class ImportReport:
    pin: Pin
    action: str  # "created", "replaced", "unchanged"
    units: int
    pin_updated: bool


def _checked_document(
    *, pin: Pin, corpus_dir: Path, update_pin: bool
) -> tuple[DocumentIR, str, bool]:
    """Hash and parse one pinned file; raise on a mismatch (unless updating)."""
    source = corpus_dir / pin.path
    if not source.is_file():
        raise CorpusFileMissing(
            f"{pin.path} is missing in {corpus_dir}", hint=str(source)
        )
    digest, size = sha256_file(source)
    changed = False
    if digest != pin.sha256:
        if not update_pin:
            raise CorpusPinMismatch(
                f"{pin.path}: SHA-256 {digest} differs from the pin {pin.sha256}",
                hint="Check the file; accept it deliberately with --update-pin.",
            )
        pin.sha256, pin.bytes, changed = digest, size, True
    document = read_document(pin.format, source)
    counts = {k: v for k, v in document.counts().items() if k != "units"}
    if counts != pin.counts:
        if not update_pin:
            raise CorpusCountMismatch(
                f"{pin.path}: counts {counts} differ from the pin {pin.counts}",
                hint="The reader or the file changed; see the pins file.",
            )
        pin.counts, changed = counts, True
    return document, digest, changed


def _instrument_upsert(info: InstrumentInfo) -> Instrument:
    kind = {
        "eu_reg": Instrument.Kind.EU_REGULATION,
        "eu_dir": Instrument.Kind.EU_DIRECTIVE,
    }.get(info.kind, Instrument.Kind.DE_STATUTE)
    instrument, _created = Instrument.objects.update_or_create(
        key=info.key,
        defaults={
            "kind": kind,
            "ident": info.ident,
            "prefix": info.prefix,
            "celex": info.celex or "",
            "eli": info.eli or "",
            "abbreviation": info.aliases[0] if info.aliases else info.ident,
            "name_de": info.name_de,
            "name_en": info.name_en,
            "aliases": list(info.aliases),
            "unit_style": info.unit,
        },
    )
    return instrument


def _provisions_create(version: InstrumentVersion, document: DocumentIR) -> int:
    """Bulk-create the tree level by level, so that parents have ids."""
    ids: dict[str, int] = {}
    by_depth: dict[int, list[tuple[int, Any]]] = {}
    for position, unit in enumerate(document.units):
        by_depth.setdefault(unit.path.count("/"), []).append((position, unit))
    created = 0
    for depth in sorted(by_depth):
        rows = [
            Provision(
                version=version,
                parent_id=ids.get(unit.parent) if unit.parent else None,
                path=unit.path,
                lookup_key=lookup_key(unit.path),
                kind=unit.kind,
                label=unit.label[:20],
                heading=unit.heading[:500],
                text=unit.text,
                repealed=unit.repealed,
                position=position,
            )
            for position, unit in by_depth[depth]
        ]
        for row in Provision.objects.bulk_create(rows, batch_size=2000):
            ids[row.path] = row.pk
        created += len(rows)
    return created


def _pin_instrument(pin: Pin, document: DocumentIR) -> InstrumentInfo:
    """The instrument of a pinned file: for a German statute from the file's
    own ``<jurabk>``/``<amtabk>``/``<langue>`` (one rule with the parser's
    registry, :func:`federal_info`), else the static registry entry."""
    meta = document.meta
    if meta.abbreviation:
        counts = document.counts()
        unit: UnitStyle = (
            "article"
            if counts.get("articles", 0) > counts.get("sections", 0)
            else "section"
        )
        info = federal_info(
            jurabk=meta.abbreviation,
            title=meta.title or meta.abbreviation,
            amtabk=meta.official_abbreviation,
            unit=unit,
        )
        if info.key != pin.instrument:
            raise CorpusPinMismatch(
                f"{pin.path} names the law {meta.abbreviation!r} (key {info.key}), "
                f"the pin says {pin.instrument!r}",
                hint="Correct the pin's instrument key.",
            )
        return info
    info_static = BY_KEY.get(pin.instrument)
    if info_static is None:
        raise UnknownInstrument(f"Unknown instrument in the pins: {pin.instrument}")
    return info_static


def _validity_update(*, instrument: Instrument, language: str) -> None:
    """Each version of the instrument in ``language`` is valid until the day
    before the next one starts; the last one has no end."""
    versions = list(instrument.versions.filter(language=language))
    spans = validity_spans((v.pk, v.language, v.valid_from) for v in versions)
    ends = {span.key: span.valid_to for span in spans}
    for version in versions:
        if version.valid_to != ends[version.pk]:
            version.valid_to = ends[version.pk]
            version.save(update_fields=["valid_to"])


@transaction.atomic
def _version_store(*, pin: Pin, document: DocumentIR, digest: str) -> str:
    info = _pin_instrument(pin, document)
    instrument = _instrument_upsert(info)
    version = (
        InstrumentVersion.objects.select_for_update()
        .filter(instrument=instrument, language=pin.language, valid_from=pin.valid_from)
        .first()
    )
    pending = list(document.meta.pending_amendments)
    if (
        version is not None
        and version.sha256 == digest
        and version.provisions.count() == len(document.units)
        and version.pending_amendments == pending
    ):
        return "unchanged"
    action = "replaced" if version is not None else "created"
    if version is None:
        version = InstrumentVersion(
            instrument=instrument, language=pin.language, valid_from=pin.valid_from
        )
    else:
        version.provisions.all().delete()
    version.label = pin.label
    version.text_kind = pin.text_kind
    version.source_path = pin.path
    version.source_format = pin.format
    version.sha256 = digest
    version.counts = document.counts()
    version.pending_amendments = pending
    version.save()
    units = _provisions_create(version, document)
    _validity_update(instrument=instrument, language=pin.language)
    audit_event_record(
        actor=None,
        action=f"corpus.version_{action}",
        target=version,
        data={"path": pin.path, "sha256": digest, "units": units},
    )
    return action


def corpus_import(
    *,
    corpus_dir: Path,
    pins_path: Path = DEFAULT_PINS_PATH,
    update_pin: bool = False,
    only: list[str] | None = None,
) -> list[ImportReport]:
    """Import every pinned file (or those of the ``only`` instruments).

    Every file is checked against its pin before anything is written: a hash
    that differs is refused unless ``update_pin``; counts of articles,
    recitals, annexes or §§ that differ fail. Re-importing an unchanged file
    changes nothing. With ``update_pin`` the pins file is rewritten."""
    pins_file = PinsFile.load(pins_path)
    selected = [p for p in pins_file.pins if not only or p.instrument in only]
    checked = [
        (pin, *_checked_document(pin=pin, corpus_dir=corpus_dir, update_pin=update_pin))
        for pin in selected
    ]
    reports = []
    for pin, document, digest, changed in checked:
        action = _version_store(pin=pin, document=document, digest=digest)
        reports.append(ImportReport(pin, action, len(document.units), changed))
        if action != "unchanged":
            corpus_version_changed.send(
                sender=InstrumentVersion,
                instrument_key=pin.instrument,
                language=pin.language,
                action=action,
            )
        logger.info("corpus %s %s: %s", pin.path, action, len(document.units))
    if any(r.pin_updated for r in reports):
        pins_file.save()
    return reports


GII_GLOB = "de-federal/*/source.xml"


def corpus_pins_add(
    *, corpus_dir: Path, pins_path: Path = DEFAULT_PINS_PATH, pattern: str = GII_GLOB
) -> list[Pin]:
    """Pin every gesetze-im-internet file under ``corpus_dir`` matching
    ``pattern`` that has no pin yet (hash, size, counts, the law's key from its
    ``<jurabk>``, valid from the date of its Stand). Writes the pins file; an
    already pinned path is left alone (re-pin with ``--update-pin``)."""
    pins_file = PinsFile.load(pins_path)
    known = {p.path for p in pins_file.pins}
    added: list[Pin] = []
    for source in sorted(corpus_dir.glob(pattern)):
        rel = source.relative_to(corpus_dir).as_posix()
        if rel in known:
            continue
        document = read_document("gii", source)
        meta = document.meta
        if not meta.abbreviation:
            continue
        digest, size = sha256_file(source)
        info = federal_info(
            jurabk=meta.abbreviation,
            title=meta.title or meta.abbreviation,
            amtabk=meta.official_abbreviation,
        )
        valid_from = meta.stand_date or meta.enacted
        if valid_from is None:
            raise CorpusCountMismatch(
                f"{rel}: no Stand and no Ausfertigung date to pin it by",
                hint="Pin it by hand with a valid_from.",
            )
        stand = meta.stand or "ohne Standangabe"
        pin = Pin(
            instrument=info.key,
            language="de",
            valid_from=date.fromisoformat(valid_from),
            text_kind="statute",
            label=f"{meta.abbreviation}, {stand}",
            path=rel,
            format="gii",
            sha256=digest,
            bytes=size,
            counts={k: v for k, v in document.counts().items() if k != "units"},
            fetch=None,
        )
        pins_file.pins.append(pin)
        added.append(pin)
    if added:
        pins_file.save()
    return added


# --- checking citations ---


@dataclass(frozen=True, slots=True)
class VersionInfo:
    """The pinned text a citation was checked against."""

    instrument: str
    label: str
    language: str
    valid_from: date
    text_kind: str
    sha256: str
    source: str
    eli: str | None
    valid_to: date | None = None
    pending_amendments: tuple[str, ...] = ()

    @property
    def pending_note(self) -> str | None:
        """ "Änderung durch Art. 8 G v. 10.12.2025 I Nr. 320 noch nicht
        eingearbeitet": the text may not show these amendments."""
        if not self.pending_amendments:
            return None
        return "; ".join(
            f"{p} noch nicht eingearbeitet" for p in self.pending_amendments
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "instrument": self.instrument,
            "label": self.label,
            "language": self.language,
            "valid_from": self.valid_from.isoformat(),
            "valid_to": self.valid_to.isoformat() if self.valid_to else None,
            "text_kind": self.text_kind,
            "sha256": self.sha256,
            "source": self.source,
            "eli": self.eli,
            "pending_amendments": list(self.pending_amendments),
        }


@dataclass(frozen=True, slots=True)
class TransitionContext:
    """A transition provision that may decide which wording of the cited
    unit governs (e.g. Art. 229 § 34 EGBGB for § 286 BGB), as resolved
    against the pinned corpus at the same date."""

    provision: str
    canonical: str | None
    status: str
    changed_on: date
    note_de: str
    note_en: str
    text: str | None = None
    version: VersionInfo | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "provision": self.provision,
            "canonical": self.canonical,
            "status": self.status,
            "changed_on": self.changed_on.isoformat(),
            "note_de": self.note_de,
            "note_en": self.note_en,
            "excerpt": _excerpt(self.text),
            "version": self.version.to_json() if self.version else None,
        }


def _excerpt(text: str | None) -> str | None:
    if text is None:
        return None
    if len(text) <= EXCERPT_CHARS:
        return text
    return text[: EXCERPT_CHARS - 1].rstrip() + "…"


@dataclass(frozen=True, slots=True)
class CitationResult:
    """One citation and its answer. ``text`` is the provision's wording in
    ``version``; for ``unpinned_at_date`` that version starts after the asked
    date, so the wording is given but not verified for that date."""

    citation: Citation
    status: str
    reason: str | None
    version: VersionInfo | None = None
    text: str | None = None
    provision_path: str | None = None
    heading: str = ""
    candidates: tuple[str, ...] = field(default=())
    transitions: tuple[TransitionContext, ...] = field(default=())
    version_id: int | None = None
    at: date | None = None

    @property
    def excerpt(self) -> str | None:
        return _excerpt(self.text)

    def to_json(self) -> dict[str, Any]:
        """Exactly the shape of ``manage.py cite --json`` and the API."""
        c = self.citation
        return {
            "span": [c.start, c.end],
            "raw": c.raw,
            "canonical": c.canonical,
            "status": self.status,
            "reason": self.reason,
            "version": self.version.to_json() if self.version else None,
            "excerpt": self.excerpt,
            "parts": c.parts,
            "group": c.group,
            "transitions": [t.to_json() for t in self.transitions],
        }


def _version_info(version: InstrumentVersion) -> VersionInfo:
    instrument = version.instrument
    return VersionInfo(
        instrument=instrument.ident,
        label=version.label,
        language=version.language,
        valid_from=version.valid_from,
        text_kind=version.text_kind,
        sha256=version.sha256,
        source=version.source_path,
        eli=instrument.eli or None,
        pending_amendments=tuple(version.pending_amendments or ()),
        valid_to=version.valid_to,
    )


class CitationChecker:
    """Resolves the citations of one request (a text, a report's findings)
    against one snapshot of the corpus: one query for every pinned version,
    then each version's provisions from the process cache (one query per
    version the first time). Nothing here asks the database per citation."""

    def __init__(self, snapshot: CorpusSnapshot | None = None) -> None:
        self.snapshot = snapshot if snapshot is not None else corpus_snapshot()
        self._infos: dict[int, VersionInfo] = {}
        self._transitions: dict[tuple[str, date], TransitionContext | None] = {}
        # per request: the version chosen per instrument, date and language,
        # each version's index, and the transition rules per unit — looked up
        # once, not once per citation
        self._choices: dict[tuple[int, date, str], VersionChoice] = {}
        self._indexes: dict[int, ProvisionIndex] = {}
        self._rules: dict[tuple[str, str, str], tuple[TransitionRule, ...]] = {}
        self._answers: dict[tuple[Any, ...], CitationResult] = {}
        self._before: dict[tuple[date, int], str] = {}

    def choice(self, instrument: Instrument, at: date, language: str) -> VersionChoice:
        key = (instrument.pk, at, language)
        choice = self._choices.get(key)
        if choice is None:
            choice = self._choices[key] = self.snapshot.choice(
                instrument=instrument, at=at, language=language
            )
        return choice

    def index(self, span: VersionSpan) -> ProvisionIndex:
        index = self._indexes.get(span.key)
        if index is None:
            index = self._indexes[span.key] = self.snapshot.index(span)
        return index

    def info(self, span: VersionSpan) -> VersionInfo:
        info = self._infos.get(span.key)
        if info is None:
            info = self._infos[span.key] = _version_info(self.snapshot.version(span))
        return info

    def resolve_many(
        self, citations: list[Citation], *, at: date
    ) -> list[CitationResult]:
        return [self.resolve(c, at=at) for c in citations]

    def resolve(
        self, citation: Citation, *, at: date, with_context: bool = True
    ) -> CitationResult:
        """One citation; the same provision cited again in the same request
        (a brief cites § 286 BGB twenty times) is answered from memory."""
        info = citation.instrument
        key = (
            info.prefix if info is not None else None,
            citation.lang,
            citation.levels,
            citation.range_end,
            citation.following,
            citation.parenthesised,
            at,
            with_context,
        )
        known = self._answers.get(key)
        if known is not None:
            return dataclasses.replace(known, citation=citation)
        result = self._resolve(citation, at=at, with_context=with_context)
        self._answers[key] = result
        return result

    def _resolve(
        self, citation: Citation, *, at: date, with_context: bool
    ) -> CitationResult:
        info = citation.instrument
        if info is None:
            return self._without_instrument(citation, at)
        instrument = self.snapshot.instruments.get(info.prefix)
        bad = unit_mismatch(citation, info)
        if bad is not None:
            return CitationResult(citation, "bad_unit", bad, at=at)
        if instrument is None:
            return CitationResult(
                citation,
                "not_checked",
                f"instrument_not_in_corpus: {info.ident}",
                at=at,
            )
        choice = self.choice(instrument, at, citation.lang)
        if choice.valid is not None:
            outcome = resolve_in_index(citation, self.index(choice.valid))
            result = self._result(citation, outcome, choice.valid, at)
        elif choice.later is not None:
            result = self._before_first(citation, choice.later, at)
        else:  # pragma: no cover - an instrument in the snapshot has a version
            return CitationResult(
                citation, "not_checked", f"no_version: {info.ident}", at=at
            )
        if with_context and result.status in ("resolved", "unpinned_at_date"):
            context = self._context(citation, at)
            if context:
                result = dataclasses.replace(result, transitions=context)
        return result

    def _before_first(
        self, citation: Citation, later: VersionSpan, at: date
    ) -> CitationResult:
        """No pinned version covers ``at``: look in the earliest later one."""
        outcome = resolve_in_index(citation, self.index(later))
        before = self._before.get((at, later.key))
        if before is None:
            before = self._before[(at, later.key)] = (
                f"{at.isoformat()} is before the first pinned version "
                f"({later.valid_from.isoformat()})"
            )
        if outcome.status != "resolved":
            return self._result(
                citation,
                Outcome(
                    outcome.status,
                    f"no_version_at_date: {before}; {outcome.reason} in that version",
                    outcome.provision,
                    outcome.candidates,
                ),
                later,
                at,
            )
        return self._result(
            citation,
            Outcome(
                "unpinned_at_date",
                f"unpinned_at_date: {before}; the provision exists there, its "
                f"wording at {at.isoformat()} is not verified"
                + (f"; {outcome.reason}" if outcome.reason else ""),
                outcome.provision,
            ),
            later,
            at,
        )

    def _result(
        self, citation: Citation, outcome: Outcome, span: VersionSpan, at: date
    ) -> CitationResult:
        provision = outcome.provision
        info = self.info(span)
        reason = outcome.reason
        if info.pending_note is not None:
            # every answer against such a version says so
            note = f"pending_amendments: {info.pending_note}"
            reason = f"{reason}; {note}" if reason else note
        shows_text = outcome.status in ("resolved", "unpinned_at_date")
        return CitationResult(
            citation,
            outcome.status,
            reason,
            version=info,
            text=provision.text if provision and shows_text else None,
            provision_path=provision.path if provision else None,
            heading=provision.heading if provision else "",
            candidates=outcome.candidates,
            version_id=span.key,
            at=at,
        )

    def _context(self, citation: Citation, at: date) -> tuple[TransitionContext, ...]:
        info = citation.instrument
        if info is None:
            return ()
        key = (info.ident, citation.top, citation.levels[0][1])
        rules = self._rules.get(key)
        if rules is None:
            rules = self._rules[key] = transition_rules_for(
                instrument=key[0], top=key[1], unit=key[2]
            )
        if not rules:
            return ()
        found = []
        for rule in rules:
            context = self._transition(rule, at)
            if context is not None:
                found.append(context)
        return tuple(found)

    def _transition(self, rule: TransitionRule, at: date) -> TransitionContext | None:
        """The transition provision resolved at ``at``; None when its
        instrument is not imported or the provision is not found there."""
        key = (rule.provision, at)
        if key in self._transitions:
            return self._transitions[key]
        context = None
        parsed = parse_citations(rule.provision)
        if len(parsed) == 1 and parsed[0].instrument is not None:
            result = self.resolve(parsed[0], at=at, with_context=False)
            if result.status in ("resolved", "unpinned_at_date"):
                context = TransitionContext(
                    provision=rule.provision,
                    canonical=parsed[0].canonical,
                    status=result.status,
                    changed_on=rule.changed_on,
                    note_de=rule.note_de,
                    note_en=rule.note_en,
                    text=result.text,
                    version=result.version,
                )
        self._transitions[key] = context
        return context

    def _without_instrument(self, citation: Citation, at: date) -> CitationResult:
        """No instrument stated or bound: never guess; list the candidates."""
        candidates = []
        for instrument in self.snapshot.instruments.values():
            info = instrument_lookup(instrument.key)
            if info is None or unit_mismatch(citation, info) is not None:
                continue
            choice = self.choice(instrument, at, citation.lang)
            span = choice.valid or choice.later
            if span is None:
                continue
            outcome = resolve_in_index(citation, self.index(span))
            if outcome.status == "resolved":
                candidates.append(f"{instrument.prefix}/{citation.path}")
        if not candidates:
            return CitationResult(
                citation,
                "not_found",
                "no_instrument: no instrument is stated and none in the corpus "
                "has this provision",
                at=at,
            )
        candidates.sort()
        return CitationResult(
            citation,
            "ambiguous",
            "no_instrument: candidates: " + ", ".join(candidates),
            candidates=tuple(candidates),
            at=at,
        )


def instrument_info_get(value: str) -> InstrumentInfo:
    """An instrument by key, CELEX, abbreviation or alias; raises if unknown."""
    info = instrument_lookup(value)
    if info is None:
        raise UnknownInstrument(f"Unknown instrument: {value}")
    return info


def citation_input_check(text: str) -> None:
    """Refuse a text longer than one check takes, with the numbers."""
    if len(text) > MAX_CHECK_CHARS:
        raise CitationInputTooLarge(
            _(
                "The text has %(n)s characters; one check takes at most %(max)s. "
                "Split it into parts."
            )
            % {"n": f"{len(text):,}", "max": f"{MAX_CHECK_CHARS:,}"},
            hint={"chars": len(text), "max_chars": MAX_CHECK_CHARS},
        )


def citations_check(
    text: str,
    *,
    at: date | None = None,
    default_instrument: str | InstrumentInfo | None = None,
    checker: CitationChecker | None = None,
) -> list[CitationResult]:
    """Parse every citation in ``text`` and resolve it against the version of
    its instrument valid at ``at`` (today by default). ``default_instrument``
    binds citations that name no instrument (e.g. a text about the GDPR).
    Pass one ``checker`` to check many texts against one corpus snapshot."""
    default = (
        instrument_info_get(default_instrument)
        if isinstance(default_instrument, str)
        else default_instrument
    )
    checker = checker if checker is not None else CitationChecker()
    return checker.resolve_many(
        parse_citations(text, default_instrument=default),
        at=at or timezone.localdate(),
    )


def citation_version_info(result: CitationResult) -> VersionInfo | None:
    """The pinned version (label, date, SHA-256) a result was checked against;
    None unless it resolved."""
    return result.version if result.status == "resolved" else None
