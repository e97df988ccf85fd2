"""The baseline for ``benchmarks.load``: a bare Channels app on the same stack.

Served by the same daphne processes on the same channels-redis layer as the card
room, it does the least a card room could do: a websocket joins its table's
group (``/ws/table/<id>/``, no login, no database) and every frame it receives
is sent, as it is, to that group, so each client at the table gets a small
frame. What the real room achieves, divided by what this achieves on the same
box at the same moment, is a figure that holds on a noisy machine.

    daphne benchmarks.baseline_app:application
"""

from __future__ import annotations

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "stopbus_site.settings")

import django  # noqa: E402

django.setup()  # the channel layer comes from the site's settings (REDIS_URL)

from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import path  # noqa: E402


class EchoToTable(AsyncWebsocketConsumer):
    async def connect(self):
        self.group = f"table-{self.scope['url_route']['kwargs']['table_id']}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        await self.channel_layer.group_send(self.group, {"type": "table.frame",
                                                         "text": text_data or ""})

    async def table_frame(self, event):
        await self.send(text_data=event["text"])


async def answer_ok(scope, receive, send):
    """Any HTTP request: 200 (the servers' start-up check asks for a page)."""
    if scope["type"] != "http":
        return
    await send({"type": "http.response.start", "status": 200,
                "headers": [(b"content-type", b"text/plain")]})
    await send({"type": "http.response.body", "body": b"ok"})


application = ProtocolTypeRouter({
    "http": answer_ok,
    "websocket": URLRouter([path("ws/table/<int:table_id>/", EchoToTable.as_asgi())]),
})
