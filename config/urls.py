from typing import Any

from django.conf import settings
from django.conf.urls.static import static
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response

from config.health import healthz


class _JsonErrors:
    """Errors (401 for an anonymous client) as JSON with a code, like every
    other API error, not in the view's YAML or HTML renderer."""

    request: Any

    def handle_exception(self, exc: Exception) -> Response:
        self.request.accepted_renderer = JSONRenderer()
        self.request.accepted_media_type = JSONRenderer.media_type
        return super().handle_exception(exc)  # type: ignore[misc]


class SchemaApi(_JsonErrors, SpectacularAPIView):
    """The OpenAPI description (log-in required)."""


class SwaggerDocs(_JsonErrors, SpectacularSwaggerSplitView):
    """Swagger UI (log-in required); its initialiser is a script file."""


handler404 = "config.health.not_found"

urlpatterns = [
    path("", include("cases.urls")),
    path("evidence/", include("evidence.urls")),
    path("agents/", include("agents.urls")),
    path("review/", include("review.urls")),
    path("requirements/", include("ontology.urls")),
    path("citations/", include("citations.urls")),
    path("reports/", include("reports.urls")),
    path(
        "login/",
        auth_views.LoginView.as_view(redirect_authenticated_user=True),
        name="login",
    ),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("api/v1/", include("config.api_urls")),
    path("api/schema/", SchemaApi.as_view(), name="api-schema"),
    # Both need a log-in (SPECTACULAR_SETTINGS["SERVE_PERMISSIONS"]; README
    # "API documentation"). The split view serves its initialiser as a script
    # file, so the page runs under the CSP without inline script.
    path(
        "api/docs/",
        SwaggerDocs.as_view(url_name="api-schema", template_name="api/swagger_ui.html"),
        name="api-docs",
    ),
]
if settings.DEBUG:
    urlpatterns += static(settings.MEDIA_URL, document_root=settings.MEDIA_ROOT)
