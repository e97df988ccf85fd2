"""Websocket URL patterns for the whole site.

Apps add their routes here (for example the game tables' consumers from
``games.routing``), so ``asgi.py`` has one list to mount.
"""

from games.routing import websocket_urlpatterns as games_websockets

websocket_urlpatterns = [*games_websockets]
