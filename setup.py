"""The compiled part of the citation parser (citations/domain/_cparser.c).

Everything else about the package is in pyproject.toml. The extension is
optional: where no C compiler is found the build goes on without it and the
parser runs its pure-Python steps (citations/domain/parser_compiled.py).
With BELEGT_CITATIONS_COMPILED=1 (CI, the image) a failed build is an error,
and so is a missing extension at run time.
"""

import os

from setuptools import Extension, setup

REQUIRED = os.environ.get("BELEGT_CITATIONS_COMPILED", "").strip().lower() in {
    "1",
    "true",
    "yes",
    "on",
    "required",
}

setup(
    ext_modules=[
        Extension(
            "citations.domain._cparser",
            sources=["citations/domain/_cparser.c"],
            extra_compile_args=["-O2"],
            optional=not REQUIRED,
        )
    ]
)
