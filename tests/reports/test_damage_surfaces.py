"""One damage computation, shown identically on all six surfaces (issue 12
§ 3): the Requirements tab, the API, ``check_claim --json``, the report text
(preview), the .docx and the .xlsx — for a case with default interest over two
half-year base-rate periods, a lawyer's fee that is not recoverable (the
lawyer was instructed before default began) and the Pauschale, and its
consumer variant (no Pauschale, § 288 Abs. 1 BGB).

Expected figures are worked out from the law (see scenario V13 for the
interest): default from 23.09.2025 (e-mail reminder of 22.09.2025 whose
receipt the debtor admits), Stichtag 31.03.2026, principal 18.900,00 €.
B2B, 9 points: 100 days at 10,27 % + 90 days at 10,27 % = 1.010,40 €; an item
of 12,50 € arising in default; Pauschale 40,00 € added in full (no legal fees
recoverable to credit it against). Total 1.062,90 €.
Consumer, 5 points: 190 days at 6,27 % on 18.900,00 € = 616,86 €; item
12,50 €; Pauschale excluded. Total 629,36 €."""

from __future__ import annotations

import datetime as dt
import io
import json
import re
from decimal import Decimal
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from docx import Document
from openpyxl import load_workbook

from cases.models import Party
from reports.exports import export_bytes
from reports.services import report_create
from review.models import Fact
from tests import factories
from tests.ontology.factsdb import accepted
from tests.review.helpers import make_chunk

pytestmark = pytest.mark.django_db

ClaimFactory: Any = factories.ClaimFactory
PartyFactory: Any = factories.PartyFactory

FILE = (
    "Kaufvertrag vom 01.09.2025 über Ersatzteile. Rechnung über 18.900,00 EUR. "
    "Mahnung per E-Mail vom 22.09.2025. Ihre E-Mail vom 22.09.2025 haben wir "
    "erhalten, Schreiben vom 24.09.2025. Rechtsanwalt beauftragt am 15.09.2025. "
    "Geschäftsgebühr 500,00 EUR. =Rücklastschrift 12,50 EUR am 01.10.2025."
)
FACTS = [
    ("contract_concluded", {"date": "2025-09-01", "contract_kind": "kaufvertrag"},
     "Kaufvertrag vom 01.09.2025"),
    ("claim_amount", {"cents": 1_890_000, "currency": "EUR"}, "18.900,00 EUR"),
    ("reminder_sent", {"date": "2025-09-22", "dispatch": "email"},
     "Mahnung per E-Mail vom 22.09.2025"),
    ("debtor_admission", {"date": "2025-09-24"}, "Schreiben vom 24.09.2025"),
    ("lawyer_instructed", {"date": "2025-09-15"}, "beauftragt am 15.09.2025"),
    ("fee_note_item",
     {"kind": "geschaeftsgebuehr", "net": {"cents": 50_000, "currency": "EUR"}},
     "Geschäftsgebühr 500,00 EUR"),
    ("damage_item",
     {"amount": {"cents": 1250, "currency": "EUR"}, "text": "=Rücklastschrift",
      "date": "2025-10-01"},
     "=Rücklastschrift 12,50 EUR"),
]  # fmt: skip
B2B: dict[str, Any] = {
    "total": 106_290,
    "interest": 101_040,
    "pauschale": "40,00 €",
    "periods": 2,
}
CONSUMER: dict[str, Any] = {
    "total": 62_936,
    "interest": 61_686,
    "pauschale": None,
    "periods": 2,
}


def _case(case: Any, reviewer: Any, *, consumer: bool) -> Any:
    PartyFactory(case=case, role=Party.Role.CREDITOR, kind=Party.Kind.BUSINESS)
    PartyFactory(
        case=case,
        role=Party.Role.DEBTOR,
        kind=Party.Kind.CONSUMER if consumer else Party.Kind.BUSINESS,
    )
    claim = ClaimFactory(case=case, valid_at=dt.date(2026, 3, 31))
    chunk = make_chunk(case, text=FILE, filename="akte.pdf")
    for fact_type, value, quote in FACTS:
        accepted(
            case, reviewer, chunk=chunk, fact_type=fact_type, value=value, quote=quote
        )
    return claim


def _de(cents: int) -> str:
    euros, rest = divmod(cents, 100)
    return f"{euros:,}".replace(",", ".") + f",{rest:02d} €"


def _html_total(html: str) -> tuple[int, str]:
    cents = re.search(r'data-damage-table data-total-cents="(\d+)"', html)
    shown = re.search(r'class="amount damage-total">([^<]+)<', html)
    assert cents and shown, "no damage table"
    return int(cents.group(1)), shown.group(1)


def _docx_result(content: bytes) -> dict[str, str]:
    doc = Document(io.BytesIO(content))
    rows: dict[str, str] = {}
    for table in doc.tables:
        for row in table.rows:
            cells = [c.text for c in row.cells]
            if len(cells) == 3:
                rows[cells[0]] = cells[1]
    return rows


def _docx_table(content: bytes, first_header: str) -> list[list[str]]:
    doc = Document(io.BytesIO(content))
    for table in doc.tables:
        if table.rows[0].cells[0].text == first_header:
            return [[c.text for c in r.cells] for r in table.rows[1:]]
    raise AssertionError(f"no table starting with {first_header!r}")


@pytest.mark.parametrize(
    ("consumer", "want"), [(False, B2B), (True, CONSUMER)], ids=["b2b", "consumer"]
)
def test_the_one_damage_computation_is_identical_on_all_six_surfaces(
    case: Any,
    reviewer: Any,
    lawyer: Any,
    lawyer_client: Client,
    corpus: Any,
    consumer: bool,
    want: dict[str, Any],
) -> None:
    claim = _case(case, reviewer, consumer=consumer)
    total = want["total"]

    # 1. the Requirements tab (German)
    lawyer_client.cookies["django_language"] = "de"
    tab = lawyer_client.get(
        reverse("ontology:case_requirements", kwargs={"case_id": case.pk})
    ).content.decode()
    assert _html_total(tab) == (total, _de(total))
    assert "Ersatzfähig insgesamt" in tab
    assert tab.count('<td class="interest-rate">10,27 %</td>') == (0 if consumer else 2)

    # 2. the API
    api = lawyer_client.get(
        reverse(
            "ontology-api:claim-evaluation",
            kwargs={"case_id": case.pk, "claim_id": claim.pk},
        )
    ).json()
    damage = api["evaluation"]["damage"]
    assert damage["total_cents"] == total
    assert damage["interest"]["interest_cents"] == want["interest"]
    assert len(damage["interest"]["periods"]) == want["periods"]
    fee = next(i for i in damage["items"] if i["kind"] == "fee_note_item")
    assert (fee["recoverable"], fee["cents"], fee["reason"]) == (
        False,
        0,
        "instructed_before_default",
    )
    assert damage["pauschale_status"] == ("consumer" if consumer else "added")

    # 3. check_claim --json
    out = StringIO()
    call_command(
        "check_claim", "--case", case.reference, "--claim", "verzugsschaden",
        "--json", stdout=out,
    )  # fmt: skip
    [command] = json.loads(out.getvalue())["claims"]
    assert command["evaluation"]["damage"] == damage
    out = StringIO()
    call_command(
        "check_claim", "--case", case.reference, "--claim", "verzugsschaden",
        "--lang", "de", stdout=out,
    )  # fmt: skip
    text = out.getvalue()
    assert f"Summe: {_de(total)}" in text
    assert "Geschäftsgebühr: 0,00 € (nein; nicht ersatzfähig" in text
    assert ("ausgeschlossen: Der Schuldner ist Verbraucher" in text) == consumer

    # 4. the report text (preview): the table and the Schaden finding agree
    report = report_create(case=case, actor=lawyer, language="de")
    schaden = report.findings.get(requirement_key="schaden")
    assert schaden.outcome == "printed", schaden.flag_reason
    assert f"Ersatzfähig insgesamt: {_de(total)}" in schaden.text
    preview = lawyer_client.get(
        reverse("reports:report_detail", kwargs={"report_id": report.pk})
    ).content.decode()
    assert _html_total(preview) == (total, _de(total))

    # 5. the .docx
    docx = export_bytes(report=report, fmt="docx")[0]
    result = _docx_result(docx)
    assert result["Ersatzfähig insgesamt"] == _de(total)
    assert result["Verzug seit"] == "23.09.2025"
    assert result["Stichtag"] == "31.03.2026"
    periods = _docx_table(docx, "Von")
    assert len(periods) == want["periods"]
    items = _docx_table(docx, "Position")
    fee_row = next(r for r in items if r[0].startswith("Geschäftsgebühr"))
    assert fee_row[2:6] == ["500,00 €", "", "nein", "0,00 €"]
    assert "vor Verzugsbeginn beauftragt" in fee_row[6]
    if want["pauschale"]:
        pauschale = result["Pauschale (§ 288 Abs. 5 S. 1 BGB)"]
        assert pauschale == want["pauschale"]
    else:
        assert result["Pauschale (§ 288 Abs. 5 S. 1 BGB)"] == "—"

    # 6. the .xlsx: typed cells, the same figures
    book = load_workbook(io.BytesIO(export_bytes(report=report, fmt="xlsx")[0]))
    sheet = book["Schadensberechnung"]
    header = [c.value for c in sheet[1]]
    amount, position = header.index("Ersatzfähiger Betrag"), header.index("Posten")
    rows = list(sheet.iter_rows(min_row=2))
    [total_row] = [r for r in rows if r[position].value == "Ersatzfähig insgesamt"]
    cell = total_row[amount]
    assert cell.data_type == "n" and Decimal(str(cell.value)) == Decimal(total) / 100
    assert "EUR" in cell.number_format
    [since] = [r for r in rows if r[position].value == "Verzug seit"]
    assert since[header.index("Datum / von")].value.date() == dt.date(2025, 9, 23)
    # text from the file stays text: no formula injection
    [item] = [r for r in rows if r[position].value == "=Rücklastschrift"]
    assert item[position].data_type == "s"
    assert Decimal(str(item[amount].value)) == Decimal("12.50")


def test_an_issued_report_keeps_the_figures_it_was_built_on(
    case: Any, reviewer: Any, lawyer: Any, lawyer_client: Client, corpus: Any
) -> None:
    """A fact added after the report changes the tab, never the report."""
    _case(case, reviewer, consumer=False)
    report = report_create(case=case, actor=lawyer, language="de")
    chunk = make_chunk(case, text="Inkassokosten 100,00 EUR", filename="ink.pdf")
    accepted(
        case,
        reviewer,
        chunk=chunk,
        fact_type="damage_item",
        value={"amount": {"cents": 10_000, "currency": "EUR"}},
        quote="Inkassokosten 100,00 EUR",
    )
    assert Fact.objects.filter(case=case, fact_type="damage_item").count() == 2
    lawyer_client.cookies["django_language"] = "de"
    tab = lawyer_client.get(
        reverse("ontology:case_requirements", kwargs={"case_id": case.pk})
    ).content.decode()
    assert _html_total(tab)[0] == B2B["total"] + 10_000
    preview = lawyer_client.get(
        reverse("reports:report_detail", kwargs={"report_id": report.pk})
    ).content.decode()
    assert _html_total(preview)[0] == B2B["total"]
    result = _docx_result(export_bytes(report=report, fmt="docx")[0])
    assert result["Ersatzfähig insgesamt"] == _de(B2B["total"])
