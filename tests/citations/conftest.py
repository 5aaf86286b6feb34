from tests.citations.fixtures import (  # noqa: F401
    _corpus_session,
    corpus,
    corpus_dir,
)
