"""The compiled part of the citation parser (citations/domain/_cparser.c).

Everything else about the package is in pyproject.toml. The extension is
optional: where no C compiler is found the build goes on without it and the
parser runs its pure-Python steps (citations/domain/parser_compiled.py says
which path runs; BELEGT_CITATIONS_COMPILED=1 makes a missing extension an
error, as CI sets it).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "citations.domain._cparser",
            sources=["citations/domain/_cparser.c"],
            extra_compile_args=["-O2"],
            optional=True,
        )
    ]
)
