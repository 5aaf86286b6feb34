"""Test settings: the same as production but for a throwaway secret, fast
password hashing and a per-run test database name (so that parallel runs on
one embedded server do not drop each other's database). Importing them starts
nothing and writes nothing (the test runner starts the embedded server and
makes the folders, see tests/conftest.py)."""

import os

from config.settings.base import *  # noqa: F403
from config.settings.base import BASE_DIR, DATABASES, SECRET_KEY, STORAGES

SECRET_KEY = SECRET_KEY or "test-secret-key-not-for-production-use"
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
DATABASES["default"]["TEST"] = {
    "NAME": "test_belegt" + os.environ.get("BELEGT_TEST_DB_SUFFIX", "")
}
STORAGES["staticfiles"] = {
    "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
}
MEDIA_ROOT = (
    BASE_DIR / "var" / ("test-media" + os.environ.get("BELEGT_TEST_DB_SUFFIX", ""))
)
# WhiteNoise expects STATIC_ROOT to exist; tests never run collectstatic (the
# test runner creates the folder).
STATIC_ROOT = BASE_DIR / "var" / "test-static"
# Extraction after ingestion is switched on where a test wants it.
BELEGT_AGENT_AUTO_EXTRACT = False
