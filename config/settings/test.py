"""Test settings: the same as production but for a throwaway secret, fast
password hashing and a per-run test database name (so that parallel runs on
one embedded server do not drop each other's database)."""

import os

os.environ.setdefault("DJANGO_SECRET_KEY", "test-secret-key-not-for-production-use")
os.environ.setdefault("BELEGT_AUDIT_KEY", "test-audit-key-not-for-production-use")

from config.settings.base import *  # noqa: E402,F403
from config.settings.base import BASE_DIR, DATABASES, STORAGES  # noqa: E402

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
# WhiteNoise expects STATIC_ROOT to exist; tests never run collectstatic.
STATIC_ROOT = BASE_DIR / "var" / "test-static"
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
# Extraction after ingestion is switched on where a test wants it.
BELEGT_AGENT_AUTO_EXTRACT = False
# Automatic audit checkpoints are files that outlive a test's rolled-back rows;
# the tests that want them switch them on with their own folder.
BELEGT_AUDIT_CHECKPOINT_EVERY = 0
# The suite connects to the embedded server as its superuser, as before the
# application role: tests switch triggers off to forge rows and pytest-django
# creates the test database. tests/test_db_roles.py checks the two roles
# (SET ROLE, and a scratch database migrated by the owner).
if not os.environ.get("DATABASE_URL"):
    from config.db_roles import EMBEDDED_SUPERUSER

    DATABASES["default"]["USER"] = EMBEDDED_SUPERUSER
    BELEGT_DATABASE_OWNER = None
