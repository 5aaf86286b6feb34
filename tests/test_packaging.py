"""The package list and package data in pyproject.toml match the tree: every
local Django app is a shipped package, every package-data glob matches files,
and every data file inside a shipped package is covered by a glob (a missing
Turtle file would otherwise surface only in an installed copy)."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tomllib
from fnmatch import fnmatch
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest
from setuptools import find_packages

BASE_DIR = Path(__file__).resolve().parent.parent
SETUPTOOLS = tomllib.loads((BASE_DIR / "pyproject.toml").read_text())["tool"][
    "setuptools"
]
PACKAGES = find_packages(
    where=BASE_DIR, include=SETUPTOOLS["packages"]["find"]["include"]
)
PACKAGE_DATA: dict[str, list[str]] = SETUPTOOLS["package-data"]
# Files inside packages that the code never reads.
NOT_DATA = ("README.md",)
# C sources that setup.py compiles (it ships them itself), by their path
SETUP_PY = (BASE_DIR / "setup.py").read_text()
EXTENSION_SOURCES = set(re.findall(r'"([\w/]+\.c)"', SETUP_PY))


def is_compiled(path: Path) -> bool:
    """A C source of an extension in setup.py, or an extension built from
    one: compiled, not read as data."""
    relative = path.relative_to(BASE_DIR).as_posix()
    return relative in EXTENSION_SOURCES or path.name.endswith(
        tuple(EXTENSION_SUFFIXES)
    )


def unmatched_globs(package_data: dict[str, list[str]]) -> list[str]:
    return [
        f"{package}/{pattern}"
        for package, patterns in package_data.items()
        for pattern in patterns
        if package not in PACKAGES or not list((BASE_DIR / package).glob(pattern))
    ]


def unshipped_files(package_data: dict[str, list[str]]) -> list[str]:
    missing = []
    for top in (p for p in PACKAGES if "." not in p):
        root = BASE_DIR / top
        for path in root.rglob("*"):
            if not path.is_file() or path.suffix in (".py", ".pyc"):
                continue
            if path.name in NOT_DATA or "__pycache__" in path.parts:
                continue
            if is_compiled(path):
                continue
            relative = path.relative_to(root).as_posix()
            if not any(fnmatch(relative, g) for g in package_data.get(top, [])):
                missing.append(f"{top}/{relative}")
    return sorted(missing)


def test_every_local_app_is_a_shipped_package() -> None:
    from config.settings import base

    local_apps = {
        app for app in base.INSTALLED_APPS if (BASE_DIR / app / "apps.py").is_file()
    }
    assert {"cases", "reports", "demo"} <= local_apps
    assert local_apps <= set(PACKAGES)
    assert "config.settings" in PACKAGES


def test_every_package_data_glob_matches_files() -> None:
    assert unmatched_globs(PACKAGE_DATA) == []


def test_every_data_file_in_a_package_is_shipped() -> None:
    assert unshipped_files(PACKAGE_DATA) == []


def test_every_extension_source_in_setup_py_exists() -> None:
    assert {"citations/domain/_cparser.c"} == EXTENSION_SOURCES
    for source in EXTENSION_SOURCES:
        assert (BASE_DIR / source).is_file()


def test_the_checks_notice_a_glob_without_files_and_a_file_without_a_glob() -> None:
    """The package data before this test existed: shapes/*.ttl (no such
    folder) and no policies/*.ttl nor pins.json."""
    old = {
        "ontology": ["vocabulary/*.ttl", "claims/*.ttl", "shapes/*.ttl", "data/*.csv"]
    }

    assert unmatched_globs(old) == ["ontology/shapes/*.ttl"]
    assert unshipped_files(old) == [
        "agents/extraction/data/compliance_matcher.json",
        "citations/domain/_cparser.pyi",
        "citations/pins.json",
        "ontology/data/compliance_examples.jsonl",
        "ontology/policies/tool_policies.ttl",
    ]


def _dockerfile_steps() -> list[str]:
    """The Dockerfile's instructions, continuation lines joined."""
    text = (BASE_DIR / "Dockerfile").read_text().replace("\\\n", " ")
    return [
        line.strip()
        for line in text.splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]


def test_the_image_installs_the_dependencies_before_it_copies_the_source(
    tmp_path: Path,
) -> None:
    """Only pyproject.toml is copied before the dependency layer (so a change to
    the source reuses it), and that layer installs exactly the dependencies
    pyproject.toml lists."""
    steps = _dockerfile_steps()
    install = next(i for i, s in enumerate(steps) if "pip install" in s)
    copies_before = [s for s in steps[:install] if s.startswith("COPY")]
    assert copies_before == ["COPY pyproject.toml ./"]
    assert steps.index("COPY . .") > install

    command = steps[install].removeprefix("RUN ").split(" > ")[0]
    (tmp_path / "pyproject.toml").write_bytes(
        (BASE_DIR / "pyproject.toml").read_bytes()
    )
    code = shlex.split(command)[2]
    listed = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split("\n")
    pyproject = tomllib.loads((BASE_DIR / "pyproject.toml").read_text())
    assert [line for line in listed if line] == pyproject["project"]["dependencies"]


def test_the_image_builds_the_compiled_citation_reader_and_keeps_no_compiler() -> None:
    """The reader is built from setup.py and its C source alone, after the
    dependency layer and before the rest of the source; the compiler is
    installed and removed in that same step; a failed compile fails the build
    (not a silent fall-back to the Python steps); the image checks that the
    reader loads in its own Python; a host's build is never copied in."""
    steps = _dockerfile_steps()
    build = next(i for i, step in enumerate(steps) if "build_ext" in step)
    dependencies = next(i for i, step in enumerate(steps) if "pip install" in step)
    assert dependencies < build < steps.index("COPY . .")
    assert [s for s in steps[dependencies:build] if s.startswith("COPY")] == [
        "COPY setup.py /tmp/cparser/",
        "COPY citations/domain/_cparser.c /tmp/cparser/citations/domain/",
    ]
    step = steps[build]
    assert "apt-get install -y --no-install-recommends gcc" in step
    assert "apt-get purge -y --auto-remove gcc" in step
    assert "BELEGT_CITATIONS_COMPILED=1 python setup.py" in step
    assert any(
        "BELEGT_CITATIONS_COMPILED=1" in s and "compiled_parser()" in s
        for s in steps[build + 1 :]
    )
    assert "**/*.so" in (BASE_DIR / ".dockerignore").read_text().splitlines()


# -- warnings of the compiled reader: shown everywhere, errors in CI only --

WERROR_ENV = "BELEGT_CITATIONS_WERROR"


def _setup_py_compile_args(werror: str | None) -> list[str]:
    """The compile arguments setup.py gives the extension, with
    ``BELEGT_CITATIONS_WERROR`` unset or set to ``werror``."""
    code = (
        "import json, runpy, setuptools\n"
        "setuptools.setup = lambda **kw: print(json.dumps("
        "[e.extra_compile_args for e in kw['ext_modules']]))\n"
        f"runpy.run_path({str(BASE_DIR / 'setup.py')!r})\n"
    )
    env = {k: v for k, v in os.environ.items() if k != WERROR_ENV}
    if werror is not None:
        env[WERROR_ENV] = werror
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    [args] = json.loads(out)
    return list(args)


def test_setup_py_warns_everywhere_and_fails_on_a_warning_only_where_asked() -> None:
    """-Wall -Wextra for every build; -Werror only with the variable (a newer
    compiler's new warning must not break a user's install)."""
    plain = _setup_py_compile_args(None)
    assert {"-Wall", "-Wextra"} <= set(plain)
    assert "-Werror" not in plain
    assert _setup_py_compile_args("0") == plain
    assert _setup_py_compile_args("1") == [*plain, "-Werror"]


def test_ci_fails_on_a_warning_of_the_compiled_reader() -> None:
    """.ci/run sets the variable before it builds (make check installs)."""
    lines = (BASE_DIR / ".ci" / "run").read_text().splitlines()
    export = lines.index(f"export {WERROR_ENV}=1")
    assert export < lines.index("make check")


def test_the_compiled_reader_compiles_without_a_warning() -> None:
    """The C source, compiled as setup.py compiles it for this Python (its
    CFLAGS, -O2 -Wall -Wextra) and with -Werror: no warning. Skipped where
    there is no compiler or no Python headers, unless the compiled path is
    required (CI)."""
    compiler = shutil.which((sysconfig.get_config_var("CC") or "cc").split()[0])
    include = Path(sysconfig.get_paths()["include"])
    required = os.environ.get("BELEGT_CITATIONS_COMPILED", "").strip().lower() in {
        "1",
        "true",
        "yes",
        "on",
        "required",
    }
    if compiler is None or not (include / "Python.h").is_file():
        if required:
            pytest.fail("no C compiler or Python headers, and the reader is required")
        pytest.skip("no C compiler or no Python headers")
    cflags = shlex.split(sysconfig.get_config_var("CFLAGS") or "")
    result = subprocess.run(
        [
            compiler,
            *cflags,
            "-fPIC",
            f"-I{include}",
            "-c",
            str(BASE_DIR / "citations" / "domain" / "_cparser.c"),
            "-o",
            os.devnull,
            "-O2",
            "-Wall",
            "-Wextra",
            "-Werror",
        ],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    assert "warning" not in result.stderr, result.stderr
