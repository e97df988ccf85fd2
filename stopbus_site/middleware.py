"""Requests no page takes are refused before any view reads them: a method other than
GET, HEAD or POST (OPTIONS is answered with the methods taken), and text that cannot be
stored (in the path, the query string, the cookies or a form's fields).

PostgreSQL refuses a NUL character in text, so a username or a session cookie
holding one would end in a database error (a 500) wherever it reached a query;
SQLite would quietly look it up. No name, code, page number or cookie of ours
holds a NUL or a lone surrogate, so such a request is answered 400 here, the
same on every database.
"""

from __future__ import annotations

from django.core.exceptions import BadRequest, SuspiciousOperation
from django.http import HttpResponse, HttpResponseNotAllowed, QueryDict
from django.shortcuts import render
from django.utils.datastructures import MultiValueDict
from django.views.defaults import bad_request

# every page and form of the site is read with GET (or HEAD) and sent with POST
METHODS = ("GET", "HEAD", "POST")


def unreadable(text: str) -> bool:
    if "\x00" in text:
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate
        return True
    return False


class RefuseUnreadableRequests:
    """Path, query string, cookies and a form's fields: 400 if any holds text that cannot
    be stored."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        texts = [request.path_info]
        try:
            query = request.GET.lists()
        except SuspiciousOperation:  # more fields than Django reads (TooManyFieldsSent)
            return bad_request(request, BadRequest("A query string that cannot be read."))
        for key, values in query:
            texts.append(key)
            texts.extend(values)
        texts.extend(request.COOKIES)
        texts.extend(request.COOKIES.values())
        if request.method == "POST":
            try:
                # the body first, kept: a view that reads it (a JSON endpoint sent a form
                # anyway) still can once the form is read from it below
                request.body  # noqa: B018
                fields = request.POST  # a form's fields (empty for a JSON body)
            except Exception:  # too big, or a body that does not parse as the form it
                # claims to be: answered as an empty form, so that nothing reads it again
                # (the 400 page's own CSRF check would, and log a traceback)
                request._post, request._files = QueryDict(), MultiValueDict()
                return bad_request(request, BadRequest("A form that cannot be read."))
            for key, values in fields.lists():
                texts.append(key)
                texts.extend(values)
        if any(unreadable(text) for text in texts):
            # answered here rather than raised, so the log is not filled with tracebacks
            return bad_request(request, BadRequest("Characters no page uses."))
        return self.get_response(request)


class RefuseUnknownMethods:
    """PUT, DELETE, PATCH, TRACE, WebDAV's and any other method: 405, with the methods the
    site takes; OPTIONS: those methods, and nothing else. (A view that takes only some
    of them says so itself: ``require_POST``, ``require_safe``.)"""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method in METHODS:
            return self.get_response(request)
        if request.method == "OPTIONS":
            response = HttpResponse(status=200)
            response["Allow"] = ", ".join((*METHODS, "OPTIONS"))
            response["Content-Length"] = "0"
            return response
        return HttpResponseNotAllowed(METHODS)


class ExplainNotAllowed:
    """A page opened at the address of a button's form (``/tables/new/``, a table's
    ``leave/``: views that take only a POST) is a 405 with a page that says so, in the
    reader's language, rather than a blank one. Other methods, HEAD, htmx's requests and
    every other answer pass as they are."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if (request.method == "GET" and response.status_code == 405 and not response.content
                and not request.headers.get("HX-Request")):
            page = render(request, "405.html", status=405)
            page["Allow"] = response.get("Allow", "POST")
            return page
        return response


class OneLine:
    """A logging filter: a record logged with its traceback is kept without it. For
    ``django.security``: a request with a Host the site does not serve, or a form past the
    size limit, is the client's mistake, answered 400; one line says so, and anyone
    sending such requests does not fill the log with tracebacks."""

    def filter(self, record) -> bool:
        record.exc_info = None
        record.exc_text = None
        return True
