"""Fixtures and test-run rules shared by every test file.

Service markers: a test marked ``postgres`` needs DATABASE_URL pointing at
PostgreSQL, one marked ``redis`` needs REDIS_URL. Locally such a test is skipped
with the reason when its service is not configured or not reachable; with CI=true
it fails instead, so CI can never go green without having exercised the services.
"""

import os
from urllib.parse import urlsplit

import pytest
from asgiref.sync import SyncToAsync
from django.core.cache import cache
from django.db import connections
from django.test import override_settings
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings

from tests.factories import PASSWORD, UserFactory

IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")

hypothesis_settings.register_profile("dev", max_examples=100)
hypothesis_settings.register_profile(
    "ci",
    max_examples=200,
    deadline=None,  # shared CI machines stall; a deadline there only adds flakes
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if IN_CI else "dev"))


def _postgres_problem():
    """Why PostgreSQL can't be used for this run, or None if it can."""
    url = os.environ.get("DATABASE_URL", "")
    if not url:
        return "DATABASE_URL is not set"
    if urlsplit(url).scheme not in ("postgres", "postgresql", "pgsql"):
        return f"DATABASE_URL does not point at PostgreSQL ({urlsplit(url).scheme}://)"
    import psycopg

    # Connect to the server's maintenance database: the named one may not exist
    # yet, and pytest-django creates its own test database anyway.
    parts = urlsplit(url)
    try:
        psycopg.connect(
            host=parts.hostname or "localhost",
            port=parts.port or 5432,
            user=parts.username,
            password=parts.password,
            dbname="postgres",
            connect_timeout=3,
        ).close()
    except psycopg.Error as exc:
        return f"PostgreSQL at DATABASE_URL is unreachable: {exc}"
    return None


def _redis_problem():
    """Why Redis can't be used for this run, or None if it can."""
    url = os.environ.get("REDIS_URL", "")
    if not url:
        return "REDIS_URL is not set"
    import redis

    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=3, socket_timeout=3)
        client.ping()
        client.close()
    except (redis.RedisError, OSError) as exc:
        return f"Redis at REDIS_URL is unreachable: {exc}"
    return None


def _browser_problem():
    """Why the Playwright tests can't drive Debian's chromium, or None if they can."""
    if not os.path.exists(CHROMIUM):
        return f"{CHROMIUM} is missing (apt-get install chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError as exc:
        return f"playwright is not installed: {exc}"
    return None


CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
_SERVICE_CHECKS = {"postgres": _postgres_problem, "redis": _redis_problem,
                   "browser": _browser_problem}
_service_problems = {}


def service_problem(name):
    """Checked once per run: a dead service would otherwise cost a timeout per test."""
    if name not in _service_problems:
        _service_problems[name] = _SERVICE_CHECKS[name]()
    return _service_problems[name]


def require_service(name):
    problem = service_problem(name)
    if problem is None:
        return
    if IN_CI:
        pytest.fail(f"{name} is required when CI=true: {problem}", pytrace=False)
    pytest.skip(f"needs {name}: {problem}")


def _missing_services(item):
    return [
        (name, service_problem(name))
        for name in _SERVICE_CHECKS
        if item.get_closest_marker(name) and service_problem(name)
    ]


def pytest_runtest_setup(item):
    if not IN_CI:
        for name, problem in _missing_services(item):
            pytest.skip(f"needs {name}: {problem}")


def pytest_runtest_call(item):
    # Failing in the call phase (not setup) reports the test as FAILED, not ERROR.
    for name, problem in _missing_services(item):
        pytest.fail(f"{name} is required when CI=true: {problem}", pytrace=False)


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """pytest-django's test database, plus one clean-up for async tests.

    Async ORM calls (``await Model.objects.acount()``, ``database_sync_to_async``)
    outside a request run in asgiref's single shared worker thread, whose database
    connection nothing closes; on PostgreSQL it would then block dropping the test
    database at the end of the run. Close it before pytest-django drops the database.
    """
    yield
    SyncToAsync.single_thread_executor.submit(connections.close_all).result()
    _close_in_database_threads()
    with django_db_blocker.unblock():
        _warn_of_other_sessions()


def _close_in_database_threads() -> None:
    """The websocket consumers' database threads (``games.consumers.db``, with the
    PostgreSQL pool) give their connection back after each piece of work; but Channels'
    test communicator turns that clean-up off (``channels.db.close_old_connections``,
    patched to a no-op for the whole process) while a test sends to or waits on a
    consumer, so work that ran meanwhile keeps its thread's connection. Each thread gives
    it back here, at once (all of them at a barrier), before the pool is closed."""
    import contextlib
    import threading

    from games import consumers

    executor = consumers._executor
    if executor is None:
        return
    count = executor._max_workers
    barrier = threading.Barrier(count, timeout=10)

    def close():
        with contextlib.suppress(threading.BrokenBarrierError):
            barrier.wait()  # every thread of the pool is holding one of these
        connections.close_all()

    for done in [executor.submit(close) for _ in range(count)]:
        done.result(timeout=20)


def _warn_of_other_sessions() -> None:
    """On PostgreSQL, once this process has given back its connections and closed its
    pool, name any session still open on the test database (pytest-django cannot drop
    the database then): what it last ran says which code kept its connection."""
    connection = connections["default"]
    if connection.vendor != "postgresql":
        return
    import warnings

    import psycopg

    connections.close_all()
    connection.close_pool()
    params = connection.get_connection_params()
    with psycopg.connect(**params) as conn:
        others = conn.execute(
            "SELECT pid, state, backend_start, left(query, 300) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()").fetchall()
    for pid, state, started, query in others:
        warnings.warn(f"a connection to the test database is still open as the run ends "
                      f"(pid {pid}, {state}, opened {started:%H:%M:%S}): last ran {query!r}",
                      stacklevel=1)


@pytest.fixture
def redis_url():
    """The Redis URL the site is configured with (skips/fails like the marker)."""
    require_service("redis")
    return os.environ["REDIS_URL"]


@pytest.fixture(scope="session", autouse=True)
def _fast_password_hashing():
    """The production hasher is slow on purpose; tests only need real hashes."""
    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


DJANGO_FIXTURES = {"db", "transactional_db", "client", "async_client", "admin_client"}


@pytest.fixture(autouse=True)
def _fresh_cache(request):
    """Each test that touches Django starts with an empty cache.

    Axes keeps its attempt counts in the database (rolled back after each test),
    but anything the site caches, locally or in Redis, would otherwise carry over
    from one test to the next. With REDIS_URL set this clears that Redis database:
    point tests at one you don't mind losing. Pure tests (the engine's) skip this.
    """
    if request.node.get_closest_marker("django_db") or DJANGO_FIXTURES & set(request.fixturenames):
        cache.clear()
        # and the process's own caches of games and boards: a flushed test database
        # hands out the same primary keys again
        from games import render
        from games.actions import base

        base._STATES.clear()
        render.clear()


@pytest.fixture
def password():
    return PASSWORD


@pytest.fixture
def user(db):
    return UserFactory()


@pytest.fixture
def user_client(client, user):
    """A test client logged in as ``user``."""
    client.force_login(user)
    return client


@pytest.fixture(scope="session", autouse=True)
def _no_pauses_and_no_background_clock():
    """Bots and deals wait for no one in tests, and tests run the clock themselves."""
    with override_settings(STOPBUS_BOT_DELAY=0, STOPBUS_SHOWDOWN_PAUSE=0,
                           STOPBUS_CLOCK_AUTOSTART=False):
        yield


@pytest.fixture(autouse=True)
def _not_behind():
    """How late a process's pages have lately been updated (``ratelimit.behind``), and how
    long its actions waited (``ratelimit.queued_long``), are the process's own: one test's
    backlog is not the next one's."""
    from games import ratelimit

    for store in (ratelimit._late, ratelimit._queued):
        store[:] = [0.0, 0.0]
    ratelimit._updating[:] = [0]
    yield
    for store in (ratelimit._late, ratelimit._queued):
        store[:] = [0.0, 0.0]
    ratelimit._updating[:] = [0]


@pytest.fixture
def fresh_channel_layer():
    """A consumer that crashed can leave the layer's Redis lock held by a dead event loop;
    a layer of its own per test keeps one crash from failing the tests after it."""
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


@pytest.fixture(scope="module")
def browser():
    """Debian's chromium driven by Playwright, one per test module."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def shots(tmp_path_factory):
    """Where a browser test saves its screenshots: $STOPBUS_SCREENSHOTS to keep them and
    look at them, else a folder of the test run's own."""
    from pathlib import Path

    folder = Path(os.environ.get("STOPBUS_SCREENSHOTS") or tmp_path_factory.mktemp("shots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder
