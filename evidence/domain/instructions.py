"""Sentences addressed to a machine rather than to the reader of a letter
("Hinweis an automatisierte Systeme: …", "ignore previous instructions …").
Pure; the one rule. The rules extractor never takes a proposal from such a
sentence, and the document that holds one is flagged "enthält Anweisungen an
Systeme" on its card and in the review queue. The flag warns a reviewer; the
gate, not this pattern, is what keeps an agent from obeying."""

from __future__ import annotations

import re

MACHINE_ADDRESSED = re.compile(
    # a note, instruction or processing hint for an automated review, reader
    # or system ("Hinweis an automatisierte Systeme", "Bearbeitungshinweis für
    # die automatisierte Vertragsprüfung", "note for AI reviewers"); not a
    # heading about automated decisions ("Note for automated decision-making")
    r"(?:Hinweis|Anweisung|Nachricht|Mitteilung|Vermerk|Anmerkung|Vorgabe|Note"
    r"|Instruction|Message|Notice|Remark)\w*\s+(?:an|für|to|for)\s+"
    r"(?:(?:die|den|das|alle|the|all|any)\s+)?(?:(?:automatisiert\w*|automatisch\w*"
    r"|maschinell\w*|KI-gestützt\w*|künstlich\w*|auswertend\w*|automated|automatic"
    r"|machine|artificial)[\s\-]+(?:\w+[\s\-]+)?(?:\w*(?:prüfung|auswertung|bewertung|analyse"
    r"|intelligenz|systeme?)|Systeme?|Leser|Prüfer|reviews?|reviewers?|readers?|systems?"
    r"|tools?|agents?|assistants?|analysis|evaluation|intelligence|models?)\b"
    r"|(?:KI|AI)\b)"
    r"|an\s+(?:automatisierte|maschinelle)\s+(?:Systeme|Auswertung)"
    r"|(?:ignoriere|ignorieren\s+Sie|missachten\s+Sie|vergiss|vergessen\s+Sie)\s+"
    r"(?:alle\s+)?(?:bisherigen|vorherigen|vorigen|obigen|vorstehenden|früheren)\s+"
    r"(?:Angaben|Anweisungen|Instruktionen|Inhalte|Informationen)"
    r"|ignore\s+(?:all\s+|any\s+)?(?:the\s+)?(?:previous|prior|above|earlier"
    r"|preceding)\s+(?:instructions|information|content|text)"
    r"|disregard\s+(?:all\s+|any\s+)?(?:the\s+)?(?:previous|prior|above|preceding)\s+"
    r"(?:instructions|information|content)"
    r"|(?:if\s+you\s+are|as)\s+an?\s+(?:AI|KI|language\s+model|assistant"
    r"|automated\s+system)\b"
    r"|(?:KI|AI)[\s\-](?:System|Assistent|Assistenz|assistant|model|agent)\w*\)?\s*[:,]"
    r"|\bsystem\s+prompt\b",
    re.IGNORECASE,
)


def addresses_machines(text: str) -> bool:
    """Whether ``text`` holds a sentence addressed to a machine."""
    return MACHINE_ADDRESSED.search(text) is not None
