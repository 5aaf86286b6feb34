"""The policy graph and its evaluators.

Which policies guard which tool is data: an RDF graph (Turtle, in
``ontology/policies/``) with ``ToolAction —CHECK_BEFORE→ Policy``,
``ToolAction —CHECK_AFTER→ Policy`` and ``Policy —USES_RELATION→ …``. What a
policy *means* is code: exactly one deterministic evaluator per policy key in
``EVALUATORS``. ``compile_policy_graph`` joins the two and fails closed: a
policy without an evaluator, an evaluator without a policy, a tool node
without a tool (or the reverse), a policy reading an argument its tool lacks,
or a committing tool without an after-check is an error, and the app refuses
to start (see ``agents.apps``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel
from rdflib import Graph, Namespace
from rdflib.query import ResultRow

from agents.domain.tools import ToolKind, ToolSpec
from agents.domain.world import World
from evidence.domain.quotes import quote_span
from ontology.domain.values import CaseParties, FactValueInvalid
from ontology.domain.vocabulary import fact_value_validate

POL = Namespace("https://belegt.app/ns/policy#")
HINT_CHUNK_IDS = 50


class PolicyGraphError(Exception):
    """The policy graph and the evaluators do not match: refuse to run."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("policy graph check failed: " + "; ".join(problems))
        self.problems = problems


@dataclass(frozen=True)
class PolicyOutcome:
    ok: bool
    code: str = ""
    message: str = ""
    retryable: bool = False
    hint: Any = None
    # the message's values, for a page that says it in its own language
    params: Mapping[str, Any] = field(default_factory=dict)


PASS = PolicyOutcome(ok=True)


@dataclass(frozen=True)
class PreparedResult:
    """What a tool prepared, without a side effect. ``echo`` restates the
    request the way the tool understood it (checked by
    ``prepared_equals_request``); ``payload`` is what would be committed or,
    for a read-only tool, returned."""

    echo: Mapping[str, Any]
    payload: Mapping[str, Any]


@dataclass(frozen=True)
class PolicyContext:
    tool: str
    args: BaseModel
    world: World
    call_id: str
    prepared: PreparedResult | None = None


Evaluator = Callable[[PolicyContext], PolicyOutcome]


def _arg(ctx: PolicyContext, name: str) -> Any:
    return getattr(ctx.args, name)


def _chunk_hint(world: World) -> dict[str, Any]:
    return {"allowed_chunk_ids": world.case_chunk_ids(limit=HINT_CHUNK_IDS)}


def chunk_belongs_to_case(ctx: PolicyContext) -> PolicyOutcome:
    chunk_id = _arg(ctx, "source_chunk_id")
    if ctx.world.case_chunk(chunk_id) is not None:
        return PASS
    return PolicyOutcome(
        ok=False,
        code="chunk_not_in_case",
        message=f"Chunk {chunk_id} is not a chunk of this case.",
        retryable=True,
        hint=_chunk_hint(ctx.world),
        params={"chunk_id": chunk_id},
    )


def quote_in_chunk(ctx: PolicyContext) -> PolicyOutcome:
    chunk = ctx.world.case_chunk(_arg(ctx, "source_chunk_id"))
    if chunk is None:  # fail closed even if the graph forgot the chunk policy
        return chunk_belongs_to_case(ctx)
    # Case-sensitive: a quote is evidence and must be verbatim.
    if quote_span(chunk.text, _arg(ctx, "quote")) is not None:
        return PASS
    return PolicyOutcome(
        ok=False,
        code="quote_not_in_chunk",
        message="The quote does not occur verbatim in the chunk.",
        retryable=True,
        hint="Copy the quote character for character from the chunk text; "
        "only whitespace, line breaks, hyphenation at a line end, soft "
        "hyphens and ligatures may differ.",
    )


_COMPLIANCE_PREFIXES = ("gdpr_", "aia_", "dora_")  # ELEMENTS.md §1: regime keys


def quote_may_be_evidence(ctx: PolicyContext) -> PolicyOutcome:
    """A compliance fact (element, context, determination, instrument) never
    rests on a recital, a marketing claim, a summary that asserts compliance
    or text addressed to machines (ELEMENTS.md §2): the quote, and for a
    machine instruction the paragraph up to it, is read by the one rule
    ``never_evidence``. Other fact types pass."""
    from agents.extraction.compliance_patterns import never_evidence

    if not str(_arg(ctx, "fact_type")).startswith(_COMPLIANCE_PREFIXES):
        return PASS
    chunk = ctx.world.case_chunk(_arg(ctx, "source_chunk_id"))
    if chunk is None:
        return chunk_belongs_to_case(ctx)
    quote = str(_arg(ctx, "quote"))
    span = quote_span(chunk.text, quote)
    before = ""
    if span is not None:
        start = chunk.text.rfind("\n\n", 0, span[0])
        before = chunk.text[max(start, 0) : span[0]]
    reason = never_evidence(" ".join(quote.split()), before=before)
    if reason is None:
        return PASS
    return PolicyOutcome(
        ok=False,
        code="not_evidence",
        message=f"The quoted passage cannot evidence a compliance element ({reason}).",
        retryable=False,
        hint="Quote the policy, notice, contract, register or report itself; "
        "recitals, marketing claims, summaries asserting compliance and text "
        "addressed to automated systems are never evidence.",
    )


def fact_type_known(ctx: PolicyContext) -> PolicyOutcome:
    fact_type = _arg(ctx, "fact_type")
    known = ctx.world.fact_types()
    if fact_type in known:
        return PASS
    return PolicyOutcome(
        ok=False,
        code="unknown_fact_type",
        message=f"The ontology has no fact type {fact_type!r}.",
        retryable=True,
        hint={"fact_types": sorted(known)},
        params={"fact_type": fact_type},
    )


def value_valid_for_fact_type(ctx: PolicyContext) -> PolicyOutcome:
    """The value fits its fact type's schema: the same ``fact_value_validate``
    a reviewer's edit and the API go through (ontology kernel)."""
    fact_type = _arg(ctx, "fact_type")
    kinds = ctx.world.fact_types()
    if fact_type not in kinds:
        return fact_type_known(ctx)
    parties = CaseParties(
        names=frozenset(ctx.world.party_names()),
        ids=frozenset(ctx.world.party_ids()),
    )
    try:
        fact_value_validate(
            fact_type=fact_type,
            value=_arg(ctx, "value"),
            parties=parties,
            value_kind=kinds[fact_type],
            vocabulary=ctx.world.vocabulary(),
        )
    except FactValueInvalid as exc:
        return PolicyOutcome(
            ok=False,
            code="invalid_value",
            message=exc.message,
            retryable=True,
            hint=exc.hint,
            params={
                "reason": exc.code,
                "field": exc.field,
                "fact_type": fact_type,
                **exc.params,
            },
        )
    return PASS


def no_duplicate_proposal(ctx: PolicyContext) -> PolicyOutcome:
    exists = ctx.world.proposal_exists(
        fact_type=_arg(ctx, "fact_type"),
        value=_arg(ctx, "value"),
        chunk_id=_arg(ctx, "source_chunk_id"),
        call_id=ctx.call_id,
    )
    if not exists:
        return PASS
    return PolicyOutcome(
        ok=False,
        code="duplicate_proposal",
        message="The same fact from the same chunk has already been proposed.",
        retryable=False,
        hint="Move on to another fact.",
    )


def evidence_ids_confirmed_facts(ctx: PolicyContext) -> PolicyOutcome:
    wanted = set(_arg(ctx, "approved_evidence_ids"))
    confirmed = ctx.world.confirmed_fact_ids()
    if wanted <= confirmed:
        return PASS
    return PolicyOutcome(
        ok=False,
        code="evidence_not_confirmed",
        message="Only confirmed facts of this case can support an argument: "
        f"{sorted(wanted - confirmed)} are not.",
        retryable=True,
        params={"fact_ids": sorted(wanted - confirmed)},
        hint={"confirmed_fact_ids": sorted(confirmed)[:HINT_CHUNK_IDS]},
    )


def claim_of_case(ctx: PolicyContext) -> PolicyOutcome:
    claim_id = _arg(ctx, "claim_id")
    claims = ctx.world.case_claim_ids()
    if claim_id in claims:
        return PASS
    return PolicyOutcome(
        ok=False,
        code="claim_not_in_case",
        message=f"Claim {claim_id} is not a claim of this case.",
        retryable=True,
        params={"claim_id": claim_id},
        hint={"claim_ids": sorted(claims)},
    )


def fact_of_case(ctx: PolicyContext) -> PolicyOutcome:
    fact_id = _arg(ctx, "fact_id")
    if fact_id in ctx.world.case_fact_ids():
        return PASS
    return PolicyOutcome(
        ok=False,
        code="fact_not_in_case",
        message=f"Fact {fact_id} is not a fact of this case.",
        retryable=True,
        params={"fact_id": fact_id},
    )


def label_in_chunk(ctx: PolicyContext) -> PolicyOutcome:
    chunk = ctx.world.case_chunk(_arg(ctx, "source_chunk_id"))
    if chunk is None:
        return chunk_belongs_to_case(ctx)
    # A label names a concept, not evidence: the letter may capitalise it.
    if quote_span(chunk.text, _arg(ctx, "label"), ignore_case=True) is not None:
        return PASS
    return PolicyOutcome(
        ok=False,
        code="label_not_in_chunk",
        message="A term candidate must appear in the chunk it comes from.",
        retryable=True,
    )


def prepared_equals_request(ctx: PolicyContext) -> PolicyOutcome:
    if ctx.prepared is None:
        return PolicyOutcome(
            ok=False,
            code="nothing_prepared",
            message="The after-check ran without a prepared result.",
        )
    requested = ctx.args.model_dump(mode="json")
    if dict(ctx.prepared.echo) == requested:
        return PASS
    differing = sorted(
        k
        for k in set(requested) | set(ctx.prepared.echo)
        if requested.get(k) != ctx.prepared.echo.get(k)
    )
    return PolicyOutcome(
        ok=False,
        code="prepared_mismatch",
        message=f"The prepared result differs from the request in {differing}.",
        retryable=False,
        params={"keys": differing},
    )


EVALUATORS: Mapping[str, Evaluator] = {
    "chunk_belongs_to_case": chunk_belongs_to_case,
    "quote_in_chunk": quote_in_chunk,
    "quote_may_be_evidence": quote_may_be_evidence,
    "fact_type_known": fact_type_known,
    "value_valid_for_fact_type": value_valid_for_fact_type,
    "no_duplicate_proposal": no_duplicate_proposal,
    "evidence_ids_confirmed_facts": evidence_ids_confirmed_facts,
    "claim_of_case": claim_of_case,
    "fact_of_case": fact_of_case,
    "label_in_chunk": label_in_chunk,
    "prepared_equals_request": prepared_equals_request,
}


@dataclass(frozen=True)
class PolicyRef:
    key: str
    label: str
    relations: tuple[str, ...]


BoundPolicy = tuple[PolicyRef, Evaluator]


@dataclass(frozen=True)
class CompiledPolicies:
    """The graph joined with the evaluators, ready for the gate."""

    before: Mapping[str, tuple[PolicyRef, ...]]
    after: Mapping[str, tuple[PolicyRef, ...]]
    policies: Mapping[str, PolicyRef] = field(default_factory=dict)

    def evaluate(
        self, stage: str, ctx: PolicyContext, evaluators: Mapping[str, Evaluator]
    ) -> tuple[PolicyRef | None, PolicyOutcome]:
        """Run the stage's policies in graph order; stop at the first failure."""
        refs = (self.before if stage == "before" else self.after).get(ctx.tool, ())
        return evaluate_bound(tuple((ref, evaluators[ref.key]) for ref in refs), ctx)

    def bind(
        self, tool: str, evaluators: Mapping[str, Evaluator]
    ) -> tuple[tuple[BoundPolicy, ...], tuple[BoundPolicy, ...]]:
        """The tool's before- and after-policies joined with their evaluators,
        in graph order: looked up once per run (the gate's plan), not per call."""
        return (
            tuple((ref, evaluators[ref.key]) for ref in self.before.get(tool, ())),
            tuple((ref, evaluators[ref.key]) for ref in self.after.get(tool, ())),
        )


def evaluate_bound(
    policies: tuple[BoundPolicy, ...], ctx: PolicyContext
) -> tuple[PolicyRef | None, PolicyOutcome]:
    """Run bound policies in order; stop at the first failure."""
    for ref, evaluator in policies:
        outcome = evaluator(ctx)
        if not outcome.ok:
            return ref, outcome
    return None, PASS


_Q_POLICIES = """
SELECT ?p ?key ?label WHERE {
  ?p a pol:Policy .
  OPTIONAL { ?p pol:key ?key }
  OPTIONAL { ?p rdfs:label ?label FILTER(lang(?label) = "en") }
}"""
_Q_TOOLS = """
SELECT ?t ?name WHERE { ?t a pol:ToolAction . OPTIONAL { ?t pol:toolName ?name } }"""
_Q_EDGES = """
SELECT ?name ?stage ?p ?key ?order WHERE {
  ?t a pol:ToolAction ; pol:toolName ?name .
  { ?t pol:CHECK_BEFORE ?p . BIND("before" AS ?stage) }
  UNION
  { ?t pol:CHECK_AFTER ?p . BIND("after" AS ?stage) }
  OPTIONAL { ?p pol:key ?key }
  OPTIONAL { ?p pol:order ?order }
}"""
_Q_ARGS = "SELECT ?key ?arg WHERE { ?p pol:key ?key ; pol:requiresArgument ?arg }"
_Q_RELS = "SELECT ?key ?rel WHERE { ?p pol:key ?key ; pol:USES_RELATION ?rel }"


def load_policy_graph(paths: list[Path]) -> Graph:
    graph = Graph()
    for path in paths:
        graph.parse(path, format="turtle")
    return graph


def _rows(graph: Graph, query: str) -> list[ResultRow]:
    result = graph.query(query, initNs={"pol": POL, "rdfs": _RDFS})
    return [row for row in result if isinstance(row, ResultRow)]


_RDFS = Namespace("http://www.w3.org/2000/01/rdf-schema#")


def compile_policy_graph(
    graph: Graph,
    *,
    evaluators: Mapping[str, Evaluator],
    tools: Mapping[str, ToolSpec],
) -> CompiledPolicies:
    """Join graph and code; raise ``PolicyGraphError`` listing every mismatch."""
    problems: list[str] = []
    policies: dict[str, PolicyRef] = {}
    relations: dict[str, list[str]] = {}
    for row in _rows(graph, _Q_RELS):
        relations.setdefault(str(row.key), []).append(str(row.rel))
    for row in _rows(graph, _Q_POLICIES):
        if row.key is None:
            problems.append(f"policy {row.p} has no pol:key")
            continue
        key = str(row.key)
        policies[key] = PolicyRef(
            key=key,
            label=str(row.label) if row.label is not None else key,
            relations=tuple(sorted(relations.get(key, []))),
        )
    for key in sorted(set(policies) - set(evaluators)):
        problems.append(f"policy {key!r} has no evaluator")
    for key in sorted(set(evaluators) - set(policies)):
        problems.append(f"evaluator {key!r} has no policy in the graph")

    graph_tools: set[str] = set()
    for row in _rows(graph, _Q_TOOLS):
        if row.name is None:
            problems.append(f"tool action {row.t} has no pol:toolName")
            continue
        graph_tools.add(str(row.name))
    for name in sorted(graph_tools - set(tools)):
        problems.append(f"tool action {name!r} in the graph is not a known tool")
    for name in sorted(set(tools) - graph_tools):
        problems.append(f"tool {name!r} has no tool action in the graph")

    required_args: dict[str, set[str]] = {}
    for row in _rows(graph, _Q_ARGS):
        required_args.setdefault(str(row.key), set()).add(str(row.arg))

    staged: dict[str, dict[str, list[tuple[int, PolicyRef]]]] = {
        "before": {},
        "after": {},
    }
    for row in _rows(graph, _Q_EDGES):
        name, stage = str(row.name), str(row.stage)
        if row.key is None or str(row.key) not in policies:
            problems.append(f"tool {name!r} points at {row.p}, which is no policy")
            continue
        key = str(row.key)
        spec = tools.get(name)
        if spec is not None:
            fields = set(spec.args_model.model_fields)
            missing = required_args.get(key, set()) - fields
            if missing:
                problems.append(
                    f"policy {key!r} on tool {name!r} reads missing argument(s) "
                    f"{sorted(missing)}"
                )
        order = int(row.order) if row.order is not None else 1000
        staged[stage].setdefault(name, []).append((order, policies[key]))
    for name, spec in sorted(tools.items()):
        if spec.kind is ToolKind.PREPARE_COMMIT and not staged["after"].get(name):
            problems.append(f"committing tool {name!r} has no CHECK_AFTER policy")
    if problems:
        raise PolicyGraphError(problems)

    def ordered(
        by_tool: dict[str, list[tuple[int, PolicyRef]]],
    ) -> dict[str, tuple[PolicyRef, ...]]:
        return {
            tool: tuple(ref for _, ref in sorted(refs, key=lambda r: (r[0], r[1].key)))
            for tool, refs in by_tool.items()
        }

    return CompiledPolicies(
        before=ordered(staged["before"]),
        after=ordered(staged["after"]),
        policies=policies,
    )
