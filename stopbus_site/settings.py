"""Settings for the Stop the Bus card room.

Everything that changes between a laptop and a server comes from the environment
(read with django-environ). With nothing set, the whole site runs in one process on
SQLite, the in-memory channel layer and a local-memory cache. `DATABASE_URL` and
`REDIS_URL` switch to PostgreSQL and Redis, so several daphne processes can share
state. `STOPBUS_ENV=production` turns on the deployment hardening.
"""

from datetime import timedelta
from pathlib import Path

import environ
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()

STOPBUS_ENV = env.str("STOPBUS_ENV", default="development")
if STOPBUS_ENV not in ("development", "production"):
    raise ImproperlyConfigured(
        f"STOPBUS_ENV must be 'development' or 'production', not {STOPBUS_ENV!r}."
    )
PRODUCTION = STOPBUS_ENV == "production"

DEBUG = False if PRODUCTION else env.bool("DEBUG", default=True)

if PRODUCTION:
    # A guessable key lets anyone forge sessions and password-reset links, so there
    # is no fallback here.
    SECRET_KEY = env.str("SECRET_KEY", default="")
    if not SECRET_KEY:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set. With STOPBUS_ENV=production the secret key must come "
            "from the environment, e.g. export SECRET_KEY=\"$(python -c 'import secrets; "
            "print(secrets.token_urlsafe(50))')\" and keep it the same across restarts "
            "and across every process that serves the site."
        )
    ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=[])
    if not ALLOWED_HOSTS:
        raise ImproperlyConfigured(
            "ALLOWED_HOSTS is not set. With STOPBUS_ENV=production list the host names "
            "the site is served under, comma-separated, e.g. ALLOWED_HOSTS=cards.example.com"
        )
else:
    SECRET_KEY = env.str(
        "SECRET_KEY",
        default="django-insecure-development-only-key-never-use-this-one-in-production",
    )
    ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"])

CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])


# Applications

INSTALLED_APPS = [
    # daphne first: its runserver replaces Django's, so one command serves HTTP and
    # websockets in development.
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    # The default app config wraps the template loaders so "page.html#partial" works.
    "template_partials",
    "axes",
    "accounts",
    "games",
    "stats",
    "notify",
]

MIDDLEWARE = [
    # First: a method no page takes is a 405, and a NUL in the path, query or a cookie a
    # 400, before anything queries it.
    "stopbus_site.middleware.RefuseUnknownMethods",
    "stopbus_site.middleware.RefuseUnreadableRequests",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # After auth: a signed-in player's saved language wins over LocaleMiddleware's
    # choice (language cookie, then Accept-Language, then English).
    "accounts.language.UserLanguageMiddleware",
    # A signed-in player who chose a time zone sees clock times in it.
    "accounts.timezones.UserTimeZoneMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # a GET of a button's address (a POST-only view): a page saying so, not a blank 405
    "stopbus_site.middleware.ExplainNotAllowed",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last, so it sees the lockout flag the axes backend sets during authentication.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "stopbus_site.urls"
WSGI_APPLICATION = "stopbus_site.wsgi.application"
ASGI_APPLICATION = "stopbus_site.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        # template_partials replaces this with its own loader chain (which still
        # searches the app directories).
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "notify.views.bell",
            ],
        },
    },
]


# Database

DATABASES = {"default": env.db_url("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}")}

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["OPTIONS"] = {
        # Writers take the lock when the transaction starts instead of upgrading a
        # read lock midway, which is what produces "database is locked" when async
        # consumers and views write at the same time.
        "transaction_mode": "IMMEDIATE",
        # WAL lets readers carry on while one writer writes; busy_timeout makes a
        # second writer wait instead of failing at once.
        "init_command": (
            "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA busy_timeout=5000;"
        ),
    }
elif DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Under ASGI every request may run its sync code in a different thread, so a
    # persistent per-thread connection (CONN_MAX_AGE > 0) leaks one connection per
    # thread, and Django's docs advise against it. A fresh connection per request
    # (CONN_MAX_AGE=0) is safe but costs a TCP+auth round trip every time.
    # psycopg's pool gives us both: a bounded set of connections per process, lent
    # to whichever thread needs one and returned when Django "closes" it. It works
    # with pytest-django's test database (Django closes the pool before creating
    # and dropping it). Keep processes x DATABASE_POOL_MAX_SIZE under PostgreSQL's
    # max_connections.
    DATABASES["default"]["CONN_MAX_AGE"] = 0  # the pool refuses anything else
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": env.int("DATABASE_POOL_MIN_SIZE", default=1),
        "max_size": env.int("DATABASE_POOL_MAX_SIZE", default=10),
        "timeout": env.float("DATABASE_POOL_TIMEOUT", default=10.0),
    }
# Threads each process gives websocket consumers' database work (0: pool size - 2, at
# most 3, see games.consumers.db). Only used with the pool; without one Channels' single
# thread does it all.
STOPBUS_DB_THREADS = env.int("STOPBUS_DB_THREADS", default=0)

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"


# Channel layer and cache

REDIS_URL = env.str("REDIS_URL", default="")

# channels-redis's layer: "core" (RedisChannelLayer, lists per channel, with a change's
# many group sends in one go: stopbus_site.layers) or "pubsub" (RedisPubSubChannelLayer);
# measured against each other in README, Performance
STOPBUS_CHANNEL_LAYER = env.str("STOPBUS_CHANNEL_LAYER", default="core")
if STOPBUS_CHANNEL_LAYER not in ("core", "pubsub"):
    raise ImproperlyConfigured("STOPBUS_CHANNEL_LAYER is core or pubsub")

if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": ("channels_redis.pubsub.RedisPubSubChannelLayer"
                        if STOPBUS_CHANNEL_LAYER == "pubsub"
                        else "stopbus_site.layers.BatchedRedisChannelLayer"),
            # redis-py 8 reads with a 5 s timeout by default, which breaks the layer's
            # blocking receive (every idle consumer would crash every 5 s): no read
            # timeout on the layer's connections; connecting still times out.
            "CONFIG": {"hosts": [{"address": REDIS_URL, "socket_timeout": None,
                                  "socket_connect_timeout": 5}]},
        }
    }
    # django-redis keeps its Redis client and reuses it (Django's own backend builds a
    # client for every call, a fifth of a millisecond each: ten of them a move)
    CACHES = {
        "default": {
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "stopbus",
        }
    }
else:
    # Only reaches consumers in this process: fine for one daphne process.
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}


# Authentication

AUTH_USER_MODEL = "accounts.User"

AUTHENTICATION_BACKENDS = [
    # First, so a locked-out client is refused before its password is checked.
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

# django-axes: five wrong passwords for one username from one address lock that
# pair out for 15 minutes (templates/accounts/lockout.html says so); a successful
# log-in clears the count.
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "accounts/lockout.html"
AXES_HTTP_RESPONSE_CODE = 429
# The address a failed log-in counts against. X-Forwarded-For is only read when the
# request comes from one of these proxies (addresses or networks, comma-separated),
# and then from the right, so a client cannot pick its own address; with none set
# the header is ignored (see accounts/client_address.py).
STOPBUS_TRUSTED_PROXIES = env.list("STOPBUS_TRUSTED_PROXIES", default=[])
AXES_CLIENT_IP_CALLABLE = "accounts.client_address.client_ip"


# Email

# e.g. EMAIL_URL=smtp+tls://user:password@smtp.example.com:587
vars().update(env.email_url("EMAIL_URL", default="consolemail://"))
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="Stop the Bus <noreply@localhost>")
SERVER_EMAIL = env.str("SERVER_EMAIL", default=DEFAULT_FROM_EMAIL)


# Internationalisation

LANGUAGE_CODE = "en-gb"
# A third language is one more line here and a locale/<code>/LC_MESSAGES/django.po.
LANGUAGES = [("en-gb", "English"), ("ja", "日本語")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True


# Static files

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        # Hashed, compressed files need `collectstatic`; development and tests serve
        # files straight from the apps and static/ instead (whitenoise's finders).
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if PRODUCTION
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        ),
    },
}
WHITENOISE_USE_FINDERS = not PRODUCTION
# Look files up per request outside production, so edits show at once and no
# staticfiles/ directory is expected to exist.
WHITENOISE_AUTOREFRESH = not PRODUCTION


# Security

if PRODUCTION:
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=60 * 60 * 24 * 365)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
    SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=True)
    SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
    if env.bool("SECURE_PROXY_SSL_HEADER", default=False):
        # Only safe when the proxy in front always sets (or strips) this header.
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    if not SECURE_SSL_REDIRECT:
        # With SECURE_SSL_REDIRECT=false the TLS-terminating proxy redirects plain
        # HTTP to HTTPS itself, so Django's own redirect check does not apply.
        SILENCED_SYSTEM_CHECKS = ["security.W008"]


# Content-Security-Policy (django-csp): scripts, styles and everything else from this
# site only. No 'unsafe-inline' and no 'unsafe-eval': templates carry no inline
# <script>, on* attribute or hx-on (their behaviour lives in static/js), and htmx's
# own injected indicator <style> is switched off (base.html's htmx-config meta).
# 'self' covers the same-origin ws:/wss: websocket in CSP Level 3 browsers.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF],
        "connect-src": [SELF],
        "font-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}


# Notifications. Web push needs a VAPID key pair (`python manage.py make_vapid_keys`);
# without one the push option is hidden. NOTIFY_SITE_URL is how mails link to the site.
VAPID_PUBLIC_KEY = env.str("VAPID_PUBLIC_KEY", default="")
VAPID_PRIVATE_KEY = env.str("VAPID_PRIVATE_KEY", default="")
VAPID_SUBJECT = env.str("VAPID_SUBJECT", default="mailto:noreply@localhost")
NOTIFY_SITE_URL = env.str("NOTIFY_SITE_URL", default="http://localhost:8000")
# seconds a "your turn" push waits (the player may be looking); the push service's timeout
NOTIFY_TURN_DELAY = env.float("NOTIFY_TURN_DELAY", default=2.0)
NOTIFY_PUSH_TIMEOUT = env.float("NOTIFY_PUSH_TIMEOUT", default=5.0)
# a process's claim on a delivery: after this, another process sends what it left
NOTIFY_LEASE_SECONDS = env.float("NOTIFY_LEASE_SECONDS", default=60.0)
NOTIFY_POLL = env.float("NOTIFY_POLL", default=1.0)
# push endpoints are https; hosts listed here may be plain http (a local fake in tests)
NOTIFY_PLAIN_HTTP_PUSH_HOSTS = env.list("NOTIFY_PLAIN_HTTP_PUSH_HOSTS", default=[])
# pushes go only to these hosts (the browsers' push services; "*.x" is any host under x):
# a subscription's endpoint elsewhere is refused, so it cannot point the server at the
# internal network (notify.endpoints)
STOPBUS_PUSH_HOSTS = env.list("STOPBUS_PUSH_HOSTS", default=[
    "fcm.googleapis.com", "updates.push.services.mozilla.com", "*.push.apple.com",
    "*.notify.windows.com"])
# account mails (sign-up, address change, password reset) an hour: to one address; asked
# for from one client address (sign-ups and resets); address changes of one account
STOPBUS_MAILS_TO_AN_ADDRESS = env.int("STOPBUS_MAILS_TO_AN_ADDRESS", default=3)
STOPBUS_MAIL_REQUESTS_FROM_AN_IP = env.int("STOPBUS_MAIL_REQUESTS_FROM_AN_IP", default=10)
STOPBUS_EMAIL_CHANGES_A_USER = env.int("STOPBUS_EMAIL_CHANGES_A_USER", default=5)


# The card room

# Pauses that make bots and showdowns readable for people; tests set them to 0.
STOPBUS_BOT_DELAY = env.float("STOPBUS_BOT_DELAY", default=0.9)
STOPBUS_SHOWDOWN_PAUSE = env.float("STOPBUS_SHOWDOWN_PAUSE", default=8.0)
# Post tables (games.pace): their deadlines, last calls and days away are multiplied by
# this (a benchmark runs a day a move in 86.4 s with 0.001); how many post tables a player
# may sit at: 20 (+1 per finished post game, up to 100), 5 for an account under a day old.
STOPBUS_POST_TIME_SCALE = env.float("STOPBUS_POST_TIME_SCALE", default=1.0)
STOPBUS_POST_TABLES = env.int("STOPBUS_POST_TABLES", default=20)
STOPBUS_POST_TABLES_MOST = env.int("STOPBUS_POST_TABLES_MOST", default=100)
STOPBUS_POST_TABLES_NEW_ACCOUNT = env.int("STOPBUS_POST_TABLES_NEW_ACCOUNT", default=5)
# Live tables a player may sit at at once (waiting or playing; 0: no limit): each one
# walked away from is a game its bots play out on the server.
STOPBUS_LIVE_TABLES = env.int("STOPBUS_LIVE_TABLES", default=5)
# Tables a player may open in an hour (the form and *Play now*; 0: no limit): opening and
# leaving over and over is refused in words past it.
STOPBUS_TABLES_PER_HOUR = env.int("STOPBUS_TABLES_PER_HOUR", default=30)
# Every server process runs the clock (bot moves, turn deadlines, next deals) unless
# this is off, e.g. when `manage.py run_clock` runs it as a process of its own.
STOPBUS_CLOCK_AUTOSTART = env.bool("STOPBUS_CLOCK_AUTOSTART", default=True)
STOPBUS_CLOCK_POLL = env.float("STOPBUS_CLOCK_POLL", default=0.25)
# Per websocket: frames a second and the burst allowed; per user: chat messages a minute.
STOPBUS_WS_RATE = env.float("STOPBUS_WS_RATE", default=8.0)
STOPBUS_WS_BURST = env.int("STOPBUS_WS_BURST", default=16)
STOPBUS_CHAT_PER_MINUTE = env.int("STOPBUS_CHAT_PER_MINUTE", default=12)
# Open websockets per signed-in user and per address for signed-out lobby viewers; full
# boards (connecting, "sync") a minute per user.
STOPBUS_SOCKETS_PER_USER = env.int("STOPBUS_SOCKETS_PER_USER", default=12)
STOPBUS_LOBBY_SOCKETS_PER_ADDRESS = env.int("STOPBUS_LOBBY_SOCKETS_PER_ADDRESS", default=8)
STOPBUS_BOARDS_PER_MINUTE = env.int("STOPBUS_BOARDS_PER_MINUTE", default=120)
# Bounded work (games/ratelimit.py): player actions a process and a table take at once,
# and how late (seconds) a process's pages may lately be updated, with how many still to
# update, before it refuses new moves until they catch up (0 seconds: never).
STOPBUS_MAX_PENDING = env.int("STOPBUS_MAX_PENDING", default=64)
STOPBUS_TABLE_PENDING = env.int("STOPBUS_TABLE_PENDING", default=4)
STOPBUS_BUSY_LATE = env.float("STOPBUS_BUSY_LATE", default=0.25)
STOPBUS_BUSY_PAGES = env.int("STOPBUS_BUSY_PAGES", default=4)
# A table with no person connected for this long is played out by bots or closed.
STOPBUS_ABANDON_AFTER = env.float("STOPBUS_ABANDON_AFTER", default=300.0)
# Guests (accounts/guests.py): may they chat, how many an address may start an hour, and
# after how many idle days `manage.py clean_guests` removes them.
STOPBUS_GUEST_CHAT = env.bool("STOPBUS_GUEST_CHAT", default=False)
STOPBUS_GUESTS_PER_HOUR = env.int("STOPBUS_GUESTS_PER_HOUR", default=10)
# failed log-ins from one address in 15 minutes before log-ins from it pause (accounts.views)
STOPBUS_LOGIN_FAILURES_PER_ADDRESS = env.int("STOPBUS_LOGIN_FAILURES_PER_ADDRESS", default=20)
STOPBUS_GUEST_DAYS = env.int("STOPBUS_GUEST_DAYS", default=30)
STOPBUS_GUEST_SWEEP = env.int("STOPBUS_GUEST_SWEEP", default=3600)
# The ASGI servers' garbage collector: what they loaded frozen, thresholds raised
# (stopbus_site/memory.py); off gives Python's defaults. STOPBUS_GC_THRESHOLDS="700,10,10"
# sets other thresholds (gc.set_threshold's one to three numbers) to measure them.
STOPBUS_GC_TUNING = env.bool("STOPBUS_GC_TUNING", default=True)
STOPBUS_GC_THRESHOLDS = tuple(env.list("STOPBUS_GC_THRESHOLDS", cast=int,
                                       default=[10_000, 20, 20]))
if not 1 <= len(STOPBUS_GC_THRESHOLDS) <= 3 or min(STOPBUS_GC_THRESHOLDS) < 0:
    raise ImproperlyConfigured("STOPBUS_GC_THRESHOLDS: one to three numbers, none negative")


# Logging

LOG_LEVEL = env.str("LOG_LEVEL", default="WARNING").upper()
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "{asctime} {levelname} {name}: {message}", "style": "{"},
    },
    "filters": {"one_line": {"()": "stopbus_site.middleware.OneLine"}},
    "handlers": {
        # The level on the handler too: runserver's request log propagates INFO
        # records up to the root logger, and it already prints them itself.
        "console": {"class": "logging.StreamHandler", "formatter": "plain", "level": LOG_LEVEL},
        "security": {"class": "logging.StreamHandler", "formatter": "plain",
                     "level": "WARNING", "filters": ["one_line"]},
    },
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {
        # Axes logs every failed attempt at INFO; warnings still come through.
        "axes": {"level": "WARNING"},
        # a bad Host header or a form too big: one line each, no traceback (a client's
        # mistake, answered 400)
        "django.security": {"handlers": ["security"], "propagate": False},
    },
}
