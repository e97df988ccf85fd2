"""The log-in lockout counts the address the client cannot choose.

The probe sent a different X-Forwarded-For with each attempt and was never
locked out: the README ran daphne with ``--proxy-headers``, which takes the
header's first entry. These tests run the README's own deployment: the daphne
flags and STOPBUS_TRUSTED_PROXIES are read from it, and REMOTE_ADDR is what
daphne (with those flags, through its own parser) would hand Django.
"""

import http.cookiejar
import os
import re
import shlex
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from daphne.utils import parse_x_forwarded_for
from django.urls import reverse

from accounts.client_address import client_address
from tests.factories import PASSWORD, UserFactory
from tests.servers import ROOT, free_port

pytestmark = pytest.mark.django_db

README = (Path(__file__).resolve().parent.parent / "README.md").read_text()
NGINX = "127.0.0.1"  # the proxy in the README, on the same machine as daphne


def readme_daphne_flags() -> set[str]:
    lines = [line for line in README.splitlines() if line.startswith(".venv/bin/daphne ")]
    assert lines, "the README no longer shows how daphne is started"
    return {word for line in lines for word in shlex.split(line) if word.startswith("--")}


def readme_trusted_proxies() -> list[str]:
    found = re.search(r"^export STOPBUS_TRUSTED_PROXIES=(\S+)", README, re.MULTILINE)
    return found.group(1).split(",") if found else []


def remote_addr(peer: str, forwarded_for: str) -> str:
    """REMOTE_ADDR as daphne, started as the README says, sets it for this request."""
    if "--proxy-headers" in readme_daphne_flags():
        headers = {b"x-forwarded-for": [forwarded_for.encode()]}
        return parse_x_forwarded_for(headers, original_addr=[peer, 40000])[0]
    return peer


def attempt(client, username, password, peer, forwarded_for):
    return client.post(reverse("login"), {"username": username, "password": password},
                       REMOTE_ADDR=remote_addr(peer, forwarded_for),
                       HTTP_X_FORWARDED_FOR=forwarded_for).status_code


def test_twenty_attempts_straight_to_daphne_with_a_new_header_each_time_are_locked_out(
        client, settings):
    settings.STOPBUS_TRUSTED_PROXIES = []  # nothing in front: the header means nothing
    user = UserFactory()
    statuses = [attempt(client, user.username, f"wrong-{i}", "203.0.113.9",
                        f"10.{i}.{i}.1") for i in range(20)]
    assert statuses == [200] * 4 + [429] * 16
    assert attempt(client, user.username, PASSWORD, "203.0.113.9", "10.99.0.1") == 429


def test_twenty_attempts_through_the_proxy_with_a_new_header_each_time_are_locked_out(
        client, settings):
    settings.STOPBUS_TRUSTED_PROXIES = readme_trusted_proxies()
    assert NGINX in settings.STOPBUS_TRUSTED_PROXIES, "the README must trust its nginx"
    user = UserFactory()
    # the client's own header, then the address nginx appends ($proxy_add_x_forwarded_for)
    statuses = [attempt(client, user.username, f"wrong-{i}", NGINX,
                        f"10.{i}.{i}.1, 198.51.100.7") for i in range(20)]
    assert statuses == [200] * 4 + [429] * 16
    # another player behind the same proxy is a different address, and not locked out
    assert attempt(client, user.username, PASSWORD, NGINX, "10.0.0.1, 198.51.100.8") == 302


def test_a_header_from_a_peer_that_is_not_a_trusted_proxy_is_ignored(settings):
    settings.STOPBUS_TRUSTED_PROXIES = ["127.0.0.1", "10.0.0.0/8"]
    assert client_address("203.0.113.9", "198.51.100.1") == "203.0.113.9"
    assert client_address("127.0.0.1", "198.51.100.1") == "198.51.100.1"
    # right to left past our own proxies, never the client's left-hand entries
    assert client_address("127.0.0.1", "1.2.3.4, 198.51.100.1, 10.1.2.3") == "198.51.100.1"
    assert client_address("127.0.0.1", "") == "127.0.0.1"
    assert client_address("127.0.0.1", "198.51.100.1, not-an-address") == "127.0.0.1"
    settings.STOPBUS_TRUSTED_PROXIES = []
    assert client_address("127.0.0.1", "198.51.100.1") == "127.0.0.1"


# -- the same against a real daphne, started with the README's flags ---------------------------


def _daphne_command(port: int) -> list[str]:
    flags = sorted(readme_daphne_flags())
    return [sys.executable, "-m", "daphne", *flags, "-b", "127.0.0.1", "-p", str(port),
            "stopbus_site.asgi:application"]


@pytest.fixture
def site_database(tmp_path):
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'site.sqlite3'}",
           "REDIS_URL": "", "STOPBUS_CLOCK_AUTOSTART": "false", "CI": "",
           "DJANGO_SUPERUSER_PASSWORD": PASSWORD}
    for command in (["migrate", "-v0"], ["createsuperuser", "--noinput", "--username", "victim",
                                           "--email", "victim@example.com"]):
        subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT, env=env, check=True,
                       timeout=120, capture_output=True)
    return env


def _log_in_attempts(base: str, forwarded_for: list[str]) -> list[int]:
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    opener.open(base + "/accounts/login/", timeout=10).read()
    token = next(c.value for c in jar if c.name == "csrftoken")
    statuses = []
    for i, header in enumerate(forwarded_for):
        body = urllib.parse.urlencode({"username": "victim", "password": f"wrong-{i}",
                                       "csrfmiddlewaretoken": token}).encode()
        request = urllib.request.Request(base + "/accounts/login/", data=body, headers={  # noqa: S310
            "X-Forwarded-For": header, "Referer": base + "/accounts/login/"})
        try:
            statuses.append(opener.open(request, timeout=10).status)
        except urllib.error.HTTPError as exc:
            statuses.append(exc.code)
    return statuses


@pytest.mark.multiprocess
@pytest.mark.timeout(180)
@pytest.mark.parametrize("through_proxy", [False, True], ids=["direct", "through-the-proxy"])
def test_a_real_daphne_run_as_the_readme_says_locks_out_a_rotating_header(
        site_database, through_proxy):
    # our client sits on 127.0.0.1: as the README's nginx, or as a client with nobody trusted
    trusted = ",".join(readme_trusted_proxies()) if through_proxy else ""
    env = {**site_database, "STOPBUS_TRUSTED_PROXIES": trusted}
    if through_proxy:
        headers = [f"10.{i}.{i}.1, 198.51.100.7" for i in range(20)]
    else:
        headers = [f"10.{i}.{i}.1" for i in range(20)]
    port = free_port()
    process = subprocess.Popen(_daphne_command(port), cwd=ROOT, env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               start_new_session=True)
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(base + "/accounts/login/", timeout=2).read()  # noqa: S310
                break
            except OSError:
                assert time.monotonic() < deadline and process.poll() is None, "no daphne"
                time.sleep(0.2)
        assert _log_in_attempts(base, headers) == [200] * 4 + [429] * 16
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(10)
