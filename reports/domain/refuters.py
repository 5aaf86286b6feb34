"""Gate 2: deterministic refuters. Each tries to refute one finding against
the resolved provision texts and the evidence, and answers upheld or refuted
with the reason and the passage it relied on. Pure: the service gives the
citations (already resolved by gate 1), the current status of every fact and
the texts of the evidence chunks."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Literal

from evidence.domain.quotes import quote_normalise, quote_span
from ontology.domain.facts import fact_status_established
from reports.domain.drafting import FindingDraft

VerdictValue = Literal["upheld", "refuted", "uncertain"]


@dataclass(frozen=True, slots=True)
class CheckedCitation:
    """A citation of the finding's text as gate 1 resolved it."""

    raw: str
    start: int
    end: int
    canonical: str
    path: str
    status: str
    text: str = ""
    valid_from: date | None = None
    valid_until: date | None = None
    repealed: bool = False


@dataclass(frozen=True, slots=True)
class RefuterVerdict:
    refuter: str
    verdict: VerdictValue
    reason: str = ""
    passage: str = ""


@dataclass(frozen=True, slots=True)
class RefutationInput:
    finding: FindingDraft
    citations: Sequence[CheckedCitation]
    fact_statuses: Mapping[int, str]
    evidence_texts: Sequence[str]
    relevant_date: date
    known_labels: frozenset[str] = frozenset()
    # the firm's four-eyes option, for the one "established" rule
    four_eyes: bool = False


_ABBREVIATIONS = re.compile(
    r"(?:\b(?:Abs|Nr|S|Art|lit|Buchst|vgl|bzw|Hs|Var|Alt|ff|f|Rn|Rz|Ziff|"
    r"No|p|pp|para|cf|e\.g|i\.e|Dr|Prof|Mio|Tsd|d\.h|z\.B|u\.a|i\.V\.m)\.|\d\.)$"
)


def sentence_around(text: str, start: int, end: int) -> str:
    """The sentence of ``text`` that holds the span (abbreviations such as
    "Abs." or "Nr." and ordinal numbers do not end a sentence)."""
    bounds = [0]
    for match in re.finditer(r"[.!?](?=\s+[A-ZÄÖÜ„“\"(])", text):
        if _ABBREVIATIONS.search(text[max(0, match.start() - 12) : match.end()]):
            continue
        bounds.append(match.end())
    bounds.append(len(text))
    for left, right in zip(bounds, bounds[1:], strict=False):
        if left <= start < right or (left < end <= right):
            return text[left:right].strip()
    return text.strip()


def _words(pattern: str) -> re.Pattern[str]:
    return re.compile(rf"(?<!\w)(?:{pattern})(?!\w)", re.IGNORECASE)


OBLIGATION = _words(
    r"muss|müssen|musste|hat\s+\w+\s+zu|ist\s+verpflichtet|sind\s+verpflichtet|"
    r"verpflichtet|Pflicht|Verpflichtung|verlangt|schreibt\s+vor|vorgeschrieben|"
    r"zwingend|must|shall|is\s+required|are\s+required|required\s+to|obliged|"
    r"obligation|obligatory|mandatory|requires|has\s+to|have\s+to|duty"
)
CONDITIONAL = _words(
    r"sofern|soweit|wenn|falls|es\s+sei\s+denn|vorausgesetzt|where|if|unless|"
    r"provided\s+that|insofar\s+as"
)
ABSOLUTE = _words(
    r"stets|immer|in\s+jedem\s+Fall|jedenfalls|ausnahmslos|ohne\s+Ausnahme|"
    r"uneingeschränkt|unbedingt|bedingungslos|automatisch|ohne\s+weiteres|"
    r"always|in\s+any\s+case|in\s+all\s+cases|without\s+exception|regardless|"
    r"unconditionally|automatically|in\s+every\s+case|never\s+subject"
)
_QUOTE = re.compile(
    r"„([^“”\"]{3,}?)[“\"]|“([^”]{3,}?)”|\"([^\"]{3,}?)\"|»([^«]{3,}?)«"
)


def recital_as_obligation(data: RefutationInput) -> RefuterVerdict:
    """A recital explains an act; it imposes no obligation. A finding that
    reads one as a duty is refuted."""
    name = "recital_as_obligation"
    for citation in data.citations:
        if not citation.path.startswith("recital/"):
            continue
        sentence = sentence_around(data.finding.text, citation.start, citation.end)
        match = OBLIGATION.search(sentence)
        if match:
            return RefuterVerdict(
                name,
                "refuted",
                f"{citation.raw} is a recital: recitals explain the operative "
                f"provisions but impose no obligation, yet the finding states "
                f"one ('{match.group(0)}').",
                sentence,
            )
    return RefuterVerdict(name, "upheld")


def conditional_as_absolute(data: RefutationInput) -> RefuterVerdict:
    """A provision that applies only under a condition (sofern, soweit, wenn,
    where, if, unless, ...) must not be stated as applying always."""
    name = "conditional_as_absolute"
    for citation in data.citations:
        if citation.status != "resolved" or not citation.text:
            continue
        condition = CONDITIONAL.search(citation.text)
        if condition is None:
            continue
        sentence = sentence_around(data.finding.text, citation.start, citation.end)
        absolute = ABSOLUTE.search(sentence)
        if absolute is None:
            continue
        passage = sentence_around(citation.text, condition.start(), condition.end())
        return RefuterVerdict(
            name,
            "refuted",
            f"{citation.raw} applies only under a condition "
            f"('{condition.group(0)}'), but the finding states it as absolute "
            f"('{absolute.group(0)}').",
            passage,
        )
    return RefuterVerdict(name, "upheld")


def version_not_valid(data: RefutationInput) -> RefuterVerdict:
    """Every cited text must be the version valid at the relevant date, and
    the provision must not be repealed."""
    name = "version_not_valid"
    at = data.relevant_date
    for citation in data.citations:
        if citation.valid_from is not None and citation.valid_from > at:
            return RefuterVerdict(
                name,
                "refuted",
                f"{citation.raw}: the cited version is valid from "
                f"{citation.valid_from.isoformat()}, after the relevant date "
                f"{at.isoformat()}.",
                citation.raw,
            )
        if citation.valid_until is not None and citation.valid_until <= at:
            return RefuterVerdict(
                name,
                "refuted",
                f"{citation.raw}: the cited version was replaced on "
                f"{citation.valid_until.isoformat()}, before the relevant date "
                f"{at.isoformat()}.",
                citation.raw,
            )
        if citation.repealed:
            return RefuterVerdict(
                name,
                "refuted",
                f"{citation.raw} is repealed in the version valid at {at.isoformat()}.",
                citation.text[:300],
            )
    return RefuterVerdict(name, "upheld")


def quote_not_found(data: RefutationInput) -> RefuterVerdict:
    """Every quotation in the finding must occur in a cited provision or in
    the evidence, read by the one quote matcher. Case is ignored: a quotation
    woven into a sentence may capitalise its first word ("„Die Zahlung …“"
    of "die Zahlung"), which changes nothing it claims. The names of the
    requirements themselves (the system's own headings) are not quotations."""
    name = "quote_not_found"
    sources = [c.text for c in data.citations if c.text]
    sources += list(data.evidence_texts)
    sources += [e.quote for e in data.finding.evidence if e.quote]
    labels = {quote_normalise(label, ignore_case=True) for label in data.known_labels}
    for match in _QUOTE.finditer(data.finding.text):
        quote = next(g for g in match.groups() if g is not None)
        if quote_normalise(quote, ignore_case=True) in labels:
            continue
        if not any(quote_span(s, quote, ignore_case=True) for s in sources):
            return RefuterVerdict(
                name,
                "refuted",
                "The quotation does not occur in any cited provision or in the "
                "evidence of this finding.",
                quote,
            )
    return RefuterVerdict(name, "upheld")


def unconfirmed_fact(data: RefutationInput) -> RefuterVerdict:
    """A conclusion may rest only on facts that are (still) confirmed or
    evidenced; a disputed, merely asserted or removed fact refutes it."""
    name = "unconfirmed_fact"
    fact_ids = list(data.finding.supporting_fact_ids)
    fact_ids += [e.fact_id for e in data.finding.evidence]
    for fact_id in dict.fromkeys(fact_ids):
        status = data.fact_statuses.get(fact_id)
        if status is None:
            return RefuterVerdict(
                name,
                "refuted",
                f"The finding rests on fact {fact_id}, which is not a fact of "
                f"this case.",
                str(fact_id),
            )
        if not fact_status_established(status, four_eyes=data.four_eyes):
            quote = next(
                (e.quote for e in data.finding.evidence if e.fact_id == fact_id),
                "",
            )
            return RefuterVerdict(
                name,
                "refuted",
                f"The finding rests on fact {fact_id}, which is {status}, not "
                f"confirmed.",
                quote,
            )
    return RefuterVerdict(name, "upheld")


Refuter = Callable[[RefutationInput], RefuterVerdict]

DETERMINISTIC_REFUTERS: tuple[Refuter, ...] = (
    recital_as_obligation,
    conditional_as_absolute,
    version_not_valid,
    quote_not_found,
    unconfirmed_fact,
)


def refute(data: RefutationInput) -> list[RefuterVerdict]:
    """Every deterministic refuter's verdict (all run, so all are stored)."""
    return [refuter(data) for refuter in DETERMINISTIC_REFUTERS]
