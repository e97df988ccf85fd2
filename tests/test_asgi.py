"""The ASGI application: HTTP to Django, websockets behind an Origin check."""

import pytest
from channels.auth import AuthMiddleware
from channels.routing import ProtocolTypeRouter, URLRouter
from channels.security.websocket import OriginValidator
from channels.sessions import CookieMiddleware
from channels.testing import HttpCommunicator, WebsocketCommunicator

from stopbus_site.asgi import application


def test_application_routes_http_and_websockets():
    assert isinstance(application, ProtocolTypeRouter)
    assert set(application.application_mapping) == {"http", "websocket"}


def test_websockets_pass_origin_check_then_auth_then_routes():
    validator = application.application_mapping["websocket"]
    assert isinstance(validator, OriginValidator)

    # AuthMiddlewareStack = CookieMiddleware(SessionMiddleware(AuthMiddleware(inner)))
    layer, chain = validator.application, []
    while not isinstance(layer, URLRouter):
        chain.append(type(layer))
        layer = layer.inner
    assert chain[0] is CookieMiddleware
    assert chain[-1] is AuthMiddleware


async def test_websocket_from_another_site_is_refused():
    communicator = WebsocketCommunicator(
        application, "/ws/anything/", headers=[(b"origin", b"https://evil.example")]
    )
    connected, _ = await communicator.connect()
    assert connected is False
    await communicator.disconnect()


async def test_websocket_without_origin_is_refused():
    communicator = WebsocketCommunicator(application, "/ws/anything/")
    connected, _ = await communicator.connect()
    assert connected is False
    await communicator.disconnect()


async def test_websocket_from_our_own_host_gets_past_the_origin_check():
    # No consumer is routed at this path, so getting as far as the router (and its
    # "No route found") proves the Origin check let the handshake through.
    communicator = WebsocketCommunicator(
        application, "/ws/no-such-route/", headers=[(b"origin", b"http://localhost")]
    )
    with pytest.raises(ValueError, match="No route found"):
        await communicator.connect()


@pytest.mark.django_db
async def test_http_goes_to_django():
    communicator = HttpCommunicator(application, "GET", "/", headers=[(b"host", b"localhost")])
    response = await communicator.get_response()
    assert response["status"] == 200
    assert b"Stop the Bus" in response["body"]
