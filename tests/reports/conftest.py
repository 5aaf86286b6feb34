"""The pinned corpus (imported once per session, as in the citations tests)."""

from __future__ import annotations

from tests.citations.fixtures import _corpus_session, corpus  # noqa: F401
