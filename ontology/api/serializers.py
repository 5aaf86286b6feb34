"""Serializers of the ontology API: the fact vocabulary with each fact type's
value schema (from ``ontology.domain.values``, the one schema the gate, the
reviewer's editor and the review API use)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from ontology.vocabulary import FactTypeInfo


class FactTypeOutputSerializer(serializers.Serializer[Any]):
    key = serializers.CharField()
    label_de = serializers.CharField()
    label_en = serializers.CharField()
    claim_types = serializers.SerializerMethodField()
    value_kind = serializers.CharField()
    choices = serializers.ListField(child=serializers.CharField())
    record_fields = serializers.SerializerMethodField(
        help_text="The typed fields of a record kind (empty for a built-in kind)."
    )
    example = serializers.SerializerMethodField()
    value_schema = serializers.SerializerMethodField(help_text="JSON Schema.")

    def get_claim_types(self, obj: FactTypeInfo) -> list[str]:
        return sorted(obj.claim_types)

    def get_record_fields(self, obj: FactTypeInfo) -> list[dict[str, Any]]:
        return [f.model_dump(mode="json") for f in obj.record_fields]

    def get_example(self, obj: FactTypeInfo) -> dict[str, Any]:
        return obj.value_schema.example()

    def get_value_schema(self, obj: FactTypeInfo) -> dict[str, Any]:
        return obj.value_schema.json_schema()
