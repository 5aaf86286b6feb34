"""Every string the code marks for translation has a German text: the
German catalogue is brought up to date from the sources (Django's
``makemessages``, into a copy) and must have no untranslated and no fuzzy
entry. A new English string without its German text fails here, before a
German page shows it."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command

CATALOGUE = Path(settings.BASE_DIR) / "locale" / "de" / "LC_MESSAGES" / "django.po"

pytestmark = pytest.mark.skipif(
    shutil.which("msgattrib") is None, reason="GNU gettext is not installed"
)


def _entries(po: Path, *flags: str) -> list[str]:
    out = subprocess.run(
        ["msgattrib", "--no-obsolete", *flags, str(po)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    # a string of the code has its source references (#:); the header has none
    return [b for b in out.split("\n\n") if "msgid" in b and "#:" in b]


def _source_tree(root: Path, into: Path) -> None:
    """A tree to read the strings from: links to the project's source folders
    and a copy of its catalogue (makemessages writes the catalogue of the
    tree it reads, never the project's own here)."""
    skip = {"locale", "tests", "benchmarks", "var", "test-artifacts", "node_modules"}
    for entry in root.iterdir():
        if entry.name.startswith(".") or entry.name in skip:
            continue
        (into / entry.name).symlink_to(entry)
    target = into / "locale" / "de" / "LC_MESSAGES"
    target.mkdir(parents=True)
    shutil.copy(CATALOGUE, target / "django.po")


def test_the_german_catalogue_translates_every_string_of_the_code(
    tmp_path: Path, settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    _source_tree(Path(settings.BASE_DIR), tmp_path)
    monkeypatch.chdir(tmp_path)
    settings.LOCALE_PATHS = [tmp_path / "locale"]
    call_command("makemessages", locale=["de"], symlinks=True, verbosity=0)
    po = tmp_path / "locale" / "de" / "LC_MESSAGES" / "django.po"
    untranslated = _entries(po, "--untranslated")
    fuzzy = _entries(po, "--only-fuzzy")
    assert not untranslated, "no German text:\n\n" + "\n\n".join(untranslated)
    assert not fuzzy, "only a guessed German text:\n\n" + "\n\n".join(fuzzy)
