"""Serializers of the cases API: output shapes for reads, strict input shapes for
writes. Input serializers only check the form of a request; the services decide
what is allowed (roles, a taken file reference) and write the audit events."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from cases.models import Case, Claim, Membership, Organisation, Party


class StrictInputSerializer(serializers.Serializer[Any]):
    """Rejects keys it does not know, so that a typo ("titel") or an attempt to
    set a field that is not writable ("organisation") is a field-level error
    instead of being silently dropped."""

    def to_internal_value(self, data: Any) -> Any:
        unknown: dict[str, Any] = {}
        if isinstance(data, Mapping):
            unknown = {
                name: [_("Unknown field.")]
                for name in sorted(set(data) - set(self.fields))
            }
        try:
            value = super().to_internal_value(data)
        except serializers.ValidationError as exc:
            # Report unknown and invalid fields together, in one answer.
            if unknown and isinstance(exc.detail, dict):
                raise serializers.ValidationError({**exc.detail, **unknown}) from exc
            raise
        if unknown:
            raise serializers.ValidationError(unknown)
        return value


def _model_char(model: type[Any], name: str, **kwargs: Any) -> serializers.CharField:
    """A CharField with the model field's length limit, so that the API answers
    with a field error instead of a database error."""
    max_length = model._meta.get_field(name).max_length
    return serializers.CharField(max_length=max_length, **kwargs)


# --- Errors (for the schema; config/api.py renders them) -------------------------


class ErrorOutputSerializer(serializers.Serializer[Any]):
    code = serializers.CharField(help_text="Stable machine-readable error code.")
    message = serializers.CharField(help_text="Human-readable explanation.")
    fields = serializers.DictField(  # type: ignore[assignment]
        required=False,
        child=serializers.JSONField(),
        help_text="Validation errors by field (only for code validation_error).",
    )
    hint = serializers.JSONField(
        required=False, help_text="What the client can do about it, if known."
    )
    retryable = serializers.BooleanField(
        required=False, help_text="Whether the same request may succeed later."
    )


# --- Parties -------------------------------------------------------------------


class PartyOutputSerializer(serializers.ModelSerializer[Party]):
    class Meta:
        model = Party
        fields = ["id", "role", "kind", "name", "address"]
        read_only_fields = fields


class PartyInputSerializer(StrictInputSerializer):
    role = serializers.ChoiceField(choices=Party.Role.choices)
    kind = serializers.ChoiceField(choices=Party.Kind.choices)
    name = _model_char(Party, "name")
    address = serializers.CharField(required=False, allow_blank=True, default="")


class PartyUpdateInputSerializer(StrictInputSerializer):
    role = serializers.ChoiceField(choices=Party.Role.choices, required=False)
    kind = serializers.ChoiceField(choices=Party.Kind.choices, required=False)
    name = _model_char(Party, "name", required=False)
    address = serializers.CharField(required=False, allow_blank=True)


# --- Claims --------------------------------------------------------------------


class ClaimOutputSerializer(serializers.ModelSerializer[Claim]):
    class Meta:
        model = Claim
        fields = ["id", "claim_type", "jurisdiction", "valid_at", "created_at"]
        read_only_fields = fields


class ClaimInputSerializer(StrictInputSerializer):
    claim_type = serializers.ChoiceField(choices=Claim.ClaimType.choices)
    jurisdiction = _model_char(Claim, "jurisdiction", required=False, default="DE")
    valid_at = serializers.DateField(
        help_text="The date whose law applies (YYYY-MM-DD)."
    )


class ClaimUpdateInputSerializer(StrictInputSerializer):
    claim_type = serializers.ChoiceField(
        choices=Claim.ClaimType.choices, required=False
    )
    jurisdiction = _model_char(Claim, "jurisdiction", required=False)
    valid_at = serializers.DateField(required=False)


# --- Cases ---------------------------------------------------------------------


class CaseListOutputSerializer(serializers.ModelSerializer[Case]):
    created_by: serializers.SlugRelatedField[Any] = serializers.SlugRelatedField(
        slug_field="username", read_only=True, allow_null=True
    )
    party_count = serializers.IntegerField(read_only=True)

    class Meta:
        model = Case
        fields = [
            "id",
            "reference",
            "title",
            "client",
            "status",
            "party_count",
            "created_by",
            "created_at",
            "updated_at",
        ]
        read_only_fields = fields


class CaseDetailOutputSerializer(serializers.ModelSerializer[Case]):
    created_by: serializers.SlugRelatedField[Any] = serializers.SlugRelatedField(
        slug_field="username", read_only=True, allow_null=True
    )
    parties = PartyOutputSerializer(many=True, read_only=True)
    claims = ClaimOutputSerializer(many=True, read_only=True)

    class Meta:
        model = Case
        fields = [
            "id",
            "reference",
            "title",
            "client",
            "description",
            "status",
            "created_by",
            "created_at",
            "updated_at",
            "parties",
            "claims",
        ]
        read_only_fields = fields


class CaseFilterSerializer(serializers.Serializer[Any]):
    search = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=200,
        help_text="Matches file reference, title, client or a party's name.",
    )
    status = serializers.ChoiceField(
        choices=Case.Status.choices, required=False, allow_blank=True
    )


class CaseCreateInputSerializer(StrictInputSerializer):
    reference = _model_char(
        Case, "reference", help_text="File reference (Aktenzeichen)."
    )
    title = _model_char(Case, "title")
    client = _model_char(Case, "client")
    description = serializers.CharField(required=False, allow_blank=True, default="")
    status = serializers.ChoiceField(
        choices=Case.Status.choices, required=False, default=Case.Status.OPEN
    )
    parties = PartyInputSerializer(many=True, required=False, default=list)
    claims = ClaimInputSerializer(many=True, required=False, default=list)


class CaseUpdateInputSerializer(StrictInputSerializer):
    reference = _model_char(Case, "reference", required=False)
    title = _model_char(Case, "title", required=False)
    client = _model_char(Case, "client", required=False)
    description = serializers.CharField(required=False, allow_blank=True)
    status = serializers.ChoiceField(choices=Case.Status.choices, required=False)


# --- Authentication and the current user -----------------------------------------


class AuthTokenInputSerializer(StrictInputSerializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(
        max_length=4096, trim_whitespace=False, style={"input_type": "password"}
    )


class AuthTokenOutputSerializer(serializers.Serializer[Any]):
    token = serializers.CharField(
        help_text='Send it as the header "Authorization: Token <token>".'
    )


class UserOutputSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    username = serializers.CharField()
    first_name = serializers.CharField()
    last_name = serializers.CharField()
    email = serializers.EmailField()


class OrganisationOutputSerializer(serializers.ModelSerializer[Organisation]):
    class Meta:
        model = Organisation
        fields = ["id", "name", "slug", "four_eyes_review"]
        read_only_fields = fields


class MeOutputSerializer(serializers.Serializer[Any]):
    user = UserOutputSerializer()
    organisation = OrganisationOutputSerializer(allow_null=True)
    role = serializers.ChoiceField(choices=Membership.Role.choices, allow_null=True)
