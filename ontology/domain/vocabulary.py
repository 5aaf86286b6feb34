"""The fact-type vocabulary, read from the Turtle files in ``ontology/vocabulary``.

Keys are stable: the files may add fact types, never rename them. The agents'
gate asks ``fact_type_keys()`` whether a proposed fact type exists; the gate,
the reviewer's editor and the API ask ``fact_value_validate()`` whether a value
may be saved. Each fact type's values follow one ``FactValueSchema``
(``ontology.domain.values``) built from its value kind in the Turtle files:
a built-in kind, restricted by ``bc:choices`` (an enumeration), or a record
kind whose typed fields are declared with ``bc:fields``. A fact type or field
that references a kind the code cannot build fails when the vocabulary loads.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator
from rdflib import RDF, RDFS, Graph, Node, URIRef
from rdflib import Literal as RDFLiteral
from rdflib.collection import Collection

from ontology.domain.namespaces import BC, BFT
from ontology.domain.values import (
    SCALAR_KINDS,
    Amount,
    CaseParties,
    ChoiceLabel,
    FactValue,
    FactValueInvalid,
    FactValueSchema,
    FieldSpec,
    ValueKindSpec,
    value_kind_check,
    value_schema,
)

ValueKind = str
VALUE_KINDS: tuple[str, ...] = SCALAR_KINDS

VOCABULARY_DIR = Path(__file__).resolve().parent.parent / "vocabulary"

__all__ = [
    "VALUE_KINDS",
    "Amount",
    "CaseParties",
    "FactTypeInfo",
    "FactValue",
    "FactValueInvalid",
    "UnknownFactType",
    "ValueKind",
    "Vocabulary",
    "fact_type",
    "fact_type_keys",
    "fact_types_all",
    "fact_types_for",
    "fact_value_parse",
    "fact_value_schema",
    "fact_value_validate",
    "vocabulary_base",
    "vocabulary_for",
]


class FactTypeInfo(BaseModel):
    """A fact type of the vocabulary. Its values follow ``value_kind`` (a
    built-in kind or a record kind with ``record_fields``), restricted to
    ``choices`` where the vocabulary declares them (an enumeration)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    key: str
    value_kind: str
    label_de: str
    label_en: str
    claim_types: frozenset[str] = Field(default_factory=frozenset)
    # fact types this one is a subclass of (curator extensions: ext_* under a
    # core type); a fact of this type counts as a fact of each broader type
    broader: frozenset[str] = Field(default_factory=frozenset)
    choices: tuple[str, ...] = ()
    # (key, German label, English label) of each choice, in order
    choice_labels: tuple[ChoiceLabel, ...] = ()
    record_fields: tuple[FieldSpec, ...] = ()

    @model_validator(mode="after")
    def _known_kind(self) -> FactTypeInfo:
        try:
            value_kind_check(
                ValueKindSpec(key=self.value_kind, fields=self.record_fields)
            )
            self.value_schema  # noqa: B018 - builds (and so checks) the schema
        except ValueError as exc:
            raise ValueError(f"fact type {self.key}: {exc}") from None
        return self

    @property
    def value_schema(self) -> FactValueSchema:
        """The one schema of this fact type's values."""
        return value_schema(
            self.value_kind, self.choices, self.record_fields, self.choice_labels
        )


class UnknownFactType(KeyError):
    """The vocabulary has no fact type with this key."""


def _label(graph: Graph, node: Node, lang: str) -> str:
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


def _choices(graph: Graph, node: Node, where: str) -> tuple[ChoiceLabel, ...]:
    """The values of ``bc:choices``, in order, each with its German and English
    label: an RDF list of nodes (a class or a blank node) with a
    ``bc:valueLabel`` (the stored key) and ``rdfs:label`` in both languages. A
    bare literal or a choice without both labels fails here: pages show the
    label, never the key."""
    head = graph.value(node, BC.choices)
    if head is None:
        return ()
    result: list[ChoiceLabel] = []
    for item in Collection(graph, head):
        if isinstance(item, RDFLiteral):
            raise ValueError(
                f"{where}: choice {str(item)!r} needs a node with bc:valueLabel "
                "and rdfs:label in German and English"
            )
        label = graph.value(item, BC.valueLabel)
        if label is None:
            raise ValueError(f"{where}: choice {item} has no bc:valueLabel")
        de, en = _label(graph, item, "de"), _label(graph, item, "en")
        if not de or not en:
            raise ValueError(
                f"{where}: choice {str(label)!r} needs rdfs:label in German and English"
            )
        result.append((str(label), de, en))
    keys = [key for key, _, _ in result]
    if not result or len(set(keys)) != len(keys):
        raise ValueError(f"{where}: bc:choices must list distinct values")
    return tuple(result)


def value_kinds_from_graph(
    graph: Graph, *, known: Mapping[URIRef, ValueKindSpec] | None = None
) -> dict[URIRef, ValueKindSpec]:
    """The value kinds a graph declares (``bc:ValueKind`` with ``bc:key``; a
    record kind lists its typed fields in ``bc:fields``), each ``known`` one
    taken as it is. A kind this code cannot build fails here, loudly, not when
    the first value arrives."""
    kinds: dict[URIRef, ValueKindSpec] = dict(known or {})
    for node in graph.subjects(RDF.type, BC.ValueKind):
        key = graph.value(node, BC.key)
        if not isinstance(node, URIRef) or key is None or node in kinds:
            continue
        fields: list[FieldSpec] = []
        head = graph.value(node, BC.fields)
        for item in Collection(graph, head) if head is not None else ():
            field_key = graph.value(item, BC.key)
            field_kind = graph.value(item, BC.valueKind)
            kind_key: Any = None
            if isinstance(field_kind, URIRef) and field_kind in kinds:
                kind_key = kinds[field_kind].key
            elif field_kind is not None:
                kind_key = graph.value(field_kind, BC.key)
            where = f"value kind {key} field {field_key}"
            if field_key is None or kind_key is None:
                raise ValueError(f"{where}: needs bc:key and a bc:valueKind with a key")
            optional = graph.value(item, BC.optional)
            legacy = graph.value(item, BC.legacy)
            legacy_default = graph.value(item, BC.legacyDefault)
            choices = _choices(graph, item, where)
            legacy_choices = []
            for pair in graph.objects(item, BC.legacyChoice):
                old, new = graph.value(pair, BC.former), graph.value(pair, BC.now)
                if old is None or new is None:
                    raise ValueError(
                        f"{where}: bc:legacyChoice needs bc:former and bc:now"
                    )
                legacy_choices.append((str(old), str(new)))
            fields.append(
                FieldSpec(
                    key=str(field_key),
                    kind=str(kind_key),
                    optional=isinstance(optional, RDFLiteral)
                    and optional.toPython() is True,
                    choices=tuple(key for key, _, _ in choices),
                    choice_labels=choices,
                    label_de=_label(graph, item, "de"),
                    label_en=_label(graph, item, "en"),
                    legacy=isinstance(legacy, RDFLiteral) and legacy.toPython() is True,
                    legacy_default=(
                        str(legacy_default) if legacy_default is not None else None
                    ),
                    legacy_choices=tuple(sorted(legacy_choices)),
                )
            )
        spec = ValueKindSpec(
            key=str(key),
            fields=tuple(fields),
            label_de=_label(graph, node, "de"),
            label_en=_label(graph, node, "en"),
        )
        value_kind_check(spec)
        kinds[node] = spec
    return kinds


@lru_cache(maxsize=1)
def _base_value_kinds() -> dict[URIRef, ValueKindSpec]:
    return value_kinds_from_graph(vocabulary_graph())


def value_kinds() -> dict[str, ValueKindSpec]:
    """The value kinds of the versioned vocabulary by key."""
    return {spec.key: spec for spec in _base_value_kinds().values()}


def fact_types_from_graph(graph: Graph) -> dict[str, FactTypeInfo]:
    """The fact types a graph declares. A kind of the versioned vocabulary is
    taken from there (an extension graph repeats only its IRI and key); any
    other kind must be declared in ``graph``. A fact type without a known kind
    raises ValueError."""
    base = None if graph is vocabulary_graph() else _base_value_kinds()
    kinds = value_kinds_from_graph(graph, known=base)
    result: dict[str, FactTypeInfo] = {}
    for node in graph.subjects(RDF.type, BC.FactType):
        if not isinstance(node, URIRef):
            continue
        key = graph.value(node, BC.key)
        ref = graph.value(node, BC.valueKind)
        if key is None or not isinstance(ref, URIRef) or ref not in kinds:
            raise ValueError(f"fact type {node} lacks bc:key or a known bc:valueKind")
        kind = kinds[ref]
        choices = _choices(graph, node, f"fact type {key}")
        result[str(key)] = FactTypeInfo.model_validate(
            {
                "key": str(key),
                "value_kind": kind.key,
                "record_fields": kind.fields,
                "choices": tuple(key for key, _, _ in choices),
                "choice_labels": choices,
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


@lru_cache(maxsize=1)
def _base_fact_types() -> dict[str, FactTypeInfo]:
    return fact_types_from_graph(vocabulary_graph())


def fact_types_all() -> dict[str, FactTypeInfo]:
    """The fact types of the versioned files (no firm's extension: a firm's
    vocabulary is a ``Vocabulary`` from ``vocabulary_for``)."""
    return dict(_base_fact_types())


def fact_type_keys() -> set[str]:
    return set(_base_fact_types())


def fact_type(key: str) -> FactTypeInfo:
    """The fact type of the versioned vocabulary with this key. Raises
    UnknownFactType."""
    try:
        return _base_fact_types()[key]
    except KeyError:
        raise UnknownFactType(key) from None


def fact_types_for(extensions: Iterable[FactTypeInfo] = ()) -> dict[str, FactTypeInfo]:
    """The versioned fact types plus one firm's curator-accepted extension
    terms. A key of the versioned vocabulary cannot be redefined. No state is
    kept: the caller holds the result."""
    base = _base_fact_types()
    merged = dict(base)
    for term in extensions:
        if term.key in base and base[term.key] != term:
            raise ValueError(f"fact type {term.key} is part of the vocabulary")
        merged[term.key] = term
    return merged


@dataclass(frozen=True)
class Vocabulary:
    """One firm's vocabulary: the versioned fact types plus the terms of the
    firm's extension at ``version`` (0: none). Passed explicitly to whoever
    reads fact types (agents' gate, reviewer's editor, API, evaluator)."""

    types: Mapping[str, FactTypeInfo]
    version: int = 0
    organisation_id: int | None = None

    def get(self, key: str) -> FactTypeInfo | None:
        return self.types.get(key)

    def keys(self) -> set[str]:
        return set(self.types)

    def __contains__(self, key: object) -> bool:
        return key in self.types

    def fact_type(self, key: str) -> FactTypeInfo:
        """Raises UnknownFactType."""
        try:
            return self.types[key]
        except KeyError:
            raise UnknownFactType(key) from None

    def value_kinds(self) -> dict[str, str]:
        """Fact type key -> value kind (what the agents' gate is told)."""
        return {key: info.value_kind for key, info in self.types.items()}


def vocabulary_for(
    extensions: Iterable[FactTypeInfo] = (),
    *,
    version: int = 0,
    organisation_id: int | None = None,
) -> Vocabulary:
    """A firm's vocabulary from its extension terms (pure)."""
    return Vocabulary(
        types=fact_types_for(extensions),
        version=version,
        organisation_id=organisation_id,
    )


@lru_cache(maxsize=1)
def vocabulary_base() -> Vocabulary:
    """The versioned vocabulary alone (a firm without extension terms)."""
    return Vocabulary(types=_base_fact_types())


def _types(vocabulary: Vocabulary | None) -> Mapping[str, FactTypeInfo]:
    return (vocabulary or vocabulary_base()).types


def fact_value_schema(
    fact_type_key: str,
    *,
    value_kind: str | None = None,
    vocabulary: Vocabulary | None = None,
) -> FactValueSchema:
    """The value schema of a fact type of the vocabulary. A key the vocabulary
    does not know falls back to the bare ``value_kind`` if one is given (a
    caller that has its own fact-type list); otherwise UnknownFactType."""
    info = _types(vocabulary).get(fact_type_key)
    if info is not None:
        return info.value_schema
    if value_kind is None:
        raise UnknownFactType(fact_type_key)
    try:
        return value_schema(value_kind)
    except ValueError:
        raise FactValueInvalid(
            f"unknown value kind {value_kind!r}",
            code="unknown_kind",
            params={"kind": value_kind},
        ) from None


def fact_value_validate(
    *,
    fact_type: str,
    value: Any,
    parties: CaseParties | None = None,
    value_kind: str | None = None,
    vocabulary: Vocabulary | None = None,
) -> dict[str, Any]:
    """THE admission check of a fact value (gate, reviewer's edit, API, asserted
    facts): the value in canonical JSON, or FactValueInvalid (UnknownFactType
    for a fact type the vocabulary does not know)."""
    schema = fact_value_schema(fact_type, value_kind=value_kind, vocabulary=vocabulary)
    return schema.admit(value, parties=parties)


def fact_value_parse(value_kind: str, raw: Any) -> FactValue:
    """The typed value of a stored value of a built-in kind (shape only; see
    ``FactValueSchema.read``). Raises FactValueInvalid."""
    try:
        schema = value_schema(value_kind)
    except ValueError:
        raise FactValueInvalid(
            f"unknown value kind {value_kind!r}",
            code="unknown_kind",
            params={"kind": value_kind},
        ) from None
    return schema.read(raw)


def fact_value_read(
    info: FactTypeInfo, raw: Any, *, party_names_by_id: Mapping[int, str] | None = None
) -> FactValue:
    """The typed value of a stored value of a fact type (for the evaluator)."""
    return info.value_schema.read(raw, party_names_by_id=party_names_by_id)


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


def fact_type_lineage(
    key: str, *, vocabulary: Vocabulary | None = None
) -> tuple[str, ...]:
    """The key and every broader fact type above it, nearest first."""
    types = _types(vocabulary)
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
