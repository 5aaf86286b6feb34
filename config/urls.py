from django.conf import settings
from django.conf.urls.static import static
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from config.health import healthz

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
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # Both need a log-in (SPECTACULAR_SETTINGS["SERVE_PERMISSIONS"]; README
    # "API documentation"). The split view serves its initialiser as a script
    # file, so the page runs under the CSP without inline script.
    path(
        "api/docs/",
        SpectacularSwaggerSplitView.as_view(
            url_name="api-schema", template_name="api/swagger_ui.html"
        ),
        name="api-docs",
    ),
]
if settings.DEBUG:
    urlpatterns += static(settings.MEDIA_URL, document_root=settings.MEDIA_ROOT)
