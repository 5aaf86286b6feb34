from __future__ import annotations

from rest_framework import serializers

from citations.domain.resolver import STATUSES


class CitationCheckInputSerializer(serializers.Serializer[dict[str, object]]):
    # The length limit is the service's (one rule for page and API).
    text = serializers.CharField(allow_blank=True, trim_whitespace=False)
    at = serializers.DateField(required=False, allow_null=True)
    default_instrument = serializers.CharField(
        required=False, allow_blank=True, max_length=100
    )


class CitationSerializer(serializers.Serializer[dict[str, object]]):
    """Documents the output shape (the same as ``manage.py cite --json``)."""

    span = serializers.ListField(child=serializers.IntegerField())
    raw = serializers.CharField()
    canonical = serializers.CharField(allow_null=True)
    status = serializers.ChoiceField(choices=list(STATUSES))
    reason = serializers.CharField(allow_null=True)
    version = serializers.DictField(allow_null=True)
    excerpt = serializers.CharField(allow_null=True)
    parts = serializers.DictField(child=serializers.CharField(allow_null=True))
    transitions = serializers.ListField(
        child=serializers.DictField(),
        help_text="Transition provisions that may decide the applicable wording.",
    )
