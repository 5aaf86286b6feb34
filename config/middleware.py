"""Site-wide middleware."""

from django.conf import settings
from django.http import HttpRequest
from django.middleware.locale import LocaleMiddleware
from django.utils import translation


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
