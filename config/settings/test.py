"""Test settings: the same as production but for a throwaway secret, fast
password hashing and a per-run test database name (so that parallel runs on
one embedded server do not drop each other's database). Importing them starts
nothing and writes nothing (the test runner starts the embedded server and
makes the folders, see tests/conftest.py)."""

import os

from config.db_roles import APP_ROLE, EMBEDDED_SUPERUSER
from config.settings.base import *  # noqa: F403
from config.settings.base import (
    BASE_DIR,
    BELEGT_AUDIT_KEY,
    DATABASES,
    SECRET_KEY,
    STORAGES,
)

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
# No query embedder is loaded at process start (tests/evidence call the
# warm-up themselves).
BELEGT_SEARCH_WARMUP = False
# Extraction after ingestion is switched on where a test wants it.
BELEGT_AGENT_AUTO_EXTRACT = False
# Automatic audit checkpoints are files that outlive a test's rolled-back rows;
# the tests that want them switch them on with their own folder.
BELEGT_AUDIT_CHECKPOINT_EVERY = 0
# The suite connects to the embedded server as its superuser, as before the
# application role: tests switch triggers off to forge rows and pytest-django
# creates the test database. tests/test_db_roles.py checks the two roles
# (SET ROLE, and a scratch database migrated by the owner).
# (The embedded server's application role is what the settings, and a worker
# started by a test that inherits DATABASE_URL, would otherwise use.)
if DATABASES["default"].get("USER") == APP_ROLE:
    DATABASES["default"]["USER"] = EMBEDDED_SUPERUSER
    BELEGT_DATABASE_OWNER = None
# The audit chain's HMAC key of the test run (never a production key).
BELEGT_AUDIT_KEY = BELEGT_AUDIT_KEY or "test-audit-key-not-for-production-use"
