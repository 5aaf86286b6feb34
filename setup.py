"""The compiled part of the citation parser (citations/domain/_cparser.c).

Everything else about the package is in pyproject.toml. The extension is
optional: where no C compiler is found the build goes on without it and the
parser runs its pure-Python steps (citations/domain/parser_compiled.py).
With BELEGT_CITATIONS_COMPILED=1 (CI, the image) a failed build is an error,
and so is a missing extension at run time.

It is compiled with -Wall -Wextra, as warnings: a newer compiler's new
warning must not break an install. With BELEGT_CITATIONS_WERROR=1 (CI,
.ci/run) they are errors, so that a new warning fails CI instead.
"""

import os

from setuptools import Extension, setup

_YES = {"1", "true", "yes", "on", "required"}
REQUIRED = os.environ.get("BELEGT_CITATIONS_COMPILED", "").strip().lower() in _YES
WERROR = os.environ.get("BELEGT_CITATIONS_WERROR", "").strip().lower() in _YES

setup(
    ext_modules=[
        Extension(
            "citations.domain._cparser",
            sources=["citations/domain/_cparser.c"],
            extra_compile_args=["-O2", "-Wall", "-Wextra"]
            + (["-Werror"] if WERROR else []),
            optional=not REQUIRED,
        )
    ]
)
