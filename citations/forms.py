from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from cases.errors import DomainError
from citations.domain.instruments import REGISTRY
from citations.services import citation_input_check

_CORPUS_KEYS = ("gdpr", "ai-act", "dora", "bgb")


class CitationCheckForm(forms.Form):
    text = forms.CharField(
        label=_("Text"),
        widget=forms.Textarea(attrs={"rows": 10}),
    )
    at = forms.DateField(
        label=_("Valid at"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text=_("Empty: today."),
    )
    default_instrument = forms.ChoiceField(
        label=_("Instrument for citations that name none"),
        required=False,
        choices=[("", _("none (never guess)"))]
        + [(i.key, i.aliases[0]) for i in REGISTRY if i.key in _CORPUS_KEYS],
    )

    def clean_text(self) -> str:
        text: str = self.cleaned_data["text"]
        try:
            citation_input_check(text)
        except DomainError as exc:
            raise forms.ValidationError(exc.message, code=exc.code) from exc
        return text
