"""Forms for the case pages. They only validate: saving goes through the
services in ``cases.services`` (role checks, audit events, one transaction)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.forms.models import BaseInlineFormSet, inlineformset_factory
from django.utils.translation import gettext_lazy as _

from cases.dates import LocalDateField
from cases.models import Case, Claim, Party
from cases.services import CASE_FIELDS, CLAIM_FIELDS, PARTY_FIELDS


class CaseForm(forms.ModelForm):
    """Master data of a case. Bound without an ``instance`` when editing (see
    ``case_form_initial``), so that validating never touches the case object
    the service later compares against."""

    class Meta:
        model = Case
        fields = list(CASE_FIELDS)
        widgets = {
            "description": forms.Textarea(attrs={"rows": 3}),
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["reference"].widget.attrs.update(
            {"autocomplete": "off", "placeholder": _("e.g. 12 O 345/26")}
        )

    def clean_reference(self) -> str:
        reference: str = self.cleaned_data["reference"].strip()
        if not reference:
            raise forms.ValidationError(_("Enter a file reference."))
        return reference


def case_form_initial(case: Case) -> dict[str, Any]:
    return {name: getattr(case, name) for name in CASE_FIELDS}


class PartyForm(forms.ModelForm):
    service_fields = PARTY_FIELDS

    class Meta:
        model = Party
        fields = list(PARTY_FIELDS)
        widgets = {"address": forms.Textarea(attrs={"rows": 2})}


class ClaimForm(forms.ModelForm):
    service_fields = CLAIM_FIELDS

    class Meta:
        model = Claim
        fields = list(CLAIM_FIELDS)
        field_classes = {"valid_at": LocalDateField}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["jurisdiction"].widget.attrs.update(
            {"size": 4, "autocomplete": "off"}
        )

    def clean_jurisdiction(self) -> str:
        value: str = self.cleaned_data["jurisdiction"].strip().upper()
        if not value.isalpha() or not 2 <= len(value) <= 8:
            raise forms.ValidationError(
                _("Use a country or region code such as DE, AT or EU.")
            )
        return value


class _ChildFormSet(BaseInlineFormSet):
    """Splits the submitted rows into what the services need to do: rows to
    create, rows to update (by primary key, which the formset only accepts from
    this case's rows) and rows to delete. Unchanged rows need nothing."""

    @staticmethod
    def _deleting(form: forms.BaseForm) -> bool:
        return bool(form.cleaned_data.get("DELETE"))

    @staticmethod
    def _service_data(form: forms.BaseForm) -> dict[str, Any]:
        names: tuple[str, ...] = getattr(form, "service_fields", ())
        return {name: form.cleaned_data[name] for name in names}

    def _kept_changes(self) -> list[forms.ModelForm]:
        return [f for f in self.forms if f.has_changed() and not self._deleting(f)]

    def rows_to_create(self) -> list[dict[str, Any]]:
        return [
            self._service_data(form)
            for form in self._kept_changes()
            if form.instance.pk is None
        ]

    def rows_to_update(self) -> list[tuple[int, dict[str, Any]]]:
        return [
            (form.instance.pk, self._service_data(form))
            for form in self._kept_changes()
            if form.instance.pk is not None
        ]

    def rows_to_delete(self) -> list[int]:
        return [
            form.instance.pk
            for form in self.forms
            if form.instance.pk is not None and self._deleting(form)
        ]


PartyFormSet = inlineformset_factory(
    Case,
    Party,
    form=PartyForm,
    formset=_ChildFormSet,
    extra=1,
    can_delete=True,
)
ClaimFormSet = inlineformset_factory(
    Case,
    Claim,
    form=ClaimForm,
    formset=_ChildFormSet,
    extra=1,
    can_delete=True,
)


class CaseSearchForm(forms.Form):
    q = forms.CharField(
        label=_("Search"),
        required=False,
        max_length=200,
        widget=forms.TextInput(
            attrs={
                "type": "search",
                "placeholder": _("Reference, title, client or party"),
                "autocomplete": "off",
            }
        ),
    )
    status = forms.ChoiceField(
        label=_("Status"),
        required=False,
        choices=[("", _("All statuses")), *Case.Status.choices],
    )
