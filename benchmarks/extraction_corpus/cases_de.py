"""German case files (Verzugsschaden). Each spec is one case folder."""

from __future__ import annotations

import datetime as dt
from typing import Any

T = dt.datetime.fromisoformat
KANZLEI_A = ["Kanzlei Dr. Sommer & Kollegen", "Domstraße 12", "50668 Köln",
             "Tel. 0221 923400", "Dr. Sabine Sommer · Jan Kröger", "Dr. Sabine Sommer"]
KANZLEI_B = ["Brandt Wegener Rechtsanwälte", "Am Wall 140", "28195 Bremen",
             "Tel. 0421 337720", "Henrike Brandt · Ole Wegener", "Henrike Brandt"]
KANZLEI_C = ["Rechtsanwältin Ute Falk", "Königstraße 8", "70173 Stuttgart",
             "Tel. 0711 224466", "Fachanwältin für Handelsrecht", "Ute Falk"]  # fmt: skip


def track(name: str, number: str, day: str, delivered: bool, en: bool = False) -> dict:
    x = dt.date.fromisoformat(day)
    before = (x - dt.timedelta(days=1)).isoformat()
    if en:
        ev = [(f"{before}T17:48", "The item has been received at the sorting centre."),
              (f"{day}T07:12", "The item is out for delivery.")]
        ev.append((f"{day}T10:41", "The item has been delivered to the recipient.") if
                  delivered else (f"{day}T11:05", "Recipient not found; notification "
                                  "card left."))  # fmt: skip
    else:
        ev = [(f"{before}T18:02", "Die Sendung wurde im Briefzentrum bearbeitet."),
              (f"{day}T07:30", "Die Sendung wurde in das Zustellfahrzeug geladen.")]
        ev.append((f"{day}T10:15", "Die Sendung wurde dem Empfänger zugestellt.") if
                  delivered else (f"{day}T11:20", "Der Empfänger wurde nicht angetroffen;"
                                  " eine Benachrichtigungskarte wurde hinterlassen."))
    return {"name": name, "number": number, "events": ev,
            "kind": "tracking_delivered" if delivered else "tracking_open"}


def R(name: str, date: str, deadline: str | None = None, dispatch: str = "post",
      level: int = 1, **kw: Any) -> dict:
    return {"name": name, "date": date, "deadline": deadline, "dispatch": dispatch,
            "level": level, **kw}  # fmt: skip


def P(name: str, kind: str, number: str, date: str) -> dict:
    return {"name": name, "kind": kind, "number": number, "date": date}


def E(name: str, at: str, say: list, **kw: Any) -> dict:
    return {"name": name, "at": T(at), "say": say, **kw}


def D(x: str) -> dt.date:
    return dt.date.fromisoformat(x)


CASES_DE: list[dict[str, Any]] = [
    {  # de01: Kaufvertrag, payment term after delivery, delivery note, cross-page
        "id": "de01", "lang": "de", "style": "din5008_firma", "blind": False,
        "valid_at": "2024-10-31",
        "cred": ["Holzbau Reuter GmbH", "Sägewerkstraße 4", "57072 Siegen",
                 "Frank Reuter"],
        "debt": ["Alpen Messebau GmbH", "Herr Tobias Ried", "Lindwurmstraße 77",
                 "80337 München"],
        "lawyer": KANZLEI_A,
        "contract": {"name": "01_Auftragsbestaetigung.pdf", "date": "2024-03-04",
                     "kind": "kaufvertrag", "term": ("delivery", 14), "confirm": True,
                     "matter": "24 Messewände aus Eichenholz"},
        "invoice": {"name": "03_Rechnung_2024-117.pdf", "date": "2024-03-20",
                    "number": "2024-117", "deadline": "2024-04-03",
                    "items": [("Messewand Eiche 240 x 120 cm", 24, 38500),
                              ("Lieferung und Montage", 1, 122000)]},
        "delivery": {"name": "02_Lieferschein_unterschrieben.pdf", "date": "2024-03-18",
                     "goods": "24 Messewände Eiche", "invoice": "2024-03-22"},
        "reminders": [R("04_Mahnung.pdf", "2024-05-06", "2024-05-17",
                        "einwurf_einschreiben", 2)],
        "proofs": [P("05_Auslieferungsbeleg.pdf", "auslieferungsbeleg",
                     "RT 2241 0077 1DE", "2024-05-08")],
        "fee": {"name": "07_Kostennote.pdf", "date": "2024-06-10"},
        "lawyer_letter": {"name": "06_Anwaltsschreiben.pdf", "date": "2024-06-10",
                          "instructed": "2024-06-03", "points": 9,
                          "since": "2024-04-02", "deadline": "2024-06-24",
                          "input_vat": True, "split": "instructed",
                          "other": ("Bühnentechnik Lorenz GmbH", 830000)},
        "order": ["contract", "delivery", "invoice", "reminder", "proof", "fee",
                  "lawyer"],
    },
    {  # de02: agreed calendar date, bank statement, admission, newsletter
        "id": "de02", "lang": "de", "style": "helvetica_tabellen", "blind": False,
        "valid_at": "2024-09-30",
        "cred": ["Nordlicht Elektro AG", "Hafenstraße 21", "20457 Hamburg",
                 "Dr. Imke Jansen"],
        "debt": ["Café Sonnenhof GmbH", "Frau Lea Sonnberg", "Marktplatz 2",
                 "23552 Lübeck"],
        "lawyer": KANZLEI_B, "lawyer_style": "helvetica_tabellen",
        "contract": {"name": "01_Vertrag.pdf", "date": "2024-02-12",
                     "kind": "werkvertrag", "cal": "2024-04-15",
                     "matter": "die Elektroinstallation des Cafés"},
        "invoice": {"name": "02_Rechnung_NL-5531.pdf", "date": "2024-03-28",
                    "number": "NL-5531",
                    "items": [("Elektroinstallation Gastraum", 1, 684000),
                              ("Beleuchtung Terrasse", 1, 171000)]},
        "reminders": [R("03_Mahnung.pdf", "2024-05-02", "2024-05-16")],
        "emails": [E("04_Mail_Schuldnerin.pdf", "2024-05-06T09:12",
                     [("admission", {"reminder": D("2024-05-02"), "on": D("2024-05-03")}),
                      ("text", {"text": "Wir bemühen uns um eine zeitnahe Klärung."})])],
        "bank": {"name": "05_Kontoauszug.pdf", "rows": [
            ("2024-05-21", "Lastschrift Café Sonnenhof NL-5531 Rücklastschrift mangels "
             "Deckung", -300000, "returned"),
            ("2024-06-04", "Gutschrift Café Sonnenhof GmbH NL-5531", 300000, "paid")],
            "others": [("2024-05-27", "Gutschrift Hansa Bäckerei KG RE NL-5510", 118000),
                       ("2024-06-11", "Gutschrift Möller Immobilien RE NL-5498", 64260)]},
        "distractors": {"newsletter": {"name": "06_Newsletter.pdf", "date": "2024-05-31"}},
        "order": ["contract", "invoice", "reminder", "email", "bank", "newsletter"],
    },
    {  # de03 (blind): one-sided deadline, notice absent, temporary refusal, injection
        "id": "de03", "lang": "de", "style": "schreibmaschine", "blind": True,
        "valid_at": "2024-12-15",
        "cred": ["Malerbetrieb Kunz", "Bahnhofstraße 9", "34117 Kassel", "Otto Kunz"],
        "debt": ["Wohnbau Fulda GmbH", "Herr Peter Vogt", "Heinrichstraße 40",
                 "36037 Fulda"],
        "lawyer": KANZLEI_C, "lawyer_style": "din5008_firma",
        "contract": {"name": "01_Angebot_Auftrag.pdf", "date": "2024-07-01",
                     "kind": "werkvertrag", "term": ("acceptance", 21),
                     "matter": "Malerarbeiten im Treppenhaus Heinrichstraße 40"},
        "invoice": {"name": "02_Rechnung_118.pdf", "date": "2024-08-30", "number": "118",
                    "deadline": "2024-09-13", "notice": False,
                    "items": [("Treppenhaus streichen, 4 Etagen", 1, 412000),
                              ("Lackierarbeiten Geländer", 1, 98000)]},
        "acceptance": {"name": "03_Abnahmeprotokoll.pdf", "date": "2024-08-28",
                       "works": "Treppenhaus Heinrichstraße 40, Fulda"},
        "reminders": [R("04_Mahnung.pdf", "2024-10-07", "2024-10-18", "post")],
        "emails": [E("05_Mail_Wohnbau.pdf", "2024-10-21T16:40",
                     [("refusal_temp", {"funds": True})], injection=True)],
        "fee": {"name": "07_Kostennote.pdf", "date": "2024-11-12"},
        "lawyer_letter": {"name": "06_Anwaltsschreiben.pdf", "date": "2024-11-12",
                          "instructed": "2024-11-05", "points": 9,
                          "since": "2024-09-19", "deadline": "2024-11-26",
                          "input_vat": False},
        "order": ["contract", "acceptance", "invoice", "reminder", "email", "fee",
                  "lawyer"],
    },
]  # fmt: skip
