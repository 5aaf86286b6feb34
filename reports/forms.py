"""Forms of the report pages."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from cases.dates import LocalDateField
from citations.wording import MAX_REASON_CHARS


class WordingDecisionForm(forms.Form):
    """ "Wortlaut galt am <Datum> unverändert" for one waiting provision."""

    citation = forms.IntegerField(widget=forms.HiddenInput)
    date_from = LocalDateField(label=_("from"), required=False)
    date_to = LocalDateField(label=_("to"), required=False)
    reason = forms.CharField(
        label=_("Reason"),
        max_length=MAX_REASON_CHARS,
        widget=forms.Textarea(attrs={"rows": 2}),
    )
