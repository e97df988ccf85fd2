"""The ASGI application: HTTP to Django, websockets behind an Origin check."""

import pytest
from channels.auth import AuthMiddleware
from channels.routing import ProtocolTypeRouter, URLRouter
from channels.security.websocket import OriginValidator
from channels.sessions import CookieMiddleware
from channels.testing import HttpCommunicator, WebsocketCommunicator

from games.clock import ClockMiddleware
from stopbus_site.asgi import application

router = application.app


def test_application_routes_http_and_websockets_behind_the_clock():
    assert isinstance(application, ClockMiddleware), "every process runs the clock"
    assert isinstance(router, ProtocolTypeRouter)
    assert set(router.application_mapping) == {"http", "websocket"}


def test_websockets_pass_origin_check_then_auth_then_routes():
    validator = router.application_mapping["websocket"]
    assert isinstance(validator, OriginValidator)

    # AuthMiddlewareStack = CookieMiddleware(SessionMiddleware(AuthMiddleware(inner)))
    layer, chain = validator.application, []
    while not isinstance(layer, URLRouter):
        chain.append(type(layer))
        layer = layer.inner
    assert chain[0] is CookieMiddleware
    assert chain[-1] is AuthMiddleware


# Channels closes stale database connections after each frame, so a refused
# handshake still touches the database layer: these tests may use it.
@pytest.mark.django_db
async def test_websocket_from_another_site_is_refused():
    communicator = WebsocketCommunicator(
        application, "/ws/anything/", headers=[(b"origin", b"https://evil.example")]
    )
    connected, _ = await communicator.connect()
    assert connected is False
    await communicator.disconnect()


@pytest.mark.django_db
async def test_websocket_without_origin_is_refused():
    communicator = WebsocketCommunicator(application, "/ws/anything/")
    connected, _ = await communicator.connect()
    assert connected is False
    await communicator.disconnect()


@pytest.mark.django_db
async def test_websocket_from_our_own_host_gets_past_the_origin_check():
    # Nothing is served at this path: the catch-all route refuses it with 4404, which
    # proves the Origin check let the handshake through (a refused origin closes 1000).
    communicator = WebsocketCommunicator(
        application, "/ws/no-such-route/", headers=[(b"origin", b"http://localhost")]
    )
    connected, code = await communicator.connect()
    assert not connected and code == 4404


@pytest.mark.django_db
async def test_http_goes_to_django():
    communicator = HttpCommunicator(application, "GET", "/", headers=[(b"host", b"localhost")])
    response = await communicator.get_response()
    assert response["status"] == 200
    assert b"Stop the Bus" in response["body"]
