"""The player's language: a saved preference first, then the browser, then English.

Django's LocaleMiddleware picks from the language cookie and Accept-Language;
``UserLanguageMiddleware`` (after authentication) replaces that choice with the
signed-in player's saved one. ``set_language`` is Django's view of that name,
which also saves the choice on the account, so it follows the player to any
browser.
"""

from django.conf import settings
from django.utils import translation
from django.utils.translation.trans_real import parse_accept_lang_header
from django.views.decorators.http import require_POST
from django.views.i18n import LANGUAGE_QUERY_PARAMETER
from django.views.i18n import set_language as django_set_language


def supported(code: str | None) -> str | None:
    """``code`` if the site speaks it (or a variant of it), else None."""
    if not code:
        return None
    try:
        return translation.get_supported_language_variant(code)
    except LookupError:
        return None


def user_language(user) -> str | None:
    """The saved language of a signed-in player that the site still speaks."""
    if user is None or not user.is_authenticated:
        return None
    return supported(getattr(user, "language", ""))


def socket_language(scope) -> str:
    """The language of a websocket's reader, chosen as for their pages: the signed-in
    player's saved one, then the language cookie, then the browser's Accept-Language,
    then the site's. (A socket's scope has no request for LocaleMiddleware to read.)"""
    chosen = user_language(scope.get("user"))
    if chosen:
        return chosen
    chosen = supported((scope.get("cookies") or {}).get(settings.LANGUAGE_COOKIE_NAME))
    if chosen:
        return chosen
    headers = dict(scope.get("headers") or ())
    accept = headers.get(b"accept-language", b"").decode("latin-1")
    for code, _ in parse_accept_lang_header(accept):
        if code != "*" and (chosen := supported(code)):
            return chosen
    return supported(settings.LANGUAGE_CODE) or settings.LANGUAGE_CODE


class UserLanguageMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        language = user_language(getattr(request, "user", None))
        if language:
            translation.activate(language)
            request.LANGUAGE_CODE = language
        response = self.get_response(request)
        # Said here, because the language is put back below, before LocaleMiddleware
        # (outside this one) would read it for the header.
        response.headers.setdefault("Content-Language", translation.get_language())
        # Activation is per thread: without this, whatever runs next on the thread
        # outside a request (a worker, a test) would speak this reader's language.
        translation.deactivate()
        return response


@require_POST
def set_language(request):
    """Django's set_language (cookie and redirect), and the account's preference too."""
    response = django_set_language(request)
    language = supported(request.POST.get(LANGUAGE_QUERY_PARAMETER))
    user = request.user
    if language and user.is_authenticated and user.language != language:
        user.language = language
        user.save(update_fields=["language"])
    return response

