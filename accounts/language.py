"""The player's language: a saved preference first, then the browser, then English.

Django's LocaleMiddleware picks from the language cookie and Accept-Language;
``UserLanguageMiddleware`` (after authentication) replaces that choice with the
signed-in player's saved one. ``set_language`` is Django's view of that name,
which also saves the choice on the account, so it follows the player to any
browser.

A player who never uses the switch has the language they read the site in saved for
them where that language is plainly theirs: at sign-up, the
language of the sign-up pages; for a guest, made by the browser that asked for them, that
browser's language. Mails and pushes are written when the player is not the one asking
(``reader_language``), so without this they would fall back to the sending thread's
language (English) whatever the player reads. A saved language is never replaced this
way: only the switch changes it. A sign-in saves nothing (an account without a saved
language, made before this, follows each browser it signs in from, and its mails are in
the site's language until its player uses the switch).
"""

from django.conf import settings
from django.http import HttpRequest
from django.utils import translation
from django.utils.translation.trans_real import language_code_re, parse_accept_lang_header
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


def reader_language(user) -> str:
    """The language to write to ``user`` in when they are not the one asking (a mail to
    an account's owner, say): their saved choice, else the language active now."""
    return user_language(user) or translation.get_language()


def browser_language(request) -> str | None:
    """The supported language the request itself asks for: the language cookie (set by
    the switch), else the first of Accept-Language the site speaks; None when it asks
    for none (no cookie and no header, or only languages the site does not speak), so a
    request without a word on it (a script, a probe) never decides for the player."""
    cookie = supported(request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME))
    if cookie:
        return cookie
    header = request.META.get("HTTP_ACCEPT_LANGUAGE", "")
    for code, _quality in parse_accept_lang_header(header[:1000]):
        if code == "*":
            break
        if language_code_re.search(code):
            found = supported(code)
            if found:
                return found
    return None


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



def socket_language(scope) -> str:
    """A websocket's language, chosen as its page's was: the player's saved choice, then
    the language cookie, then the handshake's Accept-Language, then the site's default."""
    saved = user_language(scope.get("user"))
    if saved:
        return saved
    request = HttpRequest()
    request.COOKIES = dict(scope.get("cookies") or {})
    for name, value in scope.get("headers") or ():
        if name.lower() == b"accept-language":
            request.META["HTTP_ACCEPT_LANGUAGE"] = value.decode("latin-1")
    return translation.get_language_from_request(request)
