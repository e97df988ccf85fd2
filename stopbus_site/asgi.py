"""ASGI entry point: HTTP goes to Django, websockets to the channels routes.

Run with ``daphne stopbus_site.asgi:application`` (or ``manage.py runserver``,
which daphne replaces in development).
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "stopbus_site.settings")

# Sets Django up before anything below imports models (consumers, auth middleware).
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from games.clock import ClockMiddleware  # noqa: E402
from stopbus_site.memory import settle  # noqa: E402
from stopbus_site.routing import websocket_urlpatterns  # noqa: E402

# The clock (bot moves, turn deadlines, the next deal) runs in every server process;
# the first request or connection starts it.
application = ClockMiddleware(ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        # Browsers send cookies with cross-site websocket handshakes too; checking
        # Origin against ALLOWED_HOSTS stops another site from opening a socket as
        # the logged-in user.
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
))

# Everything the process serves with is loaded now: keep it out of the collector's walks.
settle()
