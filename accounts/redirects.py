"""Where a form sends the player on afterwards: its ``next`` field, if that is a path on
this site, else the view's usual page.

``url_has_allowed_host_and_scheme`` alone accepts a bare word ("abc"), which Django's
``redirect()`` would then take for a URL name (NoReverseMatch: a 500); so ``next`` must
also start with "/", and is followed as a path, never reversed.
"""

from __future__ import annotations

from django.http import HttpResponseRedirect
from django.shortcuts import redirect
from django.utils.http import url_has_allowed_host_and_scheme


def local_path(request, target) -> str | None:
    """``target`` if it is a path on this site ("/t/4/"), else None."""
    if not isinstance(target, str) or not target.startswith("/"):
        return None
    if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()},
                                           require_https=request.is_secure()):
        return None
    return target


def redirect_next(request, fallback, *args, **kwargs) -> HttpResponseRedirect:
    """To the POSTed ``next`` if it is a path on this site, else to ``fallback`` (a URL
    name, with its arguments, or a path)."""
    target = local_path(request, request.POST.get("next", ""))
    if target is not None:
        return HttpResponseRedirect(target)
    return redirect(fallback, *args, **kwargs)
