"""The environment picks the database, channel layer, cache, email and hardening.

Settings are read once per process, so each case runs Python in a subprocess with
exactly the environment under test.
"""

import json
import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

PROJECT_DIR = Path(__file__).resolve().parent.parent

# Everything settings.py reads, so the developer's or CI's own values never leak in.
SETTINGS_ENV_VARS = {
    "DJANGO_SETTINGS_MODULE",
    "STOPBUS_ENV",
    "DEBUG",
    "SECRET_KEY",
    "ALLOWED_HOSTS",
    "CSRF_TRUSTED_ORIGINS",
    "DATABASE_URL",
    "DATABASE_POOL_MIN_SIZE",
    "DATABASE_POOL_MAX_SIZE",
    "DATABASE_POOL_TIMEOUT",
    "REDIS_URL",
    "EMAIL_URL",
    "DEFAULT_FROM_EMAIL",
    "SERVER_EMAIL",
    "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SECURE_HSTS_PRELOAD",
    "SECURE_SSL_REDIRECT",
    "SECURE_PROXY_SSL_HEADER",
    "LOG_LEVEL",
}

DUMP_SETTINGS = """
import json
from django.conf import settings
db = settings.DATABASES["default"]
print(json.dumps({
    "DEBUG": settings.DEBUG,
    "ENGINE": db["ENGINE"],
    "NAME": str(db["NAME"]),
    "HOST": db.get("HOST"),
    "CONN_MAX_AGE": db.get("CONN_MAX_AGE"),
    "OPTIONS": db.get("OPTIONS", {}),
    "CHANNEL_LAYERS": settings.CHANNEL_LAYERS,
    "CACHES": settings.CACHES,
    "EMAIL_BACKEND": settings.EMAIL_BACKEND,
    "EMAIL_HOST": getattr(settings, "EMAIL_HOST", None),
    "EMAIL_PORT": getattr(settings, "EMAIL_PORT", None),
    "EMAIL_HOST_USER": getattr(settings, "EMAIL_HOST_USER", None),
    "EMAIL_USE_TLS": getattr(settings, "EMAIL_USE_TLS", None),
    "DEFAULT_FROM_EMAIL": settings.DEFAULT_FROM_EMAIL,
    "STATICFILES_BACKEND": settings.STORAGES["staticfiles"]["BACKEND"],
    "SESSION_COOKIE_SECURE": settings.SESSION_COOKIE_SECURE,
    "CSRF_COOKIE_SECURE": settings.CSRF_COOKIE_SECURE,
    "SECURE_SSL_REDIRECT": settings.SECURE_SSL_REDIRECT,
    "SECURE_HSTS_SECONDS": settings.SECURE_HSTS_SECONDS,
    "SECURE_PROXY_SSL_HEADER": settings.SECURE_PROXY_SSL_HEADER,
    "ALLOWED_HOSTS": settings.ALLOWED_HOSTS,
    "CSRF_TRUSTED_ORIGINS": settings.CSRF_TRUSTED_ORIGINS,
}))
"""

PRODUCTION = {
    "STOPBUS_ENV": "production",
    "SECRET_KEY": secrets.token_urlsafe(50),
    "ALLOWED_HOSTS": "example.com",
}


def run_python(args, **env_vars):
    env = {key: value for key, value in os.environ.items() if key not in SETTINGS_ENV_VARS}
    env["DJANGO_SETTINGS_MODULE"] = "stopbus_site.settings"
    env.update(env_vars)
    return subprocess.run(
        [sys.executable, *args],
        cwd=PROJECT_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def settings_with(**env_vars):
    result = run_python(["-c", DUMP_SETTINGS], **env_vars)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_nothing_set_means_one_process_on_sqlite():
    settings = settings_with()

    assert settings["DEBUG"] is True
    assert settings["ENGINE"] == "django.db.backends.sqlite3"
    assert settings["NAME"] == str(PROJECT_DIR / "db.sqlite3")
    assert settings["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    init_command = settings["OPTIONS"]["init_command"]
    assert "PRAGMA journal_mode=WAL" in init_command
    assert "PRAGMA synchronous=NORMAL" in init_command
    assert "PRAGMA busy_timeout=5000" in init_command
    assert settings["CHANNEL_LAYERS"]["default"]["BACKEND"] == (
        "channels.layers.InMemoryChannelLayer"
    )
    assert settings["CACHES"]["default"]["BACKEND"] == (
        "django.core.cache.backends.locmem.LocMemCache"
    )
    assert settings["EMAIL_BACKEND"] == "django.core.mail.backends.console.EmailBackend"
    assert settings["STATICFILES_BACKEND"] == (
        "django.contrib.staticfiles.storage.StaticFilesStorage"
    )


def test_sqlite_init_command_takes_effect(tmp_path):
    script = """
from django.conf import settings
settings.DATABASES["default"]["NAME"] = r"%s"
import django
django.setup()
from django.db import connection
with connection.cursor() as cursor:
    values = []
    for pragma in ("journal_mode", "synchronous", "busy_timeout"):
        cursor.execute("PRAGMA " + pragma)
        values.append(str(cursor.fetchone()[0]))
print(" ".join(values))
""" % (tmp_path / "check.sqlite3")
    result = run_python(["-c", script])
    assert result.returncode == 0, result.stderr
    # synchronous=NORMAL reads back as 1.
    assert result.stdout.split() == ["wal", "1", "5000"]


def test_database_url_selects_postgresql_with_a_pool():
    settings = settings_with(DATABASE_URL="postgres://cards:secret@db.internal:5432/stopbus")

    assert settings["ENGINE"] == "django.db.backends.postgresql"
    assert settings["NAME"] == "stopbus"
    assert settings["HOST"] == "db.internal"
    assert settings["CONN_MAX_AGE"] == 0
    assert settings["OPTIONS"]["pool"]["max_size"] == 10


def test_sqlite_database_url_keeps_the_sqlite_options(tmp_path):
    settings = settings_with(DATABASE_URL=f"sqlite:///{tmp_path / 'other.sqlite3'}")

    assert settings["ENGINE"] == "django.db.backends.sqlite3"
    assert settings["NAME"] == str(tmp_path / "other.sqlite3")
    assert settings["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    assert "pool" not in settings["OPTIONS"]


def test_redis_url_selects_redis_channel_layer_and_cache():
    url = "redis://cache.internal:6380/2"
    settings = settings_with(REDIS_URL=url)

    layer = settings["CHANNEL_LAYERS"]["default"]
    assert layer["BACKEND"] == "stopbus_site.layers.BatchedRedisChannelLayer"
    assert layer["CONFIG"]["hosts"] == [
        {"address": url, "socket_timeout": None, "socket_connect_timeout": 5}]
    cache = settings["CACHES"]["default"]
    assert cache["BACKEND"] == "django_redis.cache.RedisCache"
    assert cache["LOCATION"] == url


def test_email_url_selects_smtp():
    settings = settings_with(
        EMAIL_URL="smtp+tls://mailer:pa55@smtp.example.com:587",
        DEFAULT_FROM_EMAIL="Stop the Bus <cards@example.com>",
    )

    assert settings["EMAIL_BACKEND"] == "django.core.mail.backends.smtp.EmailBackend"
    assert settings["EMAIL_HOST"] == "smtp.example.com"
    assert settings["EMAIL_PORT"] == 587
    assert settings["EMAIL_HOST_USER"] == "mailer"
    assert settings["EMAIL_USE_TLS"] is True
    assert settings["DEFAULT_FROM_EMAIL"] == "Stop the Bus <cards@example.com>"


def test_production_without_secret_key_explains_itself():
    result = run_python(["-c", DUMP_SETTINGS], STOPBUS_ENV="production", ALLOWED_HOSTS="x.com")

    assert result.returncode != 0
    assert "django.core.exceptions.ImproperlyConfigured: SECRET_KEY is not set" in result.stderr
    assert "export SECRET_KEY=" in result.stderr


def test_production_without_allowed_hosts_explains_itself():
    result = run_python(
        ["-c", DUMP_SETTINGS], STOPBUS_ENV="production", SECRET_KEY=PRODUCTION["SECRET_KEY"]
    )

    assert result.returncode != 0
    assert "ImproperlyConfigured: ALLOWED_HOSTS is not set" in result.stderr


def test_production_is_hardened():
    settings = settings_with(**PRODUCTION, DEBUG="true", CSRF_TRUSTED_ORIGINS="https://example.com")

    assert settings["DEBUG"] is False
    assert settings["ALLOWED_HOSTS"] == ["example.com"]
    assert settings["CSRF_TRUSTED_ORIGINS"] == ["https://example.com"]
    assert settings["SESSION_COOKIE_SECURE"] is True
    assert settings["CSRF_COOKIE_SECURE"] is True
    assert settings["SECURE_SSL_REDIRECT"] is True
    assert settings["SECURE_HSTS_SECONDS"] >= 31536000
    assert settings["STATICFILES_BACKEND"] == (
        "whitenoise.storage.CompressedManifestStaticFilesStorage"
    )


@pytest.mark.parametrize(
    "extra",
    [
        {},
        # Behind a TLS-terminating proxy that does the HTTP->HTTPS redirect itself.
        {"SECURE_SSL_REDIRECT": "false", "SECURE_PROXY_SSL_HEADER": "true"},
    ],
    ids=["django-redirects", "proxy-redirects"],
)
def test_production_passes_the_deployment_checklist(extra):
    result = run_python(
        ["manage.py", "check", "--deploy", "--fail-level", "WARNING"], **PRODUCTION, **extra
    )

    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_proxy_ssl_header_is_opt_in():
    assert settings_with(**PRODUCTION)["SECURE_PROXY_SSL_HEADER"] is None
    assert settings_with(**PRODUCTION, SECURE_PROXY_SSL_HEADER="true")[
        "SECURE_PROXY_SSL_HEADER"
    ] == ["HTTP_X_FORWARDED_PROTO", "https"]


def test_every_stopbus_variable_the_readme_lists_is_read_from_the_environment():
    """README's Configuration table says everything is read from the environment: each
    STOPBUS_ variable it lists, set to a value of its own, is what the setting holds."""
    readme = (PROJECT_DIR / "README.md").read_text()
    table = readme[readme.index("## Configuration"):]
    table = table[:table.index("\n## ", 1)]
    names = sorted(set(re.findall(r"`(STOPBUS_[A-Z_]+)`", table)))
    assert "STOPBUS_BUSY_LATE" in names and "STOPBUS_MAX_PENDING" in names
    numeric = [n for n in names if n not in {"STOPBUS_ENV", "STOPBUS_CLOCK_AUTOSTART",
                                             "STOPBUS_TRUSTED_PROXIES", "STOPBUS_GUEST_CHAT",
                                             "STOPBUS_PUSH_HOSTS"}]
    values = {name: str(7 + i) for i, name in enumerate(numeric)}
    script = ("import json, django; from django.conf import settings; django.setup(); "
              f"print(json.dumps({{n: getattr(settings, n) for n in {numeric!r}}}))")
    result = run_python(["-c", script], **values)
    assert result.returncode == 0, result.stderr
    read = json.loads(result.stdout)
    assert {name: float(read[name]) for name in numeric} == {
        name: float(value) for name, value in values.items()}
    hosts = run_python(["-c", "import django; from django.conf import settings; "
                        "django.setup(); print(settings.STOPBUS_PUSH_HOSTS)"],
                       STOPBUS_PUSH_HOSTS="push.example.net,*.push.example.org")
    assert hosts.stdout.strip() == "['push.example.net', '*.push.example.org']", hosts.stderr
