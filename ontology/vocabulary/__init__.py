"""The fact-type vocabulary (Turtle files in this folder) and its accessor.

Other apps use::

    from ontology.vocabulary import fact_type_keys, fact_type, fact_value_validate

``fact_type(key)`` returns ``FactTypeInfo(key, value_kind, label_de, label_en,
claim_types, choices, record_fields)`` whose ``value_schema`` is the one schema
of its values (``ontology.domain.values``); ``fact_value_validate`` admits a new
value or raises ``FactValueInvalid``; ``fact_value_parse(kind, raw)`` reads a
stored value of a built-in kind.
"""

from ontology.domain.values import CURRENCIES, CaseParties, FactValueSchema
from ontology.domain.vocabulary import (
    VALUE_KINDS,
    Amount,
    FactTypeInfo,
    FactValue,
    FactValueInvalid,
    UnknownFactType,
    ValueKind,
    Vocabulary,
    fact_type,
    fact_type_keys,
    fact_types_all,
    fact_types_for,
    fact_value_parse,
    fact_value_schema,
    fact_value_validate,
    vocabulary_base,
    vocabulary_for,
)

__all__ = [
    "CURRENCIES",
    "VALUE_KINDS",
    "Amount",
    "CaseParties",
    "FactTypeInfo",
    "FactValue",
    "FactValueInvalid",
    "FactValueSchema",
    "UnknownFactType",
    "ValueKind",
    "fact_type",
    "fact_type_keys",
    "fact_types_all",
    "fact_value_parse",
    "fact_value_schema",
    "fact_value_validate",
    "Vocabulary",
    "fact_types_for",
    "vocabulary_base",
    "vocabulary_for",
]
