# ruff: noqa: E501  (pattern tables: each alternative stays one greppable regex)
"""The offline extractor of compliance evidence (issue 17): reads a compliance
case's chunks in document order and proposes, per element of the obligation
vocabulary (ELEMENTS.md), the passages of policies, notices, contracts,
registers, test reports, board minutes and incident reports that evidence it,
each with a verbatim quote (a sentence or table row of the chunk, so the
gate's quote matcher finds it). It decides nothing; a reviewer accepts or
rejects every proposal, and the evaluator judges only accepted facts.

Reading: the units of ``agents.extraction.units`` (sentences and table rows);
a short line without a sentence end is a heading, which sets the section
(the proposal's ``locator``) and can carry an element the section body does
not name in so many words. A passage says ``present`` unless it says the item
is not there ("has not yet been defined", "noch nicht festgelegt": ``absent``)
or the opposite (a DPIA screening that calls the DPIA "nicht erforderlich",
a processor allowed to use the data "for its own purposes": ``contradicted``).

Never evidence (ELEMENTS.md §2): a recital quoted as if it were the
obligation; a marketing claim (every passage of a flyer, brochure, product
sheet, press release or whitepaper, and any sentence advertising
certification or safety); a sentence that asserts compliance instead of
showing it (a summary in minutes, a cover note); a sentence addressed to
machines ("Hinweis an automatisierte Systeme …", the one pattern of
``evidence.domain.instructions``) and the rest of its paragraph - the
document is reported in ``instructed_documents``."""

from __future__ import annotations

import datetime as dt
import logging
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from agents.domain.parsing import find_dates
from agents.extraction.compliance_patterns import (
    ABSENT,
    ACT_ELEMENTS,
    CLASSIFICATION_CRITERIA,
    DATED_SHAPES,
    DPIA,
    MARKETING_TITLE,
    NOT_REQUIRED,
    OVERRIDE_EXCLUDED,
    OWN_PURPOSES,
    PROCESSOR,
    STOP_EXCLUDED,
    ElementPattern,
    document_kinds,
    never_evidence,
    only_planned,
    patterns_for,
)
from agents.extraction.compliance_semantic import CONFIDENCE as MEANING_CONFIDENCE
from agents.extraction.compliance_semantic import (
    PassageMatcher,
    element_examples_for,
    element_matcher,
)
from agents.extraction.extractor import ChunkText, Finding, Source
from agents.extraction.units import Unit, squash, units
from evidence.embedding import EmbedderUnavailable

# The claim types of a compliance assessment and the regime each examines
# (ontology/domain/compliance_view.REGIME_OF_CLAIM_TYPE is the one mapping).
from ontology.domain.compliance_view import REGIME_OF_CLAIM_TYPE

logger = logging.getLogger(__name__)
COMPLIANCE_CLAIM_TYPES = frozenset(REGIME_OF_CLAIM_TYPE)
CONFIDENCE = 0.7
_MAX_HEADING = 90
_HEADING_START = re.compile(
    r"^\W{0,3}(?:§|\d|[A-ZÄÖÜ]|Anlage|Annex|Schedule|\(?[a-z]\)\s|\(?[ivx]{1,4}\)\s)"
)
# A letter's header line ("Betreff: …", "To: …"): a heading however long.
# The header line that dates a message in a mail thread; its body's "today
# at 12:50" or "um 16:20 Uhr" happened on that day.
_DATE_HEADER_WORDS = "Datum|Date|Gesendet|Sent"
_MAIL_HEADER = re.compile(
    rf"^\W{{0,3}}(?:Betreff|Subject|Re|AW|WG|Fwd?|Von|From|An|To|Cc|{_DATE_HEADER_WORDS})\s*:",
    re.I,
)
_DATE_HEADER = re.compile(rf"^\W{{0,3}}(?:{_DATE_HEADER_WORDS})\s*:", re.I)
# The numbering in front of a heading, so that its words are read: "§ 4",
# "Clause 7.2(b)", "Abschnitt 2 -", "Art. 3", "(b)", "iv)", "2.1".
_HEADING_NUMBER = re.compile(
    r"^\W{0,3}(?:(?:§+|Clause|Section|Abschnitt|Ziffer|Nr\.|Art(?:ikel|icle|\.)?|Anlage|Annex|Schedule|Appendix|Kapitel|Chapter|Teil|Part)"
    r"\s*[\dA-Z]+(?:\.\d+)*(?:\s*\([a-z0-9]+\))*|\d{1,2}(?:\.\d{1,2})*\.?|[A-Z]\.\d{1,2}(?:\.\d{1,2})*\.?"
    r"|\(?[a-z]\)|\(?[ivx]{1,4}\))"
    r"\s*[-–—:.]?\s*",
    re.I,
)
# An FAQ-style heading: a short question ("Wer überwacht den Betrieb?").
_QUESTION = re.compile(
    r"^\W{0,3}(?:Wer|Was|Wie|Wann|Wo|Wohin|Warum|Weshalb|Wozu|Welche\w*|Müssen|Muss"
    r"|Haben|Habe|Kann|Können|Werden|Wird|Gibt|Sind|Ist|Who|What|How|When|Where|Why"
    r"|Which|Do|Does|Is|Are|Can|Will|Must|Have|Has)\b"
)
# A label line in front of its content (a table row "Zeitraum\nAb 01.05. …").
# Short (a wrapped sentence's first line is longer) and followed by content
# that starts as a sentence does.
_LABEL = re.compile(r"^((?:\S+[ \t]+){0,4}\S+)[ \t]*\n(?=[A-ZÄÖÜ\d])")
_MAX_LABEL = 45
# A run-in label before a colon: a few words, capitalised, optionally
# numbered ("5.4 Anhalten:", "Leistungsgrenzen:", "Provider:"), then the text.
# Not a time ("12:10"), not a sentence that merely contains a colon.
_COLON_LABEL = re.compile(
    r"^\W{0,3}((?:[A-Z]?\d{1,2}(?:\.\d{1,2})*\.?\s+)?[A-ZÄÖÜ][^\s:]*(?:\s+[^\s:]+){0,3}):\s+\S"
)
_OPENING_UNITS = 6
# Numbers that are no measured figure: an article reference or a date.
_DATE_OR_ARTICLE = re.compile(
    r"\bArt(?:ikel|icle|\.)?\s*\d+(?:\s*\(\d+\))*(?:\s*Abs\.\s*\d+)?|\b\d{1,4}[./-]\d{1,2}[./-]\d{2,4}\b",
    re.I,
)  # the units of a document its kind is read from
_TIME = re.compile(r"\b([01]?\d|2[0-3])[:.]([0-5]\d)\s*(?:Uhr|h|UTC|CET|CEST)?\b")
_NUMBER_WORDS = {
    "ein": 1,
    "einen": 1,
    "one": 1,
    "zwei": 2,
    "two": 2,
    "drei": 3,
    "three": 3,
    "vier": 4,
    "four": 4,
    "fünf": 5,
    "five": 5,
    "sechs": 6,
    "six": 6,
    "sieben": 7,
    "seven": 7,
    "acht": 8,
    "eight": 8,
    "neun": 9,
    "nine": 9,
    "zehn": 10,
    "ten": 10,
    "elf": 11,
    "eleven": 11,
    "zwölf": 12,
    "twelve": 12,
    "achtzehn": 18,
    "eighteen": 18,
    "vierundzwanzig": 24,
    "twenty-four": 24,
}
_DURATION = re.compile(
    r"\b(\d{1,3}|" + "|".join(_NUMBER_WORDS) + r")\s+"
    r"(Monate?n?|months?|Jahre?n?|years?|Wochen?|weeks?|Tage?n?|days?)\b",
    re.IGNORECASE,
)
_COMPANY = re.compile(
    r"\b([A-ZÄÖÜ][\w&.\-]*(?:\s+[A-ZÄÖÜ][\w&.\-]*){0,3}\s+"
    r"(?:GmbH|AG|SE|KG|eG|Ltd\.?|Limited|B\.V\.|N\.V\.|Inc\.?|LLC|plc|S\.A\.|S\.r\.l\.|SAS|Oy|AB))"
)
_CIF = re.compile(
    r"kritische\w* oder wichtige\w* Funktion|critical or important function", re.I
)
_REGISTER_TITLE = re.compile(r"Informationsregister|Register of information", re.I)
_GENERAL = re.compile(r"allgemeine\w*|general", re.I)
# Art. 30(3)(e) DORA: the access, inspection and audit rights handed to an
# independent third party the provider appoints (allowed to a microenterprise
# only, Art. 30(3) second subparagraph). Proposed as such, so that the
# reviewer confirms or clears it, never silently "erfüllt".
_INDEPENDENT_AUDITOR = re.compile(
    r"\b(?:unabhängig\w*|independent|extern\w*|external)\s+(?:\w+\s+){0,2}?"
    r"(?:Wirtschaftsprüf\w*|Abschlussprüf\w*|Prüf(?:er|erin|ungsgesellschaft)\w*|Dritt\w*|Sachverständig\w*"
    r"|auditors?|audit firm|third[- ]part(?:y|ies)|assessors?)\b",
    re.I,
)
_APPOINTED_BY_ENTITY = re.compile(
    r"(?:bestellt|benannt|beauftragt|ausgewählt|appointed|selected|chosen|engaged|designated)\w*\s+(?:by|von|vom|durch)\s+"
    r"(?:the\s+|der\s+|dem\s+|den\s+)?(?:Kunden?|Kundin|Auftraggeber\w*|Institut\w*|Bank|Versicher\w*|Finanzunternehmen\w*|Customer|Client|financial entity)\b"
    r"|\b(?:vom|von der|von dem)\s+(?:Kunden?|Kundin|Auftraggeber\w*|Institut\w*|Finanzunternehmen\w*)\s+(?:\w+\s+)?(?:bestellt|benannt|beauftragt|ausgewählt)",
    re.I,
)
_DELEGATION_SIGN = re.compile(
    r"(?:von|vom|durch|by)\s+(?:der\s+|dem\s+|den\s+|the\s+)?(?:Anbieter\w*|Dienstleister\w*|Auftragnehmer\w*|Provider|Supplier|Vendor|Contractor)\b"
    r"|\b(?:ausschließlich|allein|nur|only|exclusively|solely)\b"
    r"|\b(?:werden|wird)\b.{0,100}\bausgeübt\b|\b(?:are|is|shall be|will be)\s+exercised\b",
    re.I,
)
_SPECIFIC = re.compile(r"gesonderte\w*|specific", re.I)
# A document's own completion or approval date (the date of a DPIA, a FRIA,
# a technical documentation): the dated element of that instrument.
_COMPLETED = re.compile(
    r"final version|finali[sz]ed|completed|approved|adopted|abgeschlossen|Endfassung"
    r"|freigegeben|durchgeführt am|erstellt am|Fassung vom"
    # an issue line: "Version 1.0, 20 October 2026 (first issue)", "signed
    # off on …", "Ausgabe 2.0 vom …"
    r"|\bissued\b|first issue|signed off|herausgegeben|Ausgabe vom|Erstfassung|first version|initial version"
    r"|endgültige Fassung|unterzeichnet (?:von|am|durch)|signed (?:by|on)\b"
    # "wurde erstmals am 02.10.2026 erstellt", "first drawn up on …"
    r"|\bam\s+\d{1,2}\.\s?\d{1,2}\.\s?\d{2,4}\s+erstellt\b|\b(?:first\s+)?drawn up on\b"
    r"|^\W*(?:Version|Fassung|Ausgabe|Issue|Rev(?:ision)?)\s*\d+(?:\.\d+)*\s*(?:\(|,|vom\b|of\b|dated\b)",
    re.I,
)
_DATED_INSTRUMENTS: tuple[tuple[re.Pattern[str], str], ...] = (
    (DPIA, "gdpr_35_1_dpia_before_processing"),
    (
        re.compile(
            r"Grundrechte-?Folgenabschätzung|fundamental rights impact assessment|\bFRIA\b",
            re.I,
        ),
        "aia_27_1_before_first_use",
    ),
    (
        re.compile(r"Technische Dokumentation|Technical documentation", re.I),
        "aia_11_1_drawn_up_before_market",
    ),
)


_LIGATURES = str.maketrans(
    {
        "\ufb00": "ff",
        "\ufb01": "fi",
        "\ufb02": "fl",
        "\ufb03": "ffi",
        "\ufb04": "ffl",
        "\u00ad": "",
    }
)


def _reading(text: str) -> str:
    """What the patterns read: one line, ligatures and soft hyphens resolved,
    a word hyphenated at a line end joined (the quote stays the verbatim
    slice; the gate's matcher tolerates exactly these differences)."""
    text = re.sub(r"(?<=[a-zäöüß])-\n(?=[a-zäöüß])", "", text.translate(_LIGATURES))
    text = re.sub(r"(?<=\w)-[ \t]*\n\s*(?=[A-ZÄÖÜ])", "-", text)  # "IKT-\nRisiko"
    return squash(text)


# Enumeration in front of a clause: "(1)", "2.", "a)", "(b)".
_ENUMERATION = re.compile(
    r"^\W{0,3}(?:\(\d{1,2}[a-z]?\)|\d{1,2}\.(?!\d)|\(?[a-z]\))\s*"
)


def regimes_of(claim_types: Iterable[str]) -> frozenset[str]:
    """The regimes (gdpr, aia, dora) the case's compliance claims examine."""
    return frozenset(
        REGIME_OF_CLAIM_TYPE[c] for c in claim_types if c in REGIME_OF_CLAIM_TYPE
    )


def _shape(key: str) -> str:
    from ontology.domain.compliance_catalogue import element_index

    found = element_index().get(key)
    return found[1].shape if found else "presence"


def _date(text: str) -> dt.date | None:
    found = find_dates(text)
    return found[0].date if found else None


def _months(text: str) -> int | None:
    m = _DURATION.search(text)
    if m is None:
        return None
    raw = m.group(1).lower()
    number = int(raw) if raw.isdigit() else _NUMBER_WORDS[raw]
    unit = m.group(2).lower()
    if unit.startswith(("jahr", "year")):
        return number * 12
    if unit.startswith(("woch", "week")):
        return max(1, number // 4)
    if unit.startswith(("tag", "day")):
        return max(0, number // 30)
    return number


def _datetime(text: str) -> str | None:
    found = find_dates(text)
    if not found:
        return None
    time = _TIME.search(text, found[0].end) or _TIME.search(text)
    return None if time is None else _stamp(found[0].date, time)


def _time_on(text: str, day: dt.date | None) -> str | None:
    """A time without a date of its own ("sent to BaFin today at 12:50", "um
    16:20 Uhr übermittelt") on the day of the mail that says it."""
    if day is None or find_dates(text):
        return None
    time = _TIME.search(text)
    return None if time is None else _stamp(day, time)


def _stamp(day: dt.date, time: re.Match[str]) -> str:
    """A submission time as the value shape has it ("2026-10-06T12:50")."""
    return f"{day.isoformat()}T{int(time.group(1)):02d}:{time.group(2)}"


@dataclass
class _Document:
    name: str
    title: str = ""
    heading: str = ""
    marketing: bool = False
    instructed: bool = False
    date: dt.date | None = None  # its own date (of the minutes, the version)
    head: str = ""  # its opening lines: title, letter header, first sentences
    units_read: int = 0
    companies: list[str] = field(default_factory=list)
    # the refusal of the paragraph the previous chunk ended in (its text
    # goes on at the start of the next chunk, which overlaps it)
    open_refusal: str | None = None
    # the obligations the patterns found evidence of here: the document is
    # an instrument of them, and only they are read in it by meaning
    obligations: set[str] = field(default_factory=set)
    # the day of the mail being read (its "Date:" header), in a thread
    sent_on: dt.date | None = None


@dataclass
class _Section:
    heading: str
    first: tuple[ChunkText, Unit] | None = None
    keys: set[str] = field(default_factory=set)
    # a run-in heading's paragraph is the body of what it names: its first
    # sentence evidences that even where a later one names it too
    run_in: bool = False


class ComplianceExtractor:
    """Deterministic: the same chunks in the same order give the same findings
    in the same order. Keeps state across calls (a run's batches)."""

    def __init__(
        self,
        *,
        regimes: Iterable[str],
        by_meaning: bool = True,
        matcher: PassageMatcher | None = None,
    ) -> None:
        """``matcher``: what reads passages by meaning (default: the
        configured embedder's ``ElementMatcher``, built on first use)."""
        self.regimes = frozenset(regimes)
        self._patterns = patterns_for(self.regimes)
        self._docs: dict[int, _Document] = {}
        self._seen: set[str] = set()
        self.instructed_documents: set[int] = set()
        self.refused: list[tuple[str, str]] = []  # (reason, passage) never proposed
        self.by_meaning = by_meaning
        self._matcher: PassageMatcher | None = matcher
        # the batch's readable passages, for the elements found by meaning
        self._readable: list[tuple[ChunkText, _Document, Unit, _Section]] = []

    def extract(self, chunks: Iterable[ChunkText]) -> list[Finding]:
        found: list[Finding] = []
        self._readable = []
        for chunk in chunks:
            found.extend(self._chunk(chunk))
        if self.by_meaning:
            found.extend(self._by_meaning())
        self._readable = []
        return found

    def meaning_elements(self) -> list[tuple[str, str, str]]:
        """(key, label_de, label_en) of the elements read by meaning: those of
        the case's regimes, in pattern order."""
        from ontology.domain.compliance_catalogue import element_index

        index = element_index()
        return [
            (p.key, index[p.key][1].label_de, index[p.key][1].label_en)
            for p in self._patterns
        ]

    def _by_meaning(self) -> Iterator[Finding]:
        """The batch's passages the element matcher pairs with an element
        (``compliance_semantic``), through the same value rules."""
        if not self._readable:
            return
        if self._matcher is None:
            elements = self.meaning_elements()
            self._matcher = element_matcher(
                elements, element_examples_for([key for key, _, _ in elements])
            )
            if self._matcher is None:
                self.by_meaning = False
                return
        readable = self._readable
        passages = [_reading(unit.reading) for _, _, unit, _ in readable]
        # per document once: the obligations it may be read for
        kin = {id(doc): _kin(doc.obligations) for _, doc, _, _ in readable}
        allowed = [
            frozenset(
                p.key
                for p in self._patterns
                if p.key not in _NOT_BY_MEANING
                and _obligation_of(p.key) in kin[id(doc)]
                and _applies(p, doc, text)
            )
            for (_, doc, _, _), text in zip(readable, passages, strict=True)
        ]
        try:
            matches = self._matcher.match(
                passages,
                allowed=allowed,
                headings=[section.heading for _, _, _, section in readable],
            )
        except EmbedderUnavailable as exc:
            logger.warning("compliance evidence by meaning skipped: %s", exc.message)
            return
        for match in matches:
            chunk, doc, unit, section = readable[match.passage]
            finding = self._finding(
                chunk, doc, unit, section, match.element, confidence=MEANING_CONFIDENCE
            )
            if finding is not None:
                yield finding

    # ------------------------------------------------------------------ reading
    def _chunk(self, chunk: ChunkText) -> Iterator[Finding]:
        doc = self._docs.get(chunk.document_id)
        if doc is None:
            doc = _Document(name=_doc_name(chunk.document))
            self._docs[chunk.document_id] = doc
        section = _Section(doc.heading)
        poisoned_paragraph: int | None = None
        summary_paragraph: int | None = None
        read = list(units(chunk.text))
        if read and doc.open_refusal == "machine_instruction":
            poisoned_paragraph = read[0].paragraph
        elif read and doc.open_refusal == "summary":
            summary_paragraph = read[0].paragraph
        doc.open_refusal = None
        for index, unit in enumerate(read):
            text = _reading(unit.reading)
            doc.units_read += 1
            if doc.date is None and doc.units_read <= 3:
                doc.date = _date(text)
            if doc.units_read <= _OPENING_UNITS:
                doc.head = f"{doc.head} {text}".strip()
            following = read[index + 1] if index + 1 < len(read) else None
            if _is_run_in_heading(unit, following):
                # "1.1 Beschreibung der Verfahren. TalentRank Pro wird …": the
                # numbered first words name the element, the paragraph's
                # next sentences are its evidence
                yield from self._heading_fallback(doc, section)
                section = _Section(text.rstrip(".:").strip(), run_in=True)
                continue
            for line in unit.text.splitlines():
                # a message's header block ("Von: … / Gesendet: 06.10.2026")
                if _DATE_HEADER.match(line) and (day := _date(line)) is not None:
                    doc.sent_on = day
            if _is_heading(unit.reading):
                yield from self._heading_fallback(doc, section)
                heading = text.lstrip("# ").strip()
                if not doc.title:
                    heading = _whole_title(chunk.text, unit, heading)
                    self._entitle(doc, heading)
                elif doc.units_read <= 2 and not doc.obligations and not doc.marketing:
                    # a product's name as the title and the kind of document
                    # as the heading right under it ("Tessellate Resolve 2" /
                    # "Instructions for Use"): the two are the title
                    self._entitle(doc, f"{doc.title} – {heading}")
                doc.heading = heading
                section = _Section(heading)
                # A heading can itself be the evidence (a register's title).
                yield from self._propose(chunk, doc, unit, section, heading_unit=True)
                continue
            if not doc.title:
                self._entitle(doc, squash(text)[:_MAX_HEADING])
            if poisoned_paragraph == unit.paragraph:
                self.refused.append(("machine_instruction", text))
                continue
            if summary_paragraph == unit.paragraph:
                # the rest of a paragraph that asserts compliance reports
                # the assertion's grounds ("The DPIA was signed off …")
                self.refused.append(("summary", text))
                continue
            reason = never_evidence(text)
            if reason is None and _is_contents(text):
                # a table of contents names sections, it shows none of them
                reason = "contents"
            if reason == "machine_instruction":
                doc.instructed = True
                self.instructed_documents.add(chunk.document_id)
                poisoned_paragraph = unit.paragraph
            elif reason == "summary":
                summary_paragraph = unit.paragraph
            if reason is None and doc.marketing:
                reason = "marketing_claim"
            if reason is not None:
                self.refused.append((reason, text))
                continue
            doc.companies.extend(
                c
                for c in (m.group(1).strip() for m in _COMPANY.finditer(text))
                if c not in doc.companies
            )
            if section.first is None:
                section.first = (chunk, unit)
            if not _is_mail_header(text) and not _is_table_header(unit.text):
                self._readable.append((chunk, doc, unit, section))
            yield from self._propose(chunk, doc, unit, section)
        if read and read[-1].paragraph == poisoned_paragraph:
            doc.open_refusal = "machine_instruction"
        elif read and read[-1].paragraph == summary_paragraph:
            doc.open_refusal = "summary"
        yield from self._heading_fallback(doc, section)

    def _propose(
        self,
        chunk: ChunkText,
        doc: _Document,
        unit: Unit,
        section: _Section,
        *,
        heading_unit: bool = False,
    ) -> Iterator[Finding]:
        if _is_mail_header(_reading(unit.reading)):
            return  # a letter's header block ("From: dpo@… To: …") shows nothing
        text = _ENUMERATION.sub("", _reading(unit.reading))
        keys: list[str] = []
        for pattern in self._patterns:
            if _applies(pattern, doc, text) and pattern.says(
                text, f"{doc.title} {doc.head}"
            ):
                keys.append(pattern.key)
        # A processor allowed to use the data for itself contradicts the
        # documented-instructions clause, whatever words the clause uses.
        if (
            "gdpr" in self.regimes
            and OWN_PURPOSES.search(text)
            and PROCESSOR.search(text)
            and "gdpr_28_3_a_documented_instructions" not in keys
        ):
            keys.append("gdpr_28_3_a_documented_instructions")
        if (
            "dora" in self.regimes
            and sum(1 for rx in CLASSIFICATION_CRITERIA if rx.search(text)) >= 3
            and re.search(r"\d", _DATE_OR_ARTICLE.sub("", text)) is not None
            and "dora_18_1_classification" not in keys
        ):
            keys.append("dora_18_1_classification")
        if heading_unit:
            keys = [k for k in keys if k.startswith("dora_28_3_")]
        else:
            keys.extend(self._label_keys(doc, unit, keys))
        if "gdpr" in self.regimes and DPIA.search(text) and NOT_REQUIRED.search(text):
            keys = ["gdpr_35_1_dpia_before_processing"]
        elif (
            "gdpr" in self.regimes
            and DPIA.search(text)
            and ABSENT.search(text)
            and "gdpr_35_1_dpia_before_processing" not in keys
        ):
            # "the DPIA … has not been carried out yet": Art. 35(1) not met
            keys.append("gdpr_35_1_dpia_before_processing")
        for dated_title, dated_key in _DATED_INSTRUMENTS:
            if (
                dated_key[: dated_key.index("_")] in self.regimes
                and dated_title.search(doc.title)
                and _COMPLETED.search(text)
                and _date(text) is not None
                and dated_key not in keys
            ):
                keys.append(dated_key)
        for key in keys:
            finding = self._finding(chunk, doc, unit, section, key)
            if finding is not None:
                section.keys.add(key)
                doc.obligations.add(_obligation_of(key))
                yield finding

    def _label_keys(self, doc: _Document, unit: Unit, keys: list[str]) -> list[str]:
        """Elements a table row's label names ("Betroffene Personen" in front
        of who they are), or a run-in label before a colon ("5.3 Vorschläge
        übersteuern: Die Schichtleitung kann …"): the passage, label and
        content, is the evidence."""
        text = unit.text.strip()
        m = _LABEL.match(text)
        if m is not None and len(m.group(1)) <= _MAX_LABEL and _is_heading(m.group(1)):
            found = m.group(1)
        elif (c := _COLON_LABEL.match(_reading(text))) is not None:
            found = c.group(1)
        else:
            return []
        label = _HEADING_NUMBER.sub("", _reading(found), count=1)
        return [
            p.key
            for p in self._patterns
            if p.heading is not None
            and p.key not in keys
            and p.heading.search(label)
            and _applies(p, doc, _reading(unit.text))
        ]

    def _entitle(self, doc: _Document, title: str) -> None:
        """The document's title, and what it says the document is: an
        advertisement, or an instrument of the obligations its kind names."""
        doc.title = title
        doc.marketing = MARKETING_TITLE.search(title) is not None
        doc.obligations |= _obligations_of_kinds(title, self.regimes)

    def _heading_fallback(self, doc: _Document, section: _Section) -> Iterator[Finding]:
        """An element the section's heading names, evidenced by the section's
        first sentence, when no sentence of the section names it itself."""
        if section.first is None or not section.heading:
            return
        chunk, unit = section.first
        heading = _HEADING_NUMBER.sub("", section.heading, count=1)
        text = _reading(unit.reading)
        for pattern in self._patterns:
            if (
                pattern.heading is not None
                and (section.run_in or pattern.key not in section.keys)
                and pattern.heading.search(heading)
                and _applies(pattern, doc, f"{section.heading} {text}")
            ):
                finding = self._finding(chunk, doc, unit, section, pattern.key)
                if finding is not None:
                    section.keys.add(pattern.key)
                    doc.obligations.add(_obligation_of(pattern.key))
                    yield finding

    # ------------------------------------------------------------------ values
    def _finding(
        self,
        chunk: ChunkText,
        doc: _Document,
        unit: Unit,
        section: _Section,
        key: str,
        *,
        confidence: float = CONFIDENCE,
    ) -> Finding | None:
        text = _reading(unit.reading)
        value = self._value(chunk, doc, text, section, key)
        if value is None:
            return None
        identity = f"{key}|{squash(unit.text)}"
        if identity in self._seen:
            return None
        self._seen.add(identity)
        finding = Finding(fact_type=key, value=value, confidence=confidence)
        finding.sources.append(Source(chunk.chunk_id, chunk.document_id, unit.text))
        return finding

    def _value(
        self, chunk: ChunkText, doc: _Document, text: str, section: _Section, key: str
    ) -> dict[str, Any] | None:
        state = "present"
        if ABSENT.search(text):
            state = "absent"
        if key == "gdpr_28_3_a_documented_instructions" and OWN_PURPOSES.search(text):
            state = "contradicted"
        if key == "gdpr_35_1_dpia_before_processing" and NOT_REQUIRED.search(text):
            state = "contradicted"
        if key == "aia_14_4_d_disregard_override" and _OVERRIDE_EXCLUDED.search(text):
            state = "contradicted"
        if key == "aia_14_4_e_intervene_stop" and _STOP_EXCLUDED.search(text):
            state = "contradicted"
        shape = _shape(key)
        if (
            state == "present"
            and (key in ACT_ELEMENTS or shape in DATED_SHAPES)
            and only_planned(text)
        ):
            # "Legal Services to notify the authority", "the results are
            # recorded in report TR-7": the act is not shown done
            return None
        value: dict[str, Any] = {"state": state, "doc": doc.name}
        if section.heading:
            value["locator"] = section.heading[:_MAX_HEADING]
        if state != "present":
            return value
        if (
            key == "dora_30_3_e_monitoring_audit_rights"
            and _INDEPENDENT_AUDITOR.search(text)
            and _DELEGATION_SIGN.search(text)
            and not _APPOINTED_BY_ENTITY.search(text)
        ):
            value["delegated_to_independent_third_party"] = True
        if shape == "dated_presence":
            # The step's date, else the date of the document that records it
            # (a board resolution dated by its minutes).
            date = _date(text) or doc.date
            if date is None:
                return None
            value["date"] = date.isoformat()
        elif shape == "review_date":
            date = _date(text)
            if date is None:
                return None
            value["last_review"] = date.isoformat()
        elif shape == "retention":
            months = _months(text)
            if months is None:
                return None
            value["retention_months"] = str(months)
        elif shape == "submission":
            at = _datetime(text) or _time_on(text, doc.sent_on)
            if at is None:
                return None
            value["submitted_at"] = at
        elif shape == "authorisation":
            if _GENERAL.search(text):
                value["kind"] = "general"
            elif _SPECIFIC.search(text):
                value["kind"] = "specific"
        elif shape == "register":
            entries = _register_entries(_reading(chunk.text))
            if not entries:
                return None
            value["entries"] = ", ".join(entries)
            value["distinguishes_cif"] = _CIF.search(chunk.text) is not None
        elif shape == "conditions":
            letters = sorted(set(re.findall(r"\(([a-f])\)", text)))
            if not letters:
                return None
            value["conditions_met"] = ", ".join(letters)
        return value


# Elements whose patterns apply the law's own test, which a likeness cannot:
# an incident is classified when three Art. 18(1) criteria are weighed
# against a figure (a policy naming the criteria classifies nothing).
_NOT_BY_MEANING = frozenset({"dora_18_1_classification"})


def _kin(obligations: set[str]) -> frozenset[str]:
    """The obligations read in the same kinds of document as ``obligations``
    (their ``evidence_sources`` meet): a technical documentation that shows
    the risk management (Art. 9) is read for Annex IV (Art. 11) too."""
    from ontology.domain.compliance_catalogue import obligations_catalogue

    catalogue = obligations_catalogue()
    kinds = {k for o in obligations for k in catalogue[o].evidence_sources}
    return frozenset(
        key for key, o in catalogue.items() if kinds & set(o.evidence_sources)
    )


def _obligations_of_kinds(title: str, regimes: frozenset[str]) -> set[str]:
    """The obligations of the case's regimes evidenced in the kinds of
    record the title names (``evidence_sources``): a document is read by
    meaning for them before any pattern fires in it."""
    from ontology.domain.compliance_catalogue import obligations_catalogue

    kinds = document_kinds(title)
    if not kinds:
        return set()
    return {
        key
        for key, o in obligations_catalogue().items()
        if o.regime in regimes and kinds & set(o.evidence_sources)
    }


def _obligation_of(key: str) -> str:
    from ontology.domain.compliance_catalogue import element_index

    return element_index()[key][0].key


def _doc_name(filename: str) -> str:
    """The document as an element fact names it: its file name without the
    extension (a reviewer's instrument and arrangement facts name it alike)."""
    name = filename.rsplit("/", 1)[-1]
    return name.rsplit(".", 1)[0] if "." in name else name


def _applies(pattern: ElementPattern, doc: _Document, text: str) -> bool:
    """Whether the element is read in this kind of document: ``within`` in
    its opening lines or the passage (or its title alone), ``not_within``
    not in its title."""
    if pattern.within is not None:
        where = doc.title if pattern.title_only else f"{doc.head} {text}"
        if not pattern.within.search(where):
            return False
    return pattern.not_within is None or not pattern.not_within.search(doc.title)


_RUN_IN_NUMBER = re.compile(
    r"^\W{0,3}(?:§\s*\d|(?:Clause|Section|Ziffer|Abschnitt|Kapitel|Chapter|Nr\.)\s*\d"
    # "Part A — Processes.", "Teil B – Betroffene Personen."
    r"|(?:Part|Teil|Section|Abschnitt|Schedule|Anlage|Annex|Anhang)\s+(?:[A-Z]|\d{1,2}|[IVX]{1,4})\s*[—–:-]\s"
    r"|[A-Z]?\d{1,2}(?:\.\d{1,2})*\.?\s|[A-Z]\.\d{1,2}(?:\.\d{1,2})*\.?\s|\(?[a-z]\)\s)"
)
_RUN_IN_WORDS = 7
_RUN_IN_PLAIN_WORDS = 3
# Short sentences that are answers or references, not headings.
_RUN_IN_NOT_HEADING = re.compile(
    r"^(?:Ja|Nein|Yes|No|Keine?|None|Siehe|See|Vgl|Entfällt|N/A|Danke|Thanks)\b", re.I
)


def _is_run_in_heading(unit: Unit, following: Unit | None) -> bool:
    """A numbered paragraph that opens with a few words and a full stop
    before its body ("4.2 Exit plans. The Customer …"): the words are the
    paragraph's heading. Only when the paragraph goes on."""
    stripped = squash(unit.reading).strip()
    return (
        following is not None
        and following.paragraph == unit.paragraph
        and stripped.endswith((".", ":"))
        and "\n" not in unit.text.strip()
        and len(stripped.split()) <= _RUN_IN_WORDS
        and (
            _RUN_IN_NUMBER.match(stripped) is not None
            # an unnumbered run-in heading of a few words ("Anbieter.",
            # "Audit rights.", "Kündigung und Exit.")
            or (
                len(stripped.split()) <= _RUN_IN_PLAIN_WORDS
                and stripped[:1].isupper()
                and stripped.endswith(".")
                and not _RUN_IN_NOT_HEADING.match(stripped)
                and _COMPANY.search(stripped) is None  # "Tenantdesk B.V."
            )
        )
        and not re.search(r"\d{1,2}\.\d{1,2}\.\d{2,4}", stripped)  # a date line
    )


_OVERRIDE_EXCLUDED = re.compile(OVERRIDE_EXCLUDED, re.I)
_STOP_EXCLUDED = re.compile(STOP_EXCLUDED, re.I)
_CONTENTS_TITLE = re.compile(
    r"^\W*(?:Inhalt(?:sverzeichnis|sübersicht)?|Gliederung|(?:Table of )?Contents)\b\s*[:.\-–]?",
    re.I,
)
# "2 Konzeptionelle Entscheidungen · 3 Erhebung …", "4. Data origin; 5. …"
_CONTENTS_ENTRY = re.compile(
    r"(?:^|[·•|;]|\s{2,})\s*(?:\d{1,2}|[A-Z])(?:\.\d{1,2})*\.?\s+[A-ZÄÖÜ]"
)


def _is_contents(text: str) -> bool:
    """A table of contents or a list of section titles: it starts as one
    ("Inhalt:", "Contents") or strings three or more numbered titles."""
    return (
        _CONTENTS_TITLE.match(text) is not None
        or len(_CONTENTS_ENTRY.findall(text)) >= 3
    )


def _whole_title(text: str, unit: Unit, heading: str) -> str:
    """A title the layout wrapped onto a second short line ("LifeLens
    Underwrite 3 – Instructions for" / "Use") is read whole: the unit reader
    drops a lone short word as scan debris, and the kind of document is in
    the words it dropped."""
    end = text.find("\n\n", unit.end)
    block = text[unit.start : len(text) if end < 0 else end]
    lines = [line.strip() for line in block.splitlines() if line.strip()]
    if 1 < len(lines) <= 3 and len(" ".join(lines)) <= 2 * _MAX_HEADING:
        return squash(" ".join(lines)).lstrip("# ").strip()
    return heading


def _is_mail_header(text: str) -> bool:
    """A letter's header line ("From: dpo@…", "Betreff: …"), after any
    enumeration in front of it: it shows nothing."""
    return _MAIL_HEADER.match(_ENUMERATION.sub("", text)) is not None


def _is_table_header(text: str) -> bool:
    """A table's header row ("Prüfschritt / Erwägungen / Ergebnis", "Risk /
    Affected persons"): column names, each a few words without figures or
    sentence ends. It names what the rows show and shows nothing itself."""
    cells = [squash(c).strip() for c in text.strip().split("\n") if c.strip()]
    return (
        len(cells) >= 2
        and sum(len(c.split()) for c in cells) <= 12
        and all(len(c.split()) <= 5 for c in cells)
        and not any(ch.isdigit() for ch in text)
        and not any(c.endswith((".", ";", ":", "!", "?")) for c in cells)
    )


_WRAPPED_LABEL = re.compile(
    r"^(?:\d{1,2}(?:\.\d{1,2})*\.?|\(?[a-z]\)|[A-Z]\.)\s+[A-ZÄÖÜ][^\d.;:!?|,]*$"
)
_WRAPPED_LABEL_WORDS = 6


def _is_heading(text: str) -> bool:
    stripped = squash(text).strip()
    if stripped.startswith("#"):
        return True
    if _MAIL_HEADER.match(stripped) and "\n" not in text.strip():
        return True
    if not stripped or len(stripped) > _MAX_HEADING:
        return False
    if stripped.endswith("?") and (
        re.match(r"^(?:§\s*)?\d{1,2}\.?\s", stripped) or _QUESTION.match(stripped)
    ):
        # "1. Wer ist verantwortlich?", "How long do we keep it?", also a
        # table's question cell set on several lines ("3 Necessity\nIs …?")
        return True
    if "\n" in text.strip():
        # a table's label cell the layout wrapped ("1 Verfahren der" /
        # "Betreiberin"): numbered, a few words, no sentence, no company
        return (
            len(stripped.split()) <= _WRAPPED_LABEL_WORDS
            and _WRAPPED_LABEL.match(stripped) is not None
            and _COMPANY.search(stripped) is None
        )
    if stripped.endswith((".", ";", ",", "!", "?", ":")) or "|" in stripped:
        return False
    if _HEADING_START.match(stripped) is None:
        return False
    if re.search(r",\s*\S*\d", stripped) and _COMPANY.search(stripped):
        return False  # an address line ("Datalyt GmbH, Ringstraße 5, …")
    # A timeline row ("14.09.2026 16:30 initial notification submitted") is
    # an entry, not a heading.
    if re.match(r"^(?:\d{1,2}\.\d{1,2}\.\d{2,4}|\d{4}-\d{2}-\d{2})\b", stripped):
        return False
    # A table row of a register ("1 CloudNord GmbH Hosting …") is not a heading.
    return not re.match(r"^\d+\s+\S+.*\s\d{2}\.\d{2}\.\d{4}$", stripped)


def _register_entries(text: str) -> list[str]:
    """The providers a register lists: the company names in its rows."""
    if _REGISTER_TITLE.search(text) is None:
        return []
    names: list[str] = []
    for m in _COMPANY.finditer(text):
        name = squash(m.group(1)).strip()
        if name not in names:
            names.append(name)
    return names
