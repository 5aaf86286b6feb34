"""Serializers of the review API (input validation and output shapes)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from ontology.domain.values import value_shapes_description
from review.models import Decision, ExtractionProposal, Fact, TermCandidate
from review.services.decisions import DECISION_ACTIONS


class FactValueField(serializers.JSONField):
    """A fact value. Its shape is documented from the ontology's one value
    schema; whether it may be saved is decided there too (by the service, the
    same check as the agents' gate), never here, so the API cannot drift."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault(
            "help_text",
            value_shapes_description()
            + " The shapes per fact type: GET /api/v1/fact-types/.",
        )
        super().__init__(**kwargs)


class ProposalOutputSerializer(serializers.ModelSerializer[ExtractionProposal]):
    case_id = serializers.IntegerField()
    source_chunk_id = serializers.IntegerField()
    document_id = serializers.IntegerField(source="source_chunk.document_id")
    assignee = serializers.SerializerMethodField()
    claimed = serializers.SerializerMethodField()

    class Meta:
        model = ExtractionProposal
        fields = [
            "id",
            "case_id",
            "fact_type",
            "value",
            "source_chunk_id",
            "document_id",
            "quote",
            "confidence",
            "status",
            "agent_run_id",
            "agent_step_id",
            "model_id",
            "call_id",
            "created_at",
            "decided_at",
            "assignee",
            "claimed",
            "claimed_at",
            "superseded_by_id",
        ]

    def get_assignee(self, obj: ExtractionProposal) -> str | None:
        return obj.assignee.get_username() if obj.assignee else None

    def get_claimed(self, obj: ExtractionProposal) -> bool:
        return obj.claim_active()


class ProposalListOutputSerializer(serializers.Serializer[Any]):
    results = ProposalOutputSerializer(many=True)
    next_after = serializers.IntegerField(allow_null=True)


class ProposalFilterSerializer(serializers.Serializer[Any]):
    case = serializers.IntegerField(required=False)
    fact_type = serializers.CharField(required=False, max_length=64)
    status = serializers.ChoiceField(
        choices=[*ExtractionProposal.Status.values, "all"], required=False
    )
    min_confidence = serializers.FloatField(required=False, min_value=0, max_value=1)
    max_confidence = serializers.FloatField(required=False, min_value=0, max_value=1)
    assignee = serializers.CharField(required=False, max_length=20)
    after = serializers.IntegerField(required=False, min_value=0)
    limit = serializers.IntegerField(required=False, min_value=1, max_value=200)


class DecideInputSerializer(serializers.Serializer[Any]):
    action = serializers.ChoiceField(choices=list(DECISION_ACTIONS))
    value = FactValueField(required=False)
    reason = serializers.CharField(required=False, allow_blank=True, max_length=2000)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs["action"] == "edit" and not isinstance(attrs.get("value"), dict):
            raise serializers.ValidationError(
                {"value": ["An edit needs the new value as a JSON object."]}
            )
        return attrs


class BulkInputSerializer(serializers.Serializer[Any]):
    ids = serializers.ListField(
        child=serializers.IntegerField(min_value=1), min_length=1, max_length=200
    )
    action = serializers.ChoiceField(choices=["accept", "reject"])
    reason = serializers.CharField(required=False, allow_blank=True, max_length=2000)


class BulkOutputSerializer(serializers.Serializer[Any]):
    decided = serializers.ListField(child=serializers.IntegerField())
    conflicts = serializers.ListField(child=serializers.DictField())


class DecisionOutputSerializer(serializers.ModelSerializer[Decision]):
    # A plain string in the schema: "kind" enums of other apps would collide.
    kind = serializers.CharField(
        help_text="accept · edit_accept · dispute · reject · confirm · assert"
    )

    class Meta:
        model = Decision
        fields = [
            "id",
            "case_id",
            "kind",
            "proposal_id",
            "fact_id",
            "actor_label",
            "reason",
            "value_before",
            "value_after",
            "status_after",
            "created_at",
        ]


class FactOutputSerializer(serializers.ModelSerializer[Fact]):
    evidenced_by = serializers.SerializerMethodField()
    confirmed_by = serializers.SerializerMethodField()
    disputed_by = serializers.SerializerMethodField()

    class Meta:
        model = Fact
        fields = [
            "id",
            "case_id",
            "fact_type",
            "value",
            "status",
            "proposal_id",
            "evidenced_by",
            "confirmed_by",
            "disputed_by",
            "dispute_reason",
            "created_at",
            "updated_at",
        ]

    def _name(self, user: Any) -> str | None:
        return user.get_username() if user else None

    def get_evidenced_by(self, obj: Fact) -> str | None:
        return self._name(obj.evidenced_by)

    def get_confirmed_by(self, obj: Fact) -> str | None:
        return self._name(obj.confirmed_by)

    def get_disputed_by(self, obj: Fact) -> str | None:
        return self._name(obj.disputed_by)


class EvidenceOutputSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    quote = serializers.CharField()
    chunk_id = serializers.IntegerField()
    page = serializers.IntegerField()
    document_id = serializers.IntegerField()
    document = serializers.CharField()
    sha256 = serializers.CharField()
    url = serializers.CharField()
    proposal = serializers.DictField(allow_null=True)


class FactDetailOutputSerializer(serializers.Serializer[Any]):
    fact = FactOutputSerializer()
    decisions = serializers.ListField(child=serializers.DictField())
    evidence = EvidenceOutputSerializer(many=True)


class DecideOutputSerializer(serializers.Serializer[Any]):
    proposal = ProposalOutputSerializer()
    fact = FactOutputSerializer(allow_null=True)


class FactAssertInputSerializer(serializers.Serializer[Any]):
    case = serializers.IntegerField()
    fact_type = serializers.CharField(max_length=64)
    value = FactValueField()
    reason = serializers.CharField(max_length=2000)


class FactManualInputSerializer(serializers.Serializer[Any]):
    """A reviewer's own fact. With ``chunk`` and ``quote`` (verbatim in that
    chunk): evidenced by that passage. Without ``chunk``: asserted, and
    ``reason`` (who asserts it) is required."""

    case = serializers.IntegerField()
    fact_type = serializers.CharField(max_length=64)
    value = FactValueField()
    chunk = serializers.IntegerField(required=False, allow_null=True)
    quote = serializers.CharField(
        required=False, allow_blank=True, max_length=4000, trim_whitespace=False
    )
    reason = serializers.CharField(required=False, allow_blank=True, max_length=2000)


class ReasonInputSerializer(serializers.Serializer[Any]):
    reason = serializers.CharField(required=False, allow_blank=True, max_length=2000)


class TermCandidateOutputSerializer(serializers.ModelSerializer[TermCandidate]):
    kind = serializers.CharField(help_text="document_type · concept_label")

    class Meta:
        model = TermCandidate
        fields = [
            "id",
            "case_id",
            "label",
            "kind",
            "source_chunk_id",
            "status",
            "resolution",
            "target_concept",
            "reason",
            "extension_version",
            "agent_run_id",
            "model_id",
            "created_at",
            "decided_at",
        ]


class TermDecideInputSerializer(serializers.Serializer[Any]):
    resolution = serializers.ChoiceField(choices=TermCandidate.Resolution.values)
    concept = serializers.CharField(required=False, allow_blank=True, max_length=300)
    reason = serializers.CharField(required=False, allow_blank=True, max_length=2000)


class ExtensionOutputSerializer(serializers.Serializer[Any]):
    version = serializers.IntegerField()
    turtle = serializers.CharField(allow_blank=True)
