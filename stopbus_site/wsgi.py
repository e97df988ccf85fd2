"""WSGI entry point. The site needs websockets, so serve it with daphne (asgi.py);
this stays for tools that expect a WSGI application."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "stopbus_site.settings")

application = get_wsgi_application()
