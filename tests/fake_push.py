"""A fake push service on 127.0.0.1 that decrypts what it receives.

It stands in for the browser vendors' push services: each subscription it hands out
has a fresh P-256 key pair and auth secret, as a browser's would, and every message
posted to its endpoint is decrypted (RFC 8291, aes128gcm, with ``http_ece``) with
those keys and kept. The status it answers is set per test (201, 410, 500, a delay).
"""

from __future__ import annotations

import json
import os
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from notify.keys import b64url


@dataclass
class Received:
    path: str
    headers: dict
    payload: dict
    at: float


@dataclass
class FakeSubscription:
    endpoint: str
    private_key: ec.EllipticCurvePrivateKey
    auth: bytes

    @property
    def p256dh(self) -> str:
        return b64url(self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint))

    @property
    def auth_b64(self) -> str:
        return b64url(self.auth)

    def info(self) -> dict:
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth_b64}}


@dataclass
class FakePushService:
    host: str = "127.0.0.1"
    subscriptions: dict = field(default_factory=dict)  # path -> FakeSubscription
    received: list = field(default_factory=list)
    status: int = 201  # what to answer
    statuses: list = field(default_factory=list)  # answered first, one per message
    delay: float = 0.0
    errors: list = field(default_factory=list)

    def start(self):
        service = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # keeps connections open, as push services do

            def log_message(self, *args):
                pass

            def do_POST(self):  # noqa: N802 (http.server's name)
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                service.handle(self, body)

        self.server = ThreadingHTTPServer((self.host, 0), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        return self

    def stop(self):
        self.server.shutdown()
        self.server.server_close()

    def subscribe(self) -> FakeSubscription:
        path = f"/push/{b64url(os.urandom(12))}"
        sub = FakeSubscription(f"http://{self.host}:{self.port}{path}",
                               ec.generate_private_key(ec.SECP256R1()), os.urandom(16))
        self.subscriptions[path] = sub
        return sub

    def handle(self, request, body: bytes) -> None:
        if self.delay:
            time.sleep(self.delay)
        status = self.statuses.pop(0) if self.statuses else self.status
        sub = self.subscriptions.get(request.path)
        if sub is None:
            status = 404
        elif 200 <= status < 300:
            try:
                assert request.headers.get("Content-Encoding") == "aes128gcm"
                assert request.headers.get("Authorization", "").startswith("vapid t=")
                plain = http_ece.decrypt(body, private_key=sub.private_key, auth_secret=sub.auth,
                                         version="aes128gcm")
                self.received.append(Received(request.path, dict(request.headers),
                                              json.loads(plain), time.monotonic()))
            except Exception as exc:  # the test sees what was wrong
                self.errors.append(repr(exc))
                status = 400
        request.send_response(status)
        request.send_header("Content-Length", "0")
        request.end_headers()

    def wait_for(self, count: int, timeout: float = 5.0) -> list:
        end = time.monotonic() + timeout
        while len(self.received) < count and time.monotonic() < end:
            time.sleep(0.01)
        return self.received
