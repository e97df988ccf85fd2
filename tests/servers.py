"""Real daphne processes for tests that cross process boundaries."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Daphne:
    """``python -m daphne`` serving the site on a port, with its own environment."""

    def __init__(self, port: int | None = None, env: dict | None = None, log: Path | None = None,
                 application: str = "stopbus_site.asgi:application"):
        self.application = application
        self.port = port or free_port()
        self.env = {**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})}
        self.log_path = log
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30.0) -> Daphne:
        out = open(self.log_path, "ab") if self.log_path else subprocess.DEVNULL  # noqa: SIM115
        self.process = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port),
             self.application],
            cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT,
            start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"daphne on {self.port} exited with {self.process.returncode}")
            try:
                with urllib.request.urlopen(self.url + "/rules/", timeout=2):  # noqa: S310
                    return self
            except OSError:
                time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"daphne on {self.port} did not answer in {timeout}s")

    def kill(self) -> None:
        """kill -9: no goodbyes, as when a machine dies."""
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def __enter__(self) -> Daphne:
        return self.start()

    def __exit__(self, *exc) -> None:
        with contextlib.suppress(Exception):
            self.stop()


def manage(env: dict, *command: str, timeout: float = 180) -> str:
    """``manage.py COMMAND`` in ``env``; what it printed. A failure shows its own output."""
    done = subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=timeout)
    if done.returncode:
        raise RuntimeError(f"manage.py {command[0]} exited with {done.returncode}:\n"
                           f"{done.stdout[-2000:]}{done.stderr[-4000:]}")
    return done.stdout


@contextlib.contextmanager
def live_site(folder: Path, *scripts: str, **settings: str) -> Iterator[Daphne]:
    """A site of its own for a browser test: a new SQLite database in ``folder``, migrated,
    each of ``scripts`` run by ``manage.py shell -c``, served by one daphne on the in-memory
    channel layer with ``settings`` in its environment (the clock runs unless they say not).

    The server it yields keeps ``made`` (what the scripts printed), ``folder`` and
    ``shell_env`` (the environment to run more of ``manage.py`` against the same site)."""
    env = {"DATABASE_URL": f"sqlite:///{folder / 'site.sqlite3'}", "REDIS_URL": "", "CI": "",
           "STOPBUS_CLOCK_AUTOSTART": "true", **settings}
    shell_env = {**os.environ, **env}
    manage(shell_env, "migrate", "-v0")
    made = "".join(manage(shell_env, "shell", "-c", script) for script in scripts)
    with Daphne(env=env, log=folder / "daphne.log") as server:
        server.made, server.folder, server.shell_env = made, folder, shell_env
        yield server


def log_in(page, url: str, username: str, password: str) -> None:
    """Sign ``page`` in at the site at ``url`` by its log-in form; it lands on the lobby."""
    page.goto(url + "/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("main form button[type=submit]")
    page.wait_for_url(url + "/")
