from __future__ import annotations

from typing import Any

import pytest

from cases.models import Membership
from tests.conftest import _client_for, _member


@pytest.fixture
def second_reviewer(firm: Any) -> Any:
    return _member(firm, Membership.Role.REVIEWER, "rita.reviewer")


@pytest.fixture
def second_reviewer_client(second_reviewer: Any) -> Any:
    return _client_for(second_reviewer)


@pytest.fixture
def four_eyes_firm(firm: Any) -> Any:
    firm.four_eyes_review = True
    firm.save(update_fields=["four_eyes_review"])
    return firm


from tests.evidence.pdfs import document_storage  # noqa: E402, F401
