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
