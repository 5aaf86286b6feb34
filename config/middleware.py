"""Site-wide middleware."""

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.middleware.locale import LocaleMiddleware
from django.template.defaultfilters import filesizeformat
from django.utils import translation
from django.utils.translation import gettext as _


class GermanDefaultLocaleMiddleware(LocaleMiddleware):
    """German unless the person chose otherwise with the language switch.

    Django's own middleware follows the browser's Accept-Language, so most
    browsers would get English; for a German product the explicit choice
    (the language cookie set by ``set_language``) is what counts."""

    def process_request(self, request: HttpRequest) -> None:
        chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME, "")
        supported = {code for code, _ in settings.LANGUAGES}
        language = chosen if chosen in supported else settings.LANGUAGE_CODE
        translation.activate(language)
        request.LANGUAGE_CODE = translation.get_language()


class RequestBodyLimitMiddleware:
    """Refuse a request whose declared body is larger than
    BELEGT_MAX_REQUEST_BYTES with 413, before a byte of it is read.

    Without this, Django parses (and spools to a temporary file) the whole
    multipart body of an upload before the upload validation can look at a
    file's size: a 1 GiB body was written to disk first and refused after.
    It sits before CSRF and session handling, which would read the body.
    A body without Content-Length is never read past its (absent) length by
    Django's WSGI handler, so the declared length is the one to check."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        limit = int(settings.BELEGT_MAX_REQUEST_BYTES)
        try:
            declared = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            declared = 0
        if declared > limit:
            return request_too_large_response(request, declared=declared, limit=limit)
        return self.get_response(request)


def request_too_large_response(
    request: HttpRequest, *, declared: int, limit: int
) -> HttpResponse:
    """413 with the limit in the person's language: JSON for the API, a short
    text for pages (the documents page shows it in its result list)."""
    chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME, "")
    supported = {code for code, _name in settings.LANGUAGES}
    language = chosen if chosen in supported else settings.LANGUAGE_CODE
    with translation.override(language):
        message = _(
            "The upload is too large (%(size)s); at most %(limit)s can be sent "
            "at once. Nothing was stored."
        ) % {"size": filesizeformat(declared), "limit": filesizeformat(limit)}
    if request.path.startswith("/api/"):
        response: HttpResponse = JsonResponse(
            {
                "code": "request_too_large",
                "message": str(message),
                "limit_bytes": limit,
            },
            status=413,
        )
    else:
        response = HttpResponse(
            str(message), status=413, content_type="text/plain; charset=utf-8"
        )
    # The body is left unread: the server must not keep the connection.
    response["Connection"] = "close"
    return response


#: Browser features the application never uses, switched off for every page
#: (and for anything a compromised page could embed).
PERMISSIONS_POLICY = ", ".join(
    f"{feature}=()"
    for feature in (
        "accelerometer",
        "autoplay",
        "camera",
        "display-capture",
        "geolocation",
        "gyroscope",
        "magnetometer",
        "microphone",
        "midi",
        "payment",
        "publickey-credentials-get",
        "screen-wake-lock",
        "serial",
        "usb",
        "xr-spatial-tracking",
    )
)


class PermissionsPolicyMiddleware:
    """Adds the Permissions-Policy header (the Content-Security-Policy comes
    from django-csp's middleware)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.headers.setdefault("Permissions-Policy", PERMISSIONS_POLICY)
        return response


class NulCharacterMiddleware:
    """Refuse a query string that carries a NUL character with 400.

    PostgreSQL cannot hold NUL in text, so such a parameter reaching a query
    answered 500 (search, review filters, ...). No legitimate input contains
    one; refusing it in one place covers every page and API filter. (JSON and
    form bodies are validated by their serializers and forms.)"""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if "\x00" in request.META.get("QUERY_STRING", "") or any(
            "\x00" in key or "\x00" in value
            for key, values in request.GET.lists()
            for value in values
        ):
            return _invalid_characters_response(request)
        return self.get_response(request)


def _invalid_characters_response(request: HttpRequest) -> HttpResponse:
    message = _("The request contains a NUL character, which is not allowed.")
    if request.path.startswith("/api/"):
        return JsonResponse(
            {"code": "invalid_characters", "message": str(message)}, status=400
        )
    return HttpResponse(
        str(message), status=400, content_type="text/plain; charset=utf-8"
    )
