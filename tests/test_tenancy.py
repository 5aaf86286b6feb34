"""Tenancy across the whole project, discovered from the URL configuration.

Every URL pattern is found by walking ``get_resolver().url_patterns``; nothing
here lists the pages or endpoints by hand, so a pattern added by any app is
checked the moment it exists.

- For every pattern with an object id in its URL (``case_id``, ``party_id``,
  ...), a user of firm A asks for the object of firm B and gets 404: with GET
  and POST on pages, and GET, POST, PUT, PATCH and DELETE on the API. 405 is
  accepted for a method the view does not take at all, since that answer does
  not depend on the object. Never 200, never 403 (which would reveal that the
  object exists), never 500. As a control, firm B's own admin asks for the
  same URL and does not get 404: so the URL really names an existing object and
  a 404 above is the tenancy check, not a wrong id.
- Anonymous users are redirected to the log-in page (pages) or get a 401 JSON
  answer (API) on every pattern except the explicit allow-list below.

Adding a pattern with a new kwarg? Register how to make a firm-B object for it
in ``OBJECT_ID_FACTORIES`` (kwarg → callable(firm_b) returning the id), or, for
a kwarg that names no object, give a sample value in ``NON_OBJECT_KWARGS``.
Generic names (``pk``, ``id``, ...) mean different models on different routes:
register those per route in ``ROUTE_OBJECT_ID_FACTORIES``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any
from urllib.parse import urlparse

import pytest
from django.conf import settings
from django.shortcuts import resolve_url
from django.test import Client
from django.urls import (
    NoReverseMatch,
    URLPattern,
    URLResolver,
    get_resolver,
    resolve,
    reverse,
)
from django.urls.resolvers import RegexPattern, RoutePattern

from cases.models import Case, Membership, Organisation
from tests import factories

# factory_boy is untyped; Any keeps mypy quiet at the call sites.
CaseFactory: Any = factories.CaseFactory
ClaimFactory: Any = factories.ClaimFactory
MembershipFactory: Any = factories.MembershipFactory
OrganisationFactory: Any = factories.OrganisationFactory
PartyFactory: Any = factories.PartyFactory

pytestmark = pytest.mark.django_db


@dataclass
class FirmB:
    """The other firm, with one case that the registered objects belong to."""

    organisation: Organisation

    @cached_property
    def case(self) -> Case:
        case: Case = CaseFactory(organisation=self.organisation, reference="B 1/26")
        return case


# --- The registry: how to make a firm-B object for a URL kwarg ---------------------

ObjectIdFactory = Callable[[FirmB], Any]

OBJECT_ID_FACTORIES: dict[str, ObjectIdFactory] = {
    "case_id": lambda b: b.case.pk,
    "party_id": lambda b: PartyFactory(case=b.case).pk,
    "claim_id": lambda b: ClaimFactory(case=b.case).pk,
    "document_id": lambda b: (
        __import__("tests.evidence.pdfs").evidence.pdfs.ingested_document(b.case).pk
    ),
    "run_id": lambda b: (
        __import__("agents.models")
        .models.AgentRun.objects.create(
            case=b.case, provider="rules", goal="x", envelope={}
        )
        .pk
    ),
    "held_id": lambda b: (
        __import__("tests.agents.helpers").agents.helpers.make_held_call(b.case).pk
    ),
    "proposal_id": lambda b: (
        __import__("tests.review.helpers").review.helpers.make_proposal(b.case).pk
    ),
    "fact_id": lambda b: (
        __import__("tests.review.helpers").review.helpers.make_fact(b.case).pk
    ),
    "decision_id": lambda b: (
        __import__("tests.review.helpers")
        .review.helpers.make_fact(b.case)
        .last_decision_id
    ),
    "candidate_id": lambda b: (
        __import__("tests.review.helpers").review.helpers.make_term(b.case).pk
    ),
    "report_id": lambda b: (
        __import__("tests.reports.helpers").reports.helpers.make_report(b.case).pk
    ),
    "build_id": lambda b: (
        __import__("tests.reports.helpers").reports.helpers.make_build(b.case).pk
    ),
}

# Kwargs whose name does not say which model they point to; register them per
# route, as ("namespace:url_name", kwarg) → factory.
AMBIGUOUS_KWARGS = frozenset({"pk", "id", "object_id", "uuid", "slug", "key"})
ROUTE_OBJECT_ID_FACTORIES: dict[tuple[str, str], ObjectIdFactory] = {}

# Kwargs that name no object of a firm, with a value that makes a valid URL.
NON_OBJECT_KWARGS: dict[str, str] = {
    "format": "json",  # DRF format suffixes
    "formset": "parties",  # cases:form_row, an empty form row
    "number": "1",  # evidence page viewer: a page number within the document
    "export_format": "docx",  # reports: download format
}

# Reachable without logging in, by design.
ANONYMOUS_ALLOWED = frozenset(
    {
        "login",
        "logout",  # POST logs out; anonymous is simply sent to the log-in page
        "set_language",  # the language switch works before logging in
        "healthz",  # load balancer and docker health checks
        "cases-api:auth-token",  # exchanges a password for a token
    }
)

# Django's admin is for the site's operators (staff), across firms by design; it
# has its own log-in and its own catch-all pattern. It is checked separately.
SEPARATELY_CHECKED_NAMESPACES = frozenset({"admin"})

PAGE_METHODS = ("get", "post")
API_METHODS = ("get", "post", "put", "patch", "delete")


# --- Discovering the patterns ------------------------------------------------------


@dataclass(frozen=True)
class Route:
    name: str | None  # "namespace:url_name"
    route: str  # the pattern as written, for messages
    kwargs: tuple[str, ...]
    callback: Callable[..., Any] = field(compare=False)
    positional: bool = False  # a regex with unnamed groups

    @property
    def is_api(self) -> bool:
        return self.route.lstrip("^").startswith("api/")

    @property
    def label(self) -> str:
        return self.name or self.route

    def object_kwargs(self) -> tuple[str, ...]:
        return tuple(k for k in self.kwargs if k not in NON_OBJECT_KWARGS)


def _pattern_kwargs(pattern: Any) -> tuple[tuple[str, ...], bool]:
    if isinstance(pattern, RoutePattern):
        return tuple(pattern.converters), False
    if isinstance(pattern, RegexPattern):
        regex = pattern.regex
        return tuple(regex.groupindex), regex.groups > len(regex.groupindex)
    return (), False  # LocalePrefixPattern and the like carry no kwargs


def _walk(
    patterns: list[Any],
    prefix: str = "",
    namespaces: tuple[str, ...] = (),
    kwargs: tuple[str, ...] = (),
    positional: bool = False,
) -> Iterator[Route]:
    for entry in patterns:
        own_kwargs, own_positional = _pattern_kwargs(entry.pattern)
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            inner = namespaces + ((entry.namespace,) if entry.namespace else ())
            yield from _walk(
                entry.url_patterns,
                route,
                inner,
                kwargs + own_kwargs,
                positional or own_positional,
            )
        elif isinstance(entry, URLPattern):
            name = ":".join((*namespaces, entry.name)) if entry.name else None
            yield Route(
                name=name,
                route=route,
                kwargs=kwargs + own_kwargs,
                callback=entry.callback,
                positional=positional or own_positional,
            )


def _all_routes() -> list[Route]:
    routes = []
    for route in _walk(get_resolver().url_patterns):
        namespace = (route.name or "").partition(":")[0]
        if namespace in SEPARATELY_CHECKED_NAMESPACES or route.route.startswith(
            tuple(f"{ns}/" for ns in SEPARATELY_CHECKED_NAMESPACES)
        ):
            continue
        routes.append(route)
    return routes


ROUTES = _all_routes()
OBJECT_ROUTES = [r for r in ROUTES if r.object_kwargs() or r.positional]
PROTECTED_ROUTES = [r for r in ROUTES if r.name not in ANONYMOUS_ALLOWED]


def _object_id_factory(route: Route, kwarg: str) -> ObjectIdFactory:
    if route.name and (route.name, kwarg) in ROUTE_OBJECT_ID_FACTORIES:
        return ROUTE_OBJECT_ID_FACTORIES[(route.name, kwarg)]
    if kwarg not in AMBIGUOUS_KWARGS and kwarg in OBJECT_ID_FACTORIES:
        return OBJECT_ID_FACTORIES[kwarg]
    where = (
        f'ROUTE_OBJECT_ID_FACTORIES[("{route.name}", "{kwarg}")]'
        if kwarg in AMBIGUOUS_KWARGS
        else f'OBJECT_ID_FACTORIES["{kwarg}"]'
    )
    pytest.fail(
        f"URL pattern {route.label!r} ({route.route}) has the kwarg {kwarg!r}, and "
        f"tests/test_tenancy.py does not know how to make a firm-B object for it.\n"
        f"Register a factory: {where} = lambda firm_b: <create the object in "
        f"firm_b.organisation, e.g. under firm_b.case, and return its id>.\n"
        f"If {kwarg!r} names no object of a firm, add a sample value to "
        f"NON_OBJECT_KWARGS instead.",
        pytrace=False,
    )


def _url_for(route: Route, firm_b: FirmB) -> str:
    """A URL of ``route`` whose object ids all point at objects of firm B."""
    if route.name is None:
        pytest.fail(
            f"URL pattern {route.route!r} has no name. Name it (path(..., "
            f"name=...)) so that it can be reversed and checked for tenancy.",
            pytrace=False,
        )
    if route.positional:
        pytest.fail(
            f"URL pattern {route.label!r} ({route.route}) captures an unnamed "
            f"regex group. Use a named kwarg so that tenancy can be checked.",
            pytrace=False,
        )
    values: dict[str, Any] = {}
    for kwarg in route.kwargs:
        if kwarg in NON_OBJECT_KWARGS:
            values[kwarg] = NON_OBJECT_KWARGS[kwarg]
        else:
            values[kwarg] = _object_id_factory(route, kwarg)(firm_b)
    try:
        url = reverse(route.name, kwargs=values)
    except NoReverseMatch as exc:
        pytest.fail(
            f"Could not build a URL for {route.label!r} from {values}: {exc}. "
            f"Check the registered factory or sample value.",
            pytrace=False,
        )
    match = resolve(urlparse(url).path)
    assert match.func is route.callback, (
        f"{url} resolves to {match.view_name!r}, not to the pattern "
        f"{route.route!r}: two patterns share the name {route.name!r}."
    )
    return url


def _request(client: Client, method: str, url: str) -> Any:
    if method in ("get", "delete"):
        return getattr(client, method)(url)
    return getattr(client, method)(url, data="{}", content_type="application/json")


# --- Fixtures ------------------------------------------------------------------------


def _member(organisation: Organisation, role: str) -> Any:
    return MembershipFactory(organisation=organisation, role=role).user


@pytest.fixture
def firm_a() -> Organisation:
    """Firm A has data of its own, so that a view that forgets the firm and
    looks objects up by id alone is caught (it would find firm B's)."""
    organisation: Organisation = OrganisationFactory(name="Kanzlei A")
    own_case = CaseFactory(organisation=organisation)
    PartyFactory(case=own_case)
    ClaimFactory(case=own_case)
    return organisation


@pytest.fixture
def firm_b() -> FirmB:
    return FirmB(organisation=OrganisationFactory(name="Kanzlei B"))


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


# --- The walk itself is checked ------------------------------------------------------


def test_walk_finds_pages_and_api_of_every_kind() -> None:
    names = {route.name for route in ROUTES}
    assert {"cases:list", "cases-api:case-detail", "cases-api:party-detail"} <= names
    assert {"evidence:case_documents", "review:case_review"} <= names
    assert any(route.is_api for route in OBJECT_ROUTES)
    assert any(not route.is_api for route in OBJECT_ROUTES)
    detail = next(r for r in ROUTES if r.name == "cases-api:claim-detail")
    assert detail.kwargs == ("case_id", "claim_id")


def test_allow_list_names_existing_patterns() -> None:
    for name in ANONYMOUS_ALLOWED:
        assert any(route.name == name for route in ROUTES), (
            f"{name!r} is allow-listed for anonymous users but no longer exists; "
            f"remove it from ANONYMOUS_ALLOWED."
        )


def test_an_unregistered_kwarg_fails_with_instructions(firm_b: Any) -> None:
    route = Route(
        name="evidence:exhibit",
        route="evidence/exhibits/<int:exhibit_id>/",
        kwargs=("exhibit_id",),
        callback=lambda request: None,
    )
    with pytest.raises(pytest.fail.Exception) as failure:
        _url_for(route, firm_b)
    message = str(failure.value)
    assert 'OBJECT_ID_FACTORIES["exhibit_id"]' in message
    assert "evidence:exhibit" in message


def test_a_generic_pk_must_be_registered_per_route(firm_b: Any) -> None:
    route = Route(
        name="cases-api:thing-detail",
        route="api/v1/things/<int:pk>/",
        kwargs=("pk",),
        callback=lambda request: None,
    )
    with pytest.raises(pytest.fail.Exception) as failure:
        _url_for(route, firm_b)
    assert 'ROUTE_OBJECT_ID_FACTORIES[("cases-api:thing-detail", "pk")]' in str(
        failure.value
    )


# --- Firm A never sees firm B ---------------------------------------------------


@pytest.mark.parametrize("role", [Membership.Role.ADMIN, Membership.Role.REVIEWER])
@pytest.mark.parametrize("route", OBJECT_ROUTES, ids=lambda r: r.label)
def test_other_firms_objects_are_not_found(
    route: Any, role: Any, firm_a: Any, firm_b: Any
) -> None:
    """Admins hold every role, so for them only the tenancy check can answer
    404; reviewers hold the fewest rights, so a role check that runs before the
    case is fetched (403 instead of 404) shows up too."""
    url = _url_for(route, firm_b)
    intruder = _client(_member(firm_a, role))
    methods = API_METHODS if route.is_api else PAGE_METHODS

    answers = {}
    for method in methods:
        response = _request(intruder, method, url)
        answers[method] = response.status_code
        assert response.status_code in (404, 405), (
            f"{method.upper()} {url} ({route.label}) as firm A's {role} answered "
            f"{response.status_code}; expected 404 (or 405 if the view does not "
            f"take {method.upper()} at all). Fetch the case with "
            f"cases.selectors.case_get_for_user (or scope the queryset with "
            f"scope_to_user) before checking roles or input."
        )
        if route.is_api and response.status_code == 404:
            assert response.json()["code"] == "not_found"
    assert 404 in answers.values(), (
        f"{url} ({route.label}) answered {answers}: no method reached the view's "
        f"tenancy check."
    )

    owner = _client(_member(firm_b.organisation, Membership.Role.ADMIN))
    control = owner.get(url)
    assert control.status_code != 404 and control.status_code < 500, (
        f"Control failed: firm B's own admin got {control.status_code} for GET "
        f"{url} ({route.label}). The registered factory does not make an object "
        f"this URL can show, so the 404 above proves nothing."
    )


# --- Anonymous users -----------------------------------------------------------------


@pytest.mark.parametrize("route", PROTECTED_ROUTES, ids=lambda r: r.label)
def test_anonymous_is_sent_to_log_in_or_gets_401(route: Any, firm_b: Any) -> None:
    url = _url_for(route, firm_b)
    anonymous = Client()
    if route.is_api:
        for method in API_METHODS:
            response = _request(anonymous, method, url)
            assert response.status_code == 401, (
                f"Anonymous {method.upper()} {url} ({route.label}) answered "
                f"{response.status_code}, expected 401. If it is public by "
                f"design, add it to ANONYMOUS_ALLOWED."
            )
            assert response.json()["code"] == "not_authenticated"
        return
    login_path = resolve_url(settings.LOGIN_URL)
    redirected = False
    for method in PAGE_METHODS:
        response = _request(anonymous, method, url)
        if response.status_code == 405:
            continue
        assert response.status_code == 302, (
            f"Anonymous {method.upper()} {url} ({route.label}) answered "
            f"{response.status_code}, expected a redirect to the log-in page. If it "
            f"is public by design, add it to ANONYMOUS_ALLOWED."
        )
        assert urlparse(response["Location"]).path == login_path
        redirected = True
    assert redirected, f"{url} ({route.label}) took neither GET nor POST"


def test_admin_is_for_staff_only(firm_a: Any) -> None:
    """The admin is excluded from the walk (its catch-all and generic kwargs
    are Django's); firm members are not staff and never get in."""
    member = _client(_member(firm_a, Membership.Role.ADMIN))
    for client in (Client(), member):
        response = client.get(reverse("admin:index"))
        assert response.status_code == 302
        assert urlparse(response["Location"]).path == reverse("admin:login")


# --- Lists and firm-wide pages: firm B's vocabulary stays firm B's -------------------

# A term firm B's curator accepted (issue 13 item 6): the term queue, the
# extension graph and the fact-type vocabulary are firm-wide, not case pages,
# so the object walk above does not reach them. Every pattern without an object
# id is asked for by firm A and must not show the term; firm B's own curator
# sees it where the firm's vocabulary is shown.
FIRM_B_TERM = "Quarkbeutelgebühr"
FIRM_B_TERM_MARKERS = ("quarkbeutelgeb", "ext_quarkbeutel")
LIST_ROUTES = [
    r
    for r in ROUTES
    if not r.object_kwargs()
    and not r.positional
    and r.name is not None
    and r.name not in ANONYMOUS_ALLOWED
]
FIRM_B_VOCABULARY_ROUTES = (
    "review:terms",
    "review-api:term-list",
    "review-api:ontology-extension",
    "ontology-api:fact-types",
)


def _accept_firm_b_term(firm_b: FirmB) -> None:
    from review.services.terms import term_candidate_decide
    from tests.review.helpers import make_term

    term_candidate_decide(
        candidate=make_term(firm_b.case, label=FIRM_B_TERM),
        curator=_member(firm_b.organisation, Membership.Role.CURATOR),
        resolution="subclass",
        concept="https://belegt.example/ns/facttype#damage_item",
        reason="Kanzlei B",
    )


def _body(response: Any) -> str:
    if getattr(response, "streaming", False):
        return b"".join(response.streaming_content).decode("utf-8", "replace")
    return response.content.decode("utf-8", "replace")


def _list_url(route: Route) -> str:
    values = {k: NON_OBJECT_KWARGS[k] for k in route.kwargs}
    return reverse(route.name or "", kwargs=values)


def test_list_walk_reaches_the_term_queue_and_extension() -> None:
    names = {r.name for r in LIST_ROUTES}
    assert set(FIRM_B_VOCABULARY_ROUTES) <= names


@pytest.mark.parametrize("role", [Membership.Role.CURATOR, Membership.Role.LAWYER])
def test_another_firms_accepted_term_is_on_no_page_or_endpoint(
    role: Any, firm_a: Any, firm_b: Any
) -> None:
    _accept_firm_b_term(firm_b)
    intruder = _client(_member(firm_a, role))
    for route in LIST_ROUTES:
        base = _list_url(route)
        for url in (base, f"{base}?status=all"):
            response = intruder.get(url)
            assert response.status_code < 500, f"GET {url}: {response.status_code}"
            body = _body(response).casefold()
            for marker in FIRM_B_TERM_MARKERS:
                assert marker not in body, (
                    f"GET {url} ({route.label}) as firm A's {role} shows firm B's "
                    f"accepted term ({marker!r}). Scope it by the user's firm."
                )

    owner = _client(_member(firm_b.organisation, Membership.Role.CURATOR))
    for name in FIRM_B_VOCABULARY_ROUTES:
        body = _body(owner.get(f"{reverse(name)}?status=all")).casefold()
        assert "quarkbeutelgeb" in body, (
            f"control: firm B does not see its term at {name}"
        )
