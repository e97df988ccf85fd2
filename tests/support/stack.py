"""The real stack for tests and measurements: PostgreSQL, Redis, daphne processes, a proxy.

    with Stack(processes=2) as stack:          # a fresh database, migrated
        people = stack.make_people(8)         # [(user, session cookie)]
        tables = stack.make_tables(people, per_table=4)
        ... connect websocket clients to stack.ws_url ...
        stack.servers[0].kill()               # kill -9 one process
        stack.restart_redis()

The proxy is a plain TCP forwarder that sends each new connection to the next
server that accepts it, as a load balancer would; a client whose server died
reconnects through it and lands on a live one. This process also talks to the
same database through Django (to create people and tables), configured from
the same environment variables the servers get.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from tests.servers import ROOT, Daphne, free_port

DEFAULT_PG = "postgres://postgres@127.0.0.1:5432/postgres"
DEFAULT_REDIS = "redis://127.0.0.1:6379/7"


def py_spy() -> str | None:
    """py-spy beside this Python (requirements-dev.txt), else on the PATH."""
    here = Path(sys.executable).with_name("py-spy")
    return str(here) if here.exists() else shutil.which("py-spy")


def wipe_redis(url: str) -> None:
    """A benchmark's own Redis database, emptied: groups left by an earlier run's
    processes would otherwise still be sent to (and counted over capacity)."""
    import redis

    client = redis.Redis.from_url(url)
    client.flushdb()
    client.close()


class Proxy:
    """A round-robin TCP proxy on its own thread; skips servers that refuse."""

    def __init__(self, backends: list[int], port: int | None = None):
        self.backends = backends
        self.port = port or free_port()
        self.loop = asyncio.new_event_loop()
        self._turn = itertools.count()
        self._ready = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True, name="proxy")

    def start(self) -> Proxy:
        self.thread.start()
        self._ready.wait(10)
        return self

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        server = self.loop.run_until_complete(
            asyncio.start_server(self._serve, "127.0.0.1", self.port, backlog=4096))
        self._ready.set()
        try:
            self.loop.run_forever()
        finally:
            server.close()

    async def _serve(self, reader, writer) -> None:
        upstream = None
        for _ in range(len(self.backends)):
            port = self.backends[next(self._turn) % len(self.backends)]
            try:
                upstream = await asyncio.open_connection("127.0.0.1", port)
                break
            except OSError:
                continue
        if upstream is None:
            writer.close()
            return
        up_reader, up_writer = upstream

        async def pipe(src, dst):
            try:
                while data := await src.read(65536):
                    dst.write(data)
                    await dst.drain()
            except (ConnectionError, OSError):
                pass
            finally:
                with contextlib.suppress(Exception):
                    dst.close()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)


def _with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path="/" + name))


class Stack:
    def __init__(self, processes: int = 2, database: str = "stopbus_stack",
                 pg_url: str | None = None, redis_url: str | None = None,
                 proxy: bool = True, env: dict | None = None, log_dir: Path | None = None):
        base = pg_url or os.environ.get("STACK_PG_URL", DEFAULT_PG)
        self.database = database
        self.admin_url = _with_database(base, "postgres")
        self.database_url = _with_database(base, database)
        self.redis_url = redis_url or os.environ.get("STACK_REDIS_URL", DEFAULT_REDIS)
        self.processes = processes
        self.use_proxy = proxy
        self.log_dir = Path(log_dir or Path("/tmp") / f"stack-{database}")
        self.env = {
            "DATABASE_URL": self.database_url,
            "REDIS_URL": self.redis_url,
            "STOPBUS_ENV": "development",
            "DEBUG": "false",
            "STOPBUS_BOT_DELAY": "0.2",
            "STOPBUS_SHOWDOWN_PAUSE": "1",
            "DATABASE_POOL_MAX_SIZE": "20",
            "LOG_LEVEL": "WARNING",
            "STOPBUS_CLOCK_AUTOSTART": "true",
            **(env or {}),
        }
        self.servers: list[Daphne] = []
        self.proxy: Proxy | None = None

    # -- lifecycle ------------------------------------------------------------------------

    def __enter__(self) -> Stack:
        self.log_dir.mkdir(parents=True, exist_ok=True)
        self._fresh_database()
        self._configure_django()
        ports = [free_port() for _ in range(self.processes)]
        for i, port in enumerate(ports):
            self.servers.append(self.start_server(port, i))
        if self.use_proxy:
            self.proxy = Proxy(ports).start()
        return self

    def __exit__(self, *exc) -> None:
        for server in self.servers:
            with contextlib.suppress(Exception):
                server.stop()
        if self.proxy:
            self.proxy.stop()

    def start_server(self, port: int, index: int) -> Daphne:
        return Daphne(port=port, env=self.env,
                      log=self.log_dir / f"daphne-{index}-{port}.log").start()

    def restart_server(self, index: int) -> Daphne:
        old = self.servers[index]
        old.kill()
        self.servers[index] = self.start_server(old.port, index)
        return self.servers[index]

    def dump_threads(self, out: Path) -> Path | None:
        """Where every thread of each live server process is now (``py-spy dump``), into
        ``out``; None without py-spy."""
        spy = py_spy()
        if spy is None:
            return None
        with out.open("w") as f:
            for server in self.servers:
                process = server.process
                if process is None or process.poll() is not None:
                    continue
                f.write(f"== daphne pid {process.pid} (port {server.port})\n")
                f.flush()
                subprocess.run([spy, "dump", "--pid", str(process.pid)], stdout=f,  # noqa: S603
                               stderr=subprocess.STDOUT, timeout=60, check=False)
        return out

    @property
    def url(self) -> str:
        port = self.proxy.port if self.proxy else self.servers[0].port
        return f"http://127.0.0.1:{port}"

    @property
    def ws_url(self) -> str:
        return self.url.replace("http://", "ws://")

    def _fresh_database(self) -> None:
        import psycopg

        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{self.database}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{self.database}"')
        subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT,
                       env={**os.environ, **self.env}, check=True, timeout=300)

    def _configure_django(self) -> None:
        os.environ.update(self.env)
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "stopbus_site.settings")
        os.environ["STOPBUS_CLOCK_AUTOSTART"] = "false"  # this process only sets up
        import django

        django.setup()

    # -- Redis ----------------------------------------------------------------------------------

    def restart_redis(self, down_for: float = 1.0) -> float:
        """Stop the Redis server and start it again, empty. Returns seconds it was down."""
        parts = urlsplit(self.redis_url)
        port = parts.port or 6379
        cli = shutil.which("redis-cli") or "redis-cli"
        started = time.monotonic()
        subprocess.run([cli, "-p", str(port), "shutdown", "nosave"], check=False,
                       capture_output=True, timeout=10)
        time.sleep(down_for)
        subprocess.run(["redis-server", "--daemonize", "yes", "--bind", "127.0.0.1", "-::1",
                        "--port", str(port), "--save", "", "--appendonly", "no",
                        "--dir", "/var/lib/redis", "--logfile", "/var/log/redis/ci.log"],
                       check=True, timeout=10)
        for _ in range(100):
            if subprocess.run([cli, "-p", str(port), "ping"], capture_output=True,
                              timeout=5).stdout.strip() == b"PONG":
                break
            time.sleep(0.05)
        return time.monotonic() - started

    # -- people and tables ----------------------------------------------------------------------

    def make_people(self, n: int, prefix: str = "player") -> list[tuple]:
        """``n`` users with a logged-in session each: [(user, "sessionid=...")]."""
        from importlib import import_module

        from django.conf import settings
        from django.contrib.auth import get_user_model
        from django.contrib.auth.hashers import make_password

        User = get_user_model()  # noqa: N806
        password = make_password(None)  # unusable: these people log in by session only
        users = User.objects.bulk_create([
            User(username=f"{prefix}{i}", email=f"{prefix}{i}@example.org", password=password)
            for i in range(n)])
        store_class = import_module(settings.SESSION_ENGINE).SessionStore
        people = []
        for user in users:
            store = store_class()
            store["_auth_user_id"] = str(user.pk)
            store["_auth_user_backend"] = "django.contrib.auth.backends.ModelBackend"
            store["_auth_user_hash"] = user.get_session_auth_hash()
            store.create()
            people.append((user, f"{settings.SESSION_COOKIE_NAME}={store.session_key}"))
        return people

    def make_tables(self, people, per_table: int = 4, variant: str = "classic",
                    bots: list[str] | None = None, turn_seconds: int | None = None) -> list:
        """Seat ``people`` at tables of ``per_table`` (plus ``bots``); each starts when full."""
        from games import actions
        from games.models import Variant

        chosen = Variant.objects.get(slug=variant)
        if turn_seconds is not None:
            chosen.turn_seconds = turn_seconds or None
            chosen.save(update_fields=["turn_seconds"])
        tables = []
        bots = bots or []
        for start in range(0, len(people) - per_table + 1, per_table):
            group = people[start:start + per_table]
            host = group[0][0]
            table = actions.do_create_table(host, name=f"Table {len(tables) + 1}", variant=chosen,
                                         seats=per_table + len(bots))
            for user, _ in group[1:]:
                actions.do_join_table(table, user)
            for level in bots:
                actions.do_add_bot(table, host, level)
            table.refresh_from_db()
            tables.append((table, group))
        return tables


class RedisServer:
    """A Redis of our own, in the foreground as our child, that may be restarted at will.

    The shared Redis on 6379 serves other people's tests: anything that restarts
    Redis uses one of these instead (``Stack(redis_url=server.url)``), empty and
    without persistence, so a restart loses everything as a real crash would.
    """

    def __init__(self, port: int | None = None, log: Path | None = None):
        self.port = port or free_port()
        self.log_path = log
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout: float = 10.0) -> RedisServer:
        import tempfile

        out = open(self.log_path, "ab") if self.log_path else subprocess.DEVNULL  # noqa: SIM115
        workdir = self.log_path.parent if self.log_path else Path(tempfile.gettempdir())
        self.process = subprocess.Popen(  # noqa: S603
            [shutil.which("redis-server") or "redis-server", "--port", str(self.port),
             "--bind", "127.0.0.1", "--daemonize", "no", "--save", "", "--appendonly", "no",
             "--dir", str(workdir)],
            stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"redis-server on {self.port} exited with "
                                   f"{self.process.returncode}")
            if self.ping():
                return self
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"redis-server on {self.port} did not answer in {timeout}s")

    def ping(self) -> bool:
        import socket

        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as sock:
                sock.sendall(b"PING\r\n")
                return sock.recv(64).startswith(b"+PONG")
        except OSError:
            return False

    def kill(self) -> None:
        """kill -9: whatever it held (groups, channels, cache) is gone."""
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def restart(self, down_for: float = 1.0) -> float:
        """Kill it, stay down ``down_for`` seconds, start it again empty.
        Returns the seconds it did not answer."""
        started = time.monotonic()
        self.kill()
        time.sleep(down_for)
        self.start()
        return time.monotonic() - started

    def __enter__(self) -> RedisServer:
        return self.start()

    def __exit__(self, *exc) -> None:
        with contextlib.suppress(Exception):
            self.stop()
