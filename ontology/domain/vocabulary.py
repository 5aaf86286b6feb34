"""The fact-type vocabulary, read from the Turtle files in ``ontology/vocabulary``.

Keys are stable: the files may add fact types, never rename them. The agents'
gate asks ``fact_type_keys()`` whether a proposed fact type exists and
``fact_value_parse()`` whether a value parses for its kind.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from datetime import date
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from rdflib import RDF, RDFS, Graph, URIRef
from rdflib import Literal as RDFLiteral

from ontology.domain.namespaces import BC, BFT

ValueKind = Literal["date", "amount", "party", "text", "boolean"]
VALUE_KINDS: tuple[ValueKind, ...] = ("date", "amount", "party", "text", "boolean")

VOCABULARY_DIR = Path(__file__).resolve().parent.parent / "vocabulary"


class FactTypeInfo(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    key: str
    value_kind: ValueKind
    label_de: str
    label_en: str
    claim_types: frozenset[str] = Field(default_factory=frozenset)
    # fact types this one is a subclass of (curator extensions: ext_* under a
    # core type); a fact of this type counts as a fact of each broader type
    broader: frozenset[str] = Field(default_factory=frozenset)


class Amount(BaseModel):
    """A sum of money in the smallest unit (cents) and an ISO 4217 currency."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    cents: int
    currency: str = Field(default="EUR", pattern=r"^[A-Z]{3}$")


FactValue = date | Amount | bool | str


class UnknownFactType(KeyError):
    """The vocabulary has no fact type with this key."""


class FactValueInvalid(ValueError):
    """A value does not parse for the value kind of its fact type."""


def _label(graph: Graph, node: URIRef, lang: str) -> str:
    for obj in graph.objects(node, RDFS.label):
        if isinstance(obj, RDFLiteral) and obj.language == lang:
            return str(obj)
    return ""


def vocabulary_graph_load(directory: Path = VOCABULARY_DIR) -> Graph:
    """Parse every Turtle file of the vocabulary into one graph."""
    graph = Graph()
    for path in sorted(directory.glob("*.ttl")):
        graph.parse(path, format="turtle")
    return graph


def fact_types_from_graph(graph: Graph) -> dict[str, FactTypeInfo]:
    kinds: dict[URIRef, str] = {}
    for kind_node in graph.subjects(RDF.type, BC.ValueKind):
        key = graph.value(kind_node, BC.key)
        if isinstance(kind_node, URIRef) and key is not None:
            kinds[kind_node] = str(key)
    result: dict[str, FactTypeInfo] = {}
    for node in graph.subjects(RDF.type, BC.FactType):
        if not isinstance(node, URIRef):
            continue
        key = graph.value(node, BC.key)
        ref = graph.value(node, BC.valueKind)
        if key is None or not isinstance(ref, URIRef) or ref not in kinds:
            raise ValueError(f"fact type {node} lacks bc:key or a known bc:valueKind")
        kind = kinds[ref]
        if kind not in VALUE_KINDS:
            raise ValueError(f"fact type {key}: unknown value kind {kind}")
        result[str(key)] = FactTypeInfo.model_validate(
            {
                "key": str(key),
                "value_kind": kind,
                "label_de": _label(graph, node, "de"),
                "label_en": _label(graph, node, "en"),
                "claim_types": frozenset(
                    str(c) for c in graph.objects(node, BC.claimType)
                ),
                "broader": frozenset(
                    str(parent).removeprefix(str(BFT))
                    for parent in graph.objects(node, RDFS.subClassOf)
                    if str(parent).startswith(str(BFT))
                ),
            }
        )
    return result


_lock = threading.Lock()
_extensions: dict[str, FactTypeInfo] = {}


@lru_cache(maxsize=1)
def _base_fact_types() -> dict[str, FactTypeInfo]:
    return fact_types_from_graph(vocabulary_graph_load())


def fact_types_all() -> dict[str, FactTypeInfo]:
    """All fact types: the versioned files plus extension terms added at run time."""
    with _lock:
        merged = dict(_base_fact_types())
        merged.update(_extensions)
    return merged


def fact_type_keys() -> set[str]:
    return set(fact_types_all())


def fact_type(key: str) -> FactTypeInfo:
    """The fact type with this key. Raises UnknownFactType."""
    try:
        return fact_types_all()[key]
    except KeyError:
        raise UnknownFactType(key) from None


def vocabulary_extend(terms: Iterable[FactTypeInfo]) -> None:
    """Add curator-accepted extension terms for this process. A key of the
    versioned vocabulary cannot be redefined."""
    base = _base_fact_types()
    with _lock:
        for term in terms:
            if term.key in base and base[term.key] != term:
                raise ValueError(f"fact type {term.key} is part of the vocabulary")
            _extensions[term.key] = term


def vocabulary_reset_extensions() -> None:
    with _lock:
        _extensions.clear()


def _unwrap(raw: Any, names: tuple[str, ...]) -> Any:
    if isinstance(raw, dict):
        for name in (*names, "value"):
            if name in raw and len(raw) == 1:
                return raw[name]
    return raw


def fact_value_parse(value_kind: str, raw: Any) -> FactValue:
    """Parse a JSON-ish value for a value kind. Accepts the plain value or a
    one-key dict ({"value": ...}, {"date": ...}); amounts as
    {"cents": int, "currency": "EUR"}. Raises FactValueInvalid."""
    if value_kind == "date":
        value = _unwrap(raw, ("date",))
        if isinstance(value, date):
            return value
        if isinstance(value, str):
            try:
                return date.fromisoformat(value.strip())
            except ValueError:
                pass
        raise FactValueInvalid(f"not an ISO date: {raw!r}")
    if value_kind == "amount":
        if isinstance(raw, Amount):
            return raw
        value = _unwrap(raw, ("amount",))
        if isinstance(value, dict):
            cents = value.get("cents")
            if isinstance(cents, int) and not isinstance(cents, bool):
                try:
                    return Amount(cents=cents, currency=value.get("currency", "EUR"))
                except ValidationError as exc:
                    raise FactValueInvalid(str(exc)) from None
        raise FactValueInvalid(f"not an amount {{cents, currency}}: {raw!r}")
    if value_kind == "boolean":
        value = _unwrap(raw, ("boolean",))
        if isinstance(value, bool):
            return value
        raise FactValueInvalid(f"not a boolean: {raw!r}")
    if value_kind in ("text", "party"):
        value = _unwrap(raw, ("text", "party"))
        if isinstance(value, str) and value.strip():
            return value.strip()
        raise FactValueInvalid(f"not a non-empty text: {raw!r}")
    raise FactValueInvalid(f"unknown value kind {value_kind!r}")


@lru_cache(maxsize=1)
def vocabulary_graph() -> Graph:
    """The parsed vocabulary (TBox for inference). Do not mutate."""
    return vocabulary_graph_load()


@lru_cache(maxsize=1)
def value_classes() -> dict[str, URIRef]:
    """Text values that name a class of the vocabulary (bc:valueLabel), e.g.
    "Rückschein" -> bc:Rueckschein. Matching ignores case and surrounding space."""
    graph = vocabulary_graph()
    result: dict[str, URIRef] = {}
    for node, label in graph.subject_objects(BC.valueLabel):
        if isinstance(node, URIRef):
            result[str(label).strip().casefold()] = node
    return result


def fact_type_lineage(key: str) -> tuple[str, ...]:
    """The key and every broader fact type above it, nearest first."""
    types = fact_types_all()
    result: list[str] = []
    queue = [key]
    while queue:
        current = queue.pop(0)
        if current in result:
            continue
        result.append(current)
        info = types.get(current)
        if info is not None:
            queue.extend(sorted(info.broader))
    return tuple(result)
