"""Settings for Huckley, read from the environment with embedded defaults.

With nothing set, the app runs on SQLite with a local-memory cache and Celery tasks
executed eagerly. DATABASE_URL switches to PostgreSQL (psycopg 3), REDIS_URL to a Redis
cache and a real Celery broker. HUCKLEY_PRODUCTION=1 turns on the deployment settings
and then requires SECRET_KEY and ALLOWED_HOSTS. HUCKLEY_VENUE=1 is a club night on one
laptop (`make venue`, docs/operations.md): plain HTTP on the local network, DEBUG off, a
secret key generated once into var/secret_key, static files through WhiteNoise.
"""

from __future__ import annotations

import os
import re
import secrets
from datetime import timedelta
from pathlib import Path

import dj_database_url
import django_stubs_ext
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

# Lets the classes that django-stubs types as generic be written so at run time too
# (`admin.ModelAdmin[Club]`); it only adds `__class_getitem__` where Django has none.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent


def envbool(name: str, default: str) -> bool:
    value = os.getenv(name, default).strip().lower()
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off", ""}:
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, not {value!r}")


def envint(name: str, default: str) -> int:
    value = os.getenv(name, default)
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, not {value!r}") from None


def envlist(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.getenv(name, default).split(",") if item.strip()]


def venue_secret_key(path: Path) -> str:
    """The venue's key: made once, kept in a file only its owner reads, reused after."""
    if path.is_file():
        key = path.read_text().strip()
        if key:
            return key
    path.parent.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(50)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as handle:
        handle.write(key)
    return key


PRODUCTION = envbool("HUCKLEY_PRODUCTION", "false")
VENUE = envbool("HUCKLEY_VENUE", "false")
if PRODUCTION and VENUE:
    raise ImproperlyConfigured("HUCKLEY_PRODUCTION and HUCKLEY_VENUE cannot both be on")
DEBUG = envbool("DEBUG", "false" if PRODUCTION or VENUE else "true")
VAR_DIR = Path(os.getenv("HUCKLEY_VAR_DIR", str(BASE_DIR / "var")))

# Venue backups (`common.backups`, docs/operations.md): a copy of the database after
# every session start, movement and finish, and every HUCKLEY_BACKUP_INTERVAL seconds
# while the venue runs, the last HUCKLEY_BACKUP_KEEP of them kept. On in venue mode only.
HUCKLEY_BACKUPS = envbool("HUCKLEY_BACKUPS", "true" if VENUE else "false")
HUCKLEY_BACKUP_DIR = Path(os.getenv("HUCKLEY_BACKUP_DIR", str(VAR_DIR / "backups")))
HUCKLEY_BACKUP_KEEP = envint("HUCKLEY_BACKUP_KEEP", "12")
HUCKLEY_BACKUP_INTERVAL = envint("HUCKLEY_BACKUP_INTERVAL", "300")
if HUCKLEY_BACKUP_KEEP < 1 or HUCKLEY_BACKUP_INTERVAL < 1:
    raise ImproperlyConfigured("HUCKLEY_BACKUP_KEEP and HUCKLEY_BACKUP_INTERVAL must be at least 1")

if PRODUCTION and not os.getenv("SECRET_KEY"):
    raise ImproperlyConfigured("SECRET_KEY must be set when HUCKLEY_PRODUCTION is on")
if VENUE and not os.getenv("SECRET_KEY"):
    SECRET_KEY = venue_secret_key(VAR_DIR / "secret_key")
else:
    # The embedded key is only for a local, non-production run.
    SECRET_KEY = os.getenv("SECRET_KEY", "django-insecure-local-development-key-not-for-production")

# A venue's phones reach the laptop by whatever address the hall's router gave it, so the
# host is not known in advance; the venue serves one local network and nothing else.
ALLOWED_HOSTS = envlist(
    "ALLOWED_HOSTS",
    "" if PRODUCTION else ("*" if VENUE else "127.0.0.1,localhost,testserver"),
)
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "axes",
    "csp",
    "tournaments",
    "scoring",
    "ratings",
    "play",
    "workflow",
    "exchange",
    "api",
    "web",
]

MIDDLEWARE = [
    # First, so that everything after it sees the real client address.
    "huckley.proxies.TrustedProxyMiddleware",
    # Next, so that a request whose database connection was lost midway runs again
    # through everything after it (common/retry.py says when that is safe).
    "common.retry.LostConnectionRetryMiddleware",
    # Then the public's stored pages, before the costly middleware below: the same bytes
    # and headers as the full path (tournaments/pagecache.py). After the retry, whose
    # rerun covers the generation's read from the database on a laptop.
    "serving.pages.StoredPageMiddleware",
    # Compresses what the rest renders per request (the stored pages above come
    # compressed already); before anything below that reads or writes the body.
    "serving.compress.GZipMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # The request's language, once the session and the user are known: a person's own
    # choice, else the club's (taken where a page reads its club), else Accept-Language
    # (common/languages.py).
    "huckley.languages.LanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "huckley.middleware.UserErrorMiddleware",
    "huckley.middleware.TimeZoneResetMiddleware",
    # Last, as django-axes asks: it turns a locked-out sign-in into a 429 page.
    "axes.middleware.AxesMiddleware",
]

# Sign-in attempts are limited (django-axes): after AXES_FAILURE_LIMIT failures for one
# username from one address, that pair is locked out for AXES_COOLOFF_MINUTES.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = envint("AXES_FAILURE_LIMIT", "5")
AXES_COOLOFF_TIME = timedelta(minutes=envint("AXES_COOLOFF_MINUTES", "15"))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "locked_out.html"
AXES_VERBOSE = False
# The client address that sign-in locks and the API's rate limits count by: REMOTE_ADDR,
# which `huckley.proxies.TrustedProxyMiddleware` takes from X-Forwarded-For only when the
# request came through one of HUCKLEY_TRUSTED_PROXIES (a header from anyone else is a
# client's free choice, and trusting it lets every attempt look like a new address).
HUCKLEY_TRUSTED_PROXIES = envlist("HUCKLEY_TRUSTED_PROXIES", "")
AXES_CLIENT_IP_CALLABLE = "huckley.proxies.client_ip"

# A content security policy: everything from this site, no inline script or style.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

ROOT_URLCONF = "huckley.urls"
WSGI_APPLICATION = "huckley.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# Set by huckley/asgi.py before Django starts: this process is the ASGI server.
ASGI = envbool("HUCKLEY_ASGI", "false")
# Each ASGI process runs online play's scheduler (play.scheduler), unless this is false.
HUCKLEY_SCHEDULER = envbool("HUCKLEY_SCHEDULER", "true")
DATABASE_URL = os.getenv("DATABASE_URL", "")
if DATABASE_URL:
    DATABASES = {
        # A kept connection is checked before reuse: one PostgreSQL dropped is reopened.
        "default": dj_database_url.parse(
            DATABASE_URL,
            # Under ASGI each request runs in a thread of its own, whose kept connections
            # would pile up until PostgreSQL refused more: none kept, but the node's few
            # threads keep theirs (play/node.py, docs/operations.md, "Connections").
            conn_max_age=0 if ASGI else envint("CONN_MAX_AGE", "60"),
            conn_health_checks=not ASGI,
        )
    }
    # Statements prepared once a connection has run them five times: about half of
    # PostgreSQL's CPU at a round's end (docs/operations.md, "Connections").
    options = DATABASES["default"].setdefault("OPTIONS", {})  # with the URL's own
    options.update(server_side_binding=True, prepare_threshold=5)
else:
    # WAL lets phones read while a scorer writes; IMMEDIATE takes the write lock at the
    # start of a transaction, so two writers queue on the busy timeout instead of failing
    # with "database is locked" when a reader tries to upgrade.
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": os.getenv("SQLITE_PATH", str(BASE_DIR / "db.sqlite3")),
            "OPTIONS": {
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
                "transaction_mode": "IMMEDIATE",
                "timeout": envint("SQLITE_TIMEOUT", "20"),
            },
            # The test database is a file too (not Django's shared in-memory database),
            # so the browser tests' live server and the test write through separate
            # connections with WAL and the busy timeout, as a venue's processes do.
            "TEST": {"NAME": os.getenv("SQLITE_TEST_PATH", str(BASE_DIR / "var" / "test.sqlite3"))},
        }
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = os.getenv("REDIS_URL", "")
# Seconds to wait for Redis before giving up on it: the cache and the broker are helpers,
# never a reason for a page to hang (docs/operations.md, Faults).
REDIS_TIMEOUT = float(os.getenv("REDIS_TIMEOUT", "0.5"))
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": os.getenv("CACHE_KEY_PREFIX", "huckley"),
            "OPTIONS": {
                # Redis down is a cache miss (logged), not an error: every page is built
                # from the database anyway.
                "IGNORE_EXCEPTIONS": True,
                "SOCKET_CONNECT_TIMEOUT": REDIS_TIMEOUT,
                "SOCKET_TIMEOUT": REDIS_TIMEOUT,
            },
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
DJANGO_REDIS_IGNORE_EXCEPTIONS = True
# Online play's real time (docs/api.md, "WebSocket"): the channel layer that carries a
# change of seats to the phones it concerns. Redis when REDIS_URL is set, so every process
# and node hears every change; otherwise the in-memory layer of the one embedded process.
# A node's one channel carries all its sockets' seat pushes (play/seat_push.py), which a
# movement sends at once: it holds that many waiting, not the default 100 (then dropped).
HUCKLEY_CHANNEL_CAPACITY = 20_000
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {
                # redis-py 8 reads with a 5 s socket timeout by default, the same as the
                # layer's blocking pop (BZPOPMIN, 5 s): every idle receive timed out and
                # closed the socket. A longer read timeout still notices a dead Redis.
                # redis-py 8 also caps a pool at 100 connections in use, and a room of
                # phones leaving at once (each socket's group left) went past it: 500.
                "hosts": [{"address": REDIS_URL, "socket_timeout": 15, "max_connections": 500}],
                "prefix": os.getenv("CACHE_KEY_PREFIX", "huckley"),
                "capacity": HUCKLEY_CHANNEL_CAPACITY,
            },
        }
    }
else:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels.layers.InMemoryChannelLayer",
            "CONFIG": {"capacity": HUCKLEY_CHANNEL_CAPACITY},
        }
    }
# Whether every web process sees the same cache (Redis). Then a session's generation, the
# key of its stored public pages, lives in the cache; with a per-process memory cache it
# is read from the session's row instead (tournaments/pagecache.py).
HUCKLEY_SHARED_CACHE = envbool("HUCKLEY_SHARED_CACHE", "true" if REDIS_URL else "false")
DJANGO_REDIS_LOG_IGNORED_EXCEPTIONS = True
# Its logger, filtered in LOGGING below: a Redis outage is one line a minute, not a
# traceback for every cache call of every request.
DJANGO_REDIS_LOGGER = "huckley.redis"

CELERY_BROKER_URL = REDIS_URL or "memory://"
# Nothing reads a task's result: storing none spares every queued task a round trip to a
# result backend that retries for seconds when Redis is down.
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
# Queuing a task gives up fast when the broker is unreachable; `common.tasks.enqueue`
# then does the work in the request instead, so it is never lost.
CELERY_TASK_PUBLISH_RETRY = False
CELERY_BROKER_CONNECTION_TIMEOUT = REDIS_TIMEOUT
# A worker that dies mid-task (acks late) leaves the task unacknowledged in Redis; Redis
# hands it out again once it is older than the visibility timeout (Celery's default is an
# hour). The tasks are short and idempotent, so a short timeout is safe: a task still
# running after it may run twice, to the same effect. Workers look for such tasks every
# `unacked_restore_interval` seconds, but kombu scans only on every
# `unacked_restore_throttle`-th look (by default every 10th of one every 10 s: a killed
# task waited 100 s beyond its timeout); one scan every 5 s is a cheap Redis query.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": envint("CELERY_VISIBILITY_TIMEOUT", "30"),
    "unacked_restore_interval": 5,
    "unacked_restore_throttle": 1,
    "socket_timeout": REDIS_TIMEOUT,
    "socket_connect_timeout": REDIS_TIMEOUT,
}
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = True
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
# A pool process killed mid-task (the OOM killer picks the biggest process) puts its task
# back at once instead of acknowledging it as failed: the tasks are safe to run twice.
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_TASK_DEFAULT_QUEUE = os.getenv("CELERY_QUEUE", "huckley")
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Email: only the password reset sends any. Printed on the console unless EMAIL_HOST is
# set; then sent by SMTP with the EMAIL_* settings (docs/operations.md, Email).
EMAIL_HOST = os.getenv("EMAIL_HOST", "")
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_PORT = envint("EMAIL_PORT", "587")
    EMAIL_HOST_USER = os.getenv("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.getenv("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = envbool("EMAIL_USE_TLS", "true")
    # A mail server that does not answer fails the reset page after this many seconds
    # instead of holding a worker for good.
    EMAIL_TIMEOUT = envint("EMAIL_TIMEOUT", "10")
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
DEFAULT_FROM_EMAIL = os.getenv("DEFAULT_FROM_EMAIL", "huckley@localhost")
# Sign-ups from one address in an hour (web/views/accounts.py); 0 closes sign-up.
HUCKLEY_SIGNUPS_PER_HOUR = envint("HUCKLEY_SIGNUPS_PER_HOUR", "5")
# Sign-ups for a night (workflow.front.registrations) from one address in an hour, by
# someone who does not direct the club: the page and the API (docs/api.md, Registrations).
HUCKLEY_REGISTRATIONS_PER_HOUR = envint("HUCKLEY_REGISTRATIONS_PER_HOUR", "30")
# Password reset emails asked for from one address in an hour.
HUCKLEY_RESETS_PER_HOUR = envint("HUCKLEY_RESETS_PER_HOUR", "5")

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "tournaments:home"
LOGOUT_REDIRECT_URL = "tournaments:home"

LANGUAGE_CODE = "en-us"
# The shipped languages, each named in itself (docs/tournament.md, "Languages"): a club
# chooses one, a person may choose their own. Their dates and numbers come from Django's
# format modules, with the dates as each locale writes them (huckley/formats/: 26/11/2026
# for en-ie). To add one: see docs/tournament.md.
LANGUAGES = [
    ("en-us", "English (US)"),
    ("en-gb", "English (UK)"),
    ("en-ie", "English (Ireland)"),
    ("es", "Español"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
# A visitor's own choice (Django's set_language, the picker at the foot of each page) is
# kept a year.
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
FORMAT_MODULE_PATH = ["huckley.formats"]
TIME_ZONE = os.getenv("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
if PRODUCTION or VENUE:
    # Served by whitenoise from `collectstatic`'s output, with hashed, compressed names;
    # locally `runserver` serves them.
    MIDDLEWARE.insert(1, "whitenoise.middleware.WhiteNoiseMiddleware")
    STORAGES = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    }
STATICFILES_DIRS = [BASE_DIR / "static"] if (BASE_DIR / "static").is_dir() else []

# The public API (`api/`, docs/api.md): JSON only, one exception handler, one permission
# class that asks `tournaments.permissions`. Token auth comes first so that a missing
# login is a 401 with `WWW-Authenticate: Token`.
REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # First: a dead scorer-link header is a 401 even beside valid credentials.
        "api.authentication.ScorerHeaderCheck",
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
        "api.authentication.ScorerLinkAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["api.permissions.ActorPermission"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["api.parsers.LimitedJSONParser"],
    "EXCEPTION_HANDLER": "api.errors.exception_handler",
    # Rate limits count by REMOTE_ADDR, which TrustedProxyMiddleware has already resolved;
    # DRF's own default (None) would take X-Forwarded-For from anyone.
    "NUM_PROXIES": 0,
    "DEFAULT_THROTTLE_RATES": {"token": os.getenv("API_TOKEN_RATE", "20/minute")},
}
# What an anonymous caller may print or export: PDFs and exports together, per client
# address (api/throttles.py; docs/api.md, Printing).
API_ANON_SHEET_RATE = os.getenv("API_ANON_SHEET_RATE", "20/minute")
if not re.fullmatch(r"[1-9][0-9]*/(second|minute|hour|day)", API_ANON_SHEET_RATE):
    raise ImproperlyConfigured(
        f"API_ANON_SHEET_RATE must be a number of requests per second, minute, hour or day "
        f"(20/minute), not {API_ANON_SHEET_RATE!r}"
    )
# Idempotency keys are kept this long; `manage.py api_idempotency_cleanup` drops older ones.
API_IDEMPOTENCY_HOURS = envint("API_IDEMPOTENCY_HOURS", "24")
SPECTACULAR_SETTINGS = {
    "TITLE": "Huckley API",
    "DESCRIPTION": "Tournament manager for Huckley Buck and related games. "
    "Authentication, errors, idempotency and double entry: docs/api.md.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    # The schemes a client authenticates with; `ScorerHeaderCheck` only checks the
    # scorer link's header early, which `ScorerLinkAuthentication` documents.
    "AUTHENTICATION_WHITELIST": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
        "api.authentication.ScorerLinkAuthentication",
    ],
    # Swagger UI from the installed sidecar package: no CDN, no inline script.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "ENUM_NAME_OVERRIDES": {
        "SessionStatusEnum": "tournaments.models.Session.Status",
        "GameStatusEnum": "scoring.models.Game.Status",
        "RegistrationStatusEnum": "tournaments.models.Registration.Status",
    },
}

SESSION_COOKIE_HTTPONLY = True
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
if PRODUCTION:
    SECURE_SSL_REDIRECT = envbool("SECURE_SSL_REDIRECT", "true")
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = envint("SECURE_HSTS_SECONDS", "31536000")
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True

# Error lines mean something went wrong for someone (docs/operations.md, Faults): an
# attempt the lost-connection retry runs again is not an "Internal Server Error" (the retry
# logs its outcome, one line), and a Redis outage is one line a minute.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "retried_connection": {"()": "common.retry.RetriedConnectionFilter"},
        "redis_outage": {
            "()": "common.logfilters.OncePerInterval",
            "seconds": 60,
            "what": "Redis cache unreachable: cache misses, pages built from the database",
        },
    },
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "loggers": {
        "django.request": {"filters": ["retried_connection"]},
        DJANGO_REDIS_LOGGER: {"filters": ["redis_outage"]},
    },
    "root": {"handlers": ["console"], "level": os.getenv("LOG_LEVEL", "INFO")},
}
