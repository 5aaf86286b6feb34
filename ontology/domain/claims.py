"""Claim definitions: versioned Turtle files with requirements, alternatives,
legal basis, jurisdiction, validity period and the SHACL shapes (conditions)
that decide them.

Every file is checked when it is loaded: Turtle syntax, the SHACL-SHACL
meta-shapes that pyshacl ships, the structure this evaluator relies on
(labels and sentences in German and English, known fact types, citation form,
non-overlapping validity) and a dry run of pyshacl on an empty case. A broken
file raises ``ClaimDefinitionInvalid``; it never degrades into wrong verdicts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict
from pyshacl import validate as shacl_validate
from pyshacl.entrypoints import meta_validate
from rdflib import RDF, RDFS, BNode, Graph, Node, URIRef
from rdflib import Literal as RDFLiteral
from rdflib.namespace import SH

from ontology.domain.errors import ClaimDefinitionInvalid, ClaimVersionNotFound
from ontology.domain.namespaces import BC, BCL, BFT
from ontology.domain.vocabulary import fact_types_all

CLAIMS_DIR = Path(__file__).resolve().parent.parent / "claims"

# Citation forms the citations app resolves (German surface forms).
CITATION_RE = re.compile(
    r"^(?:"
    r"§§? \d+[a-z]?(?: Abs\. \d+)?(?: S\. \d+)?(?: Hs\. \d+)?(?: Nr\. \d+)?"
    r"|Art\. \d+[a-z]?(?: Abs\. \d+)?(?: UAbs\. \d+)?(?: Nr\. \d+)?(?: lit\. [a-z])?"
    r"(?: S\. \d+)?"
    r"|Art\. \d+ § \d+"
    r"|Anhang [IVX]+(?: Nr\. \d+)?"
    r") (?:BGB|EGBGB|DSGVO|KI-VO|DORA)$"
)
PLACEHOLDER_RE = re.compile(r"\{([?a-z0-9_]+)\}")
PSEUDO_PLACEHOLDERS = frozenset(
    {"?debtor_business", "?debtor_consumer", "?debtor_unknown"}
)

OnFail = Literal["missing", "excluded"]
# A version with jurisdiction "EU" applies in every member state.
EU_MEMBER_STATES = frozenset(
    [
        "AT",
        "BE",
        "BG",
        "CY",
        "CZ",
        "DE",
        "DK",
        "EE",
        "ES",
        "FI",
        "FR",
        "GR",
        "HR",
        "HU",
        "IE",
        "IT",
        "LT",
        "LU",
        "LV",
        "MT",
        "NL",
        "PL",
        "PT",
        "RO",
        "SE",
        "SI",
        "SK",
    ]
)


class Condition(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    iri: str
    order: int
    on_fail: OnFail
    fact_types: tuple[str, ...]
    found_de: str
    found_en: str
    missing_de: str
    missing_en: str
    silent_when_found: bool = False
    uses_sparql: bool = False
    conclusion_de: str | None = None
    conclusion_en: str | None = None


class Alternative(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    iri: str
    key: str
    order: int
    label_de: str
    label_en: str
    legal_basis: tuple[str, ...]
    conditions: tuple[Condition, ...]
    # an alternative decided by a named kernel rule instead of SHACL shapes
    # (Verzugsschaden: ontology/domain/verzug.py) names the facts it reads
    rule_fact_types: tuple[str, ...] = ()

    @property
    def fact_types(self) -> tuple[str, ...]:
        seen: dict[str, None] = dict.fromkeys(self.rule_fact_types)
        for condition in self.conditions:
            for key in condition.fact_types:
                seen.setdefault(key, None)
        return tuple(seen)


class Requirement(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    iri: str
    key: str
    order: int
    label_de: str
    label_en: str
    legal_basis: tuple[str, ...]
    alternatives: tuple[Alternative, ...]

    @property
    def fact_types(self) -> tuple[str, ...]:
        seen: dict[str, None] = {}
        for alternative in self.alternatives:
            for key in alternative.fact_types:
                seen.setdefault(key, None)
        return tuple(seen)


class ClaimVersion(BaseModel):
    """One version of a claim type, valid in one jurisdiction for a period."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    iri: str
    version_key: str
    claim_type: str
    jurisdiction: str
    valid_from: date
    valid_until: date | None
    label_de: str
    label_en: str
    legal_basis: tuple[str, ...]
    requirements: tuple[Requirement, ...]
    source_file: str
    interest_points: int | None = None
    interest_points_no_consumer: int | None = None
    interest_basis: str | None = None
    interest_basis_no_consumer: str | None = None
    flat_fee_cents: int | None = None
    flat_fee_basis: str | None = None

    @property
    def fact_types(self) -> frozenset[str]:
        return frozenset(k for r in self.requirements for k in r.fact_types)

    def valid_on(self, day: date) -> bool:
        return self.valid_from <= day and (
            self.valid_until is None or day <= self.valid_until
        )


@dataclass(frozen=True)
class ClaimFile:
    """A parsed, checked claim file: its graph is the SHACL shapes graph."""

    path: Path
    graph: Graph
    versions: tuple[ClaimVersion, ...]
    # every shape node (condition, its property shapes) -> condition IRI
    shape_condition: dict[Node, str] = field(default_factory=dict)


def _fail(path: Path, message: str) -> ClaimDefinitionInvalid:
    return ClaimDefinitionInvalid(f"{path.name}: {message}", hint=str(path))


def _text(graph: Graph, node: Node, predicate: URIRef, lang: str) -> str | None:
    for obj in graph.objects(node, predicate):
        if isinstance(obj, RDFLiteral) and obj.language == lang:
            return str(obj)
    return None


def _required_text(
    path: Path, graph: Graph, node: Node, predicate: URIRef, lang: str
) -> str:
    value = _text(graph, node, predicate, lang)
    if value is None:
        raise _fail(path, f"{node} lacks {predicate}@{lang}")
    return value


def _literal(graph: Graph, node: Node, predicate: URIRef) -> object | None:
    value = graph.value(node, predicate)
    if value is None:
        return None
    if not isinstance(value, RDFLiteral):
        return value
    python: object = value.toPython()
    return python


def _int(path: Path, graph: Graph, node: Node, predicate: URIRef) -> int | None:
    value = _literal(graph, node, predicate)
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise _fail(path, f"{node} {predicate} must be an integer")
    return value


def _citations(path: Path, graph: Graph, node: Node) -> tuple[str, ...]:
    found = sorted(str(o) for o in graph.objects(node, BCL.legalBasis))
    for citation in found:
        if not CITATION_RE.match(citation):
            raise _fail(path, f"{node}: citation {citation!r} is not in canonical form")
    return tuple(found)


def _sorted_nodes(graph: Graph, nodes: list[Node]) -> list[Node]:
    def order(node: Node) -> tuple[int, str]:
        value = _literal(graph, node, BCL.order)
        return (value if isinstance(value, int) else 0, str(node))

    return sorted(nodes, key=order)


def _condition(path: Path, graph: Graph, node: Node, known: set[str]) -> Condition:
    if (node, RDF.type, SH.NodeShape) not in graph:
        raise _fail(path, f"condition {node} is not a sh:NodeShape")
    if (node, SH.targetClass, BC.ClaimSubject) not in graph:
        raise _fail(path, f"condition {node} must target bc:ClaimSubject")
    on_fail_node = graph.value(node, BCL.onFail)
    on_fail: OnFail
    if on_fail_node == BCL.Missing:
        on_fail = "missing"
    elif on_fail_node == BCL.Excluded:
        on_fail = "excluded"
    else:
        raise _fail(path, f"condition {node} needs bcl:onFail Missing|Excluded")
    fact_types: list[str] = []
    for obj in graph.objects(node, BCL.factType):
        key = str(obj).removeprefix(str(BFT))
        if not isinstance(obj, URIRef) or key not in known:
            raise _fail(path, f"condition {node} names unknown fact type {obj}")
        fact_types.append(key)
    if not fact_types:
        raise _fail(path, f"condition {node} names no bcl:factType")
    texts = {
        (predicate, lang): _required_text(path, graph, node, predicate, lang)
        for predicate in (BCL.found, BCL.missing)
        for lang in ("de", "en")
    }
    allowed = set(fact_types) | {f"{k}_sum" for k in fact_types} | PSEUDO_PLACEHOLDERS
    for text in texts.values():
        for name in PLACEHOLDER_RE.findall(text):
            if name not in allowed:
                raise _fail(path, f"condition {node}: unknown placeholder {{{name}}}")
    order = _int(path, graph, node, BCL.order)
    return Condition(
        iri=str(node),
        order=order or 0,
        on_fail=on_fail,
        fact_types=tuple(fact_types),
        found_de=texts[(BCL.found, "de")],
        found_en=texts[(BCL.found, "en")],
        missing_de=texts[(BCL.missing, "de")],
        missing_en=texts[(BCL.missing, "en")],
        silent_when_found=_literal(graph, node, BCL.silentWhenFound) is True,
        uses_sparql=(node, SH.sparql, None) in graph,
        conclusion_de=_text(graph, node, BCL.conclusion, "de"),
        conclusion_en=_text(graph, node, BCL.conclusion, "en"),
    )


def _alternative(path: Path, graph: Graph, node: Node, known: set[str]) -> Alternative:
    conditions = [
        _condition(path, graph, c, known)
        for c in _sorted_nodes(graph, list(graph.objects(node, BCL.condition)))
    ]
    rule_fact_types: list[str] = []
    for obj in graph.objects(node, BCL.factType):
        fact_key = str(obj).removeprefix(str(BFT))
        if not isinstance(obj, URIRef) or fact_key not in known:
            raise _fail(path, f"alternative {node} names unknown fact type {obj}")
        rule_fact_types.append(fact_key)
    if not conditions and not rule_fact_types:
        raise _fail(
            path,
            f"alternative {node} has no bcl:condition (nor the bcl:factType of "
            "the kernel rule that decides it)",
        )
    key = _literal(graph, node, BCL.key)
    return Alternative(
        iri=str(node),
        key=str(key) if key is not None else "",
        order=_int(path, graph, node, BCL.order) or 0,
        label_de=_required_text(path, graph, node, RDFS.label, "de"),
        label_en=_required_text(path, graph, node, RDFS.label, "en"),
        legal_basis=_citations(path, graph, node),
        conditions=tuple(sorted(conditions, key=lambda c: (c.order, c.iri))),
        rule_fact_types=tuple(sorted(rule_fact_types)),
    )


def _requirement(path: Path, graph: Graph, node: Node, known: set[str]) -> Requirement:
    alternatives = [
        _alternative(path, graph, a, known)
        for a in _sorted_nodes(graph, list(graph.objects(node, BCL.alternative)))
    ]
    if not alternatives:
        raise _fail(path, f"requirement {node} has no bcl:alternative")
    keys = [a.key for a in alternatives]
    if "" in keys or len(set(keys)) != len(keys):
        raise _fail(path, f"requirement {node}: alternative keys missing or repeated")
    key = _literal(graph, node, BCL.key)
    if not key:
        raise _fail(path, f"requirement {node} lacks bcl:key")
    return Requirement(
        iri=str(node),
        key=str(key),
        order=_int(path, graph, node, BCL.order) or 0,
        label_de=_required_text(path, graph, node, RDFS.label, "de"),
        label_en=_required_text(path, graph, node, RDFS.label, "en"),
        legal_basis=_citations(path, graph, node),
        alternatives=tuple(alternatives),
    )


def _has_obligations(graph: Graph, node: Node) -> bool:
    """A compliance checklist is judged element by element from its
    obligation catalogue (``compliance_catalogue``), not by requirement
    shapes: its version has no bcl:requirement."""
    claim_type = graph.value(node, BCL.claimType)
    return any(
        graph.value(catalogue, BCL.claimType) == claim_type
        for catalogue in graph.subjects(RDF.type, BCL.ObligationCatalogue)
    )


def _version(path: Path, graph: Graph, node: Node, known: set[str]) -> ClaimVersion:
    valid_from = _literal(graph, node, BCL.validFrom)
    valid_until = _literal(graph, node, BCL.validUntil)
    if not isinstance(valid_from, date) or not (
        valid_until is None or isinstance(valid_until, date)
    ):
        raise _fail(path, f"version {node}: bcl:validFrom/validUntil must be xsd:date")
    requirements = [
        _requirement(path, graph, r, known)
        for r in _sorted_nodes(graph, list(graph.objects(node, BCL.requirement)))
    ]
    if not requirements and not _has_obligations(graph, node):
        raise _fail(path, f"version {node} has no bcl:requirement")
    fields: dict[str, object] = {}
    for name, predicate in (
        ("interest_basis", BCL.interestBasis),
        ("interest_basis_no_consumer", BCL.interestBasisNoConsumer),
        ("flat_fee_basis", BCL.flatFeeBasis),
    ):
        value = _literal(graph, node, predicate)
        if value is not None:
            if not CITATION_RE.match(str(value)):
                raise _fail(path, f"{node}: citation {value!r} not canonical")
            fields[name] = str(value)
    for name, predicate in (
        ("interest_points", BCL.interestPoints),
        ("interest_points_no_consumer", BCL.interestPointsNoConsumer),
        ("flat_fee_cents", BCL.flatFeeCents),
    ):
        fields[name] = _int(path, graph, node, predicate)
    claim_type = _literal(graph, node, BCL.claimType)
    jurisdiction = _literal(graph, node, BCL.jurisdiction)
    version_key = _literal(graph, node, BCL.versionKey)
    if not claim_type or not jurisdiction or not version_key:
        raise _fail(path, f"version {node} lacks claimType/jurisdiction/versionKey")
    return ClaimVersion.model_validate(
        {
            "iri": str(node),
            "version_key": str(version_key),
            "claim_type": str(claim_type),
            "jurisdiction": str(jurisdiction),
            "valid_from": valid_from,
            "valid_until": valid_until,
            "label_de": _required_text(path, graph, node, RDFS.label, "de"),
            "label_en": _required_text(path, graph, node, RDFS.label, "en"),
            "legal_basis": _citations(path, graph, node),
            "requirements": tuple(requirements),
            "source_file": path.name,
            **fields,
        }
    )


def _meta_validate(path: Path, graph: Graph) -> None:
    conforms, _report, text = meta_validate(graph, inference=None)
    if not conforms:
        raise _fail(path, f"shapes violate SHACL-SHACL:\n{text}")


def _dry_run(path: Path, graph: Graph) -> None:
    """Let pyshacl build every shape (SPARQL syntax included) on an empty case."""
    data = Graph()
    data.add((BNode(), RDF.type, BC.ClaimSubject))
    try:
        shacl_validate(data, shacl_graph=graph, inplace=True)
    except Exception as exc:  # pyshacl raises many types; all mean "broken"
        raise _fail(path, f"pyshacl cannot load the shapes: {exc}") from exc


def claim_file_load(path: Path) -> ClaimFile:
    """Parse and check one claim file. Raises ClaimDefinitionInvalid."""
    graph = Graph()
    try:
        graph.parse(path, format="turtle")
    except Exception as exc:  # rdflib raises parser-specific types
        raise _fail(path, f"Turtle does not parse: {exc}") from exc
    _meta_validate(path, graph)
    _dry_run(path, graph)
    known = set(fact_types_all())
    versions = tuple(
        _version(path, graph, node, known)
        for node in sorted(graph.subjects(RDF.type, BCL.ClaimVersion), key=str)
    )
    if not versions:
        raise _fail(path, "no bcl:ClaimVersion")
    shape_condition: dict[Node, str] = {}
    for version in versions:
        for requirement in version.requirements:
            for alternative in requirement.alternatives:
                for condition in alternative.conditions:
                    node = URIRef(condition.iri)
                    shape_condition[node] = condition.iri
                    for prop in graph.objects(node, SH.property):
                        shape_condition[prop] = condition.iri
    return ClaimFile(
        path=path, graph=graph, versions=versions, shape_condition=shape_condition
    )


def _check_overlaps(files: list[ClaimFile]) -> None:
    by_scope: dict[tuple[str, str], list[ClaimVersion]] = {}
    for claim_file in files:
        for version in claim_file.versions:
            by_scope.setdefault((version.claim_type, version.jurisdiction), []).append(
                version
            )
    for (claim_type, jurisdiction), versions in by_scope.items():
        ordered = sorted(versions, key=lambda v: v.valid_from)
        for earlier, later in zip(ordered, ordered[1:], strict=False):
            if earlier.valid_until is None or earlier.valid_until >= later.valid_from:
                raise ClaimDefinitionInvalid(
                    f"{claim_type}/{jurisdiction}: versions {earlier.version_key} and "
                    f"{later.version_key} overlap"
                )


@lru_cache(maxsize=1)
def claim_files_load() -> tuple[ClaimFile, ...]:
    """All claim files of the package, checked (cached per process)."""
    files = [claim_file_load(p) for p in sorted(CLAIMS_DIR.glob("*.ttl"))]
    _check_overlaps(files)
    return tuple(files)


def claim_types() -> set[str]:
    return {v.claim_type for f in claim_files_load() for v in f.versions}


def jurisdiction_applies(version_jurisdiction: str, asked: str) -> bool:
    if version_jurisdiction == asked:
        return True
    return version_jurisdiction == "EU" and asked in EU_MEMBER_STATES


def claim_version_get(
    claim_type: str, jurisdiction: str, valid_at: date
) -> tuple[ClaimVersion, ClaimFile]:
    """The version of a claim type valid in the jurisdiction at the date.
    Raises ClaimVersionNotFound."""
    for claim_file in claim_files_load():
        for version in claim_file.versions:
            if (
                version.claim_type == claim_type
                and jurisdiction_applies(version.jurisdiction, jurisdiction)
                and version.valid_on(valid_at)
            ):
                return version, claim_file
    raise ClaimVersionNotFound(
        f"No version of {claim_type} for {jurisdiction} is valid on {valid_at}.",
        hint=sorted(claim_types()),
    )
