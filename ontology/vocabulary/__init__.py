"""The fact-type vocabulary (Turtle files in this folder) and its accessor.

Other apps use::

    from ontology.vocabulary import fact_type_keys, fact_type, fact_value_parse

``fact_type(key)`` returns ``FactTypeInfo(key, value_kind, label_de, label_en,
claim_types)``; ``fact_value_parse(kind, raw)`` returns the typed value or raises
``FactValueInvalid``.
"""

from ontology.domain.vocabulary import (
    VALUE_KINDS,
    Amount,
    FactTypeInfo,
    FactValue,
    FactValueInvalid,
    UnknownFactType,
    ValueKind,
    fact_type,
    fact_type_keys,
    fact_types_all,
    fact_value_parse,
    vocabulary_extend,
    vocabulary_reset_extensions,
)

__all__ = [
    "VALUE_KINDS",
    "Amount",
    "FactTypeInfo",
    "FactValue",
    "FactValueInvalid",
    "UnknownFactType",
    "ValueKind",
    "fact_type",
    "fact_type_keys",
    "fact_types_all",
    "fact_value_parse",
    "vocabulary_extend",
    "vocabulary_reset_extensions",
]
