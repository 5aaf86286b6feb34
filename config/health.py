"""Site-wide plain views: liveness for load balancers and docker compose, and
the 404 handler."""

from django.db import Error as DatabaseFailure
from django.db import connection
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from django.views.defaults import page_not_found


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except DatabaseFailure:  # any database failure means "not healthy"
        return JsonResponse({"status": "error", "database": "unreachable"}, status=503)
    return JsonResponse({"status": "ok", "database": "ok"})


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """404 for the whole site: JSON with a stable code under /api/, the
    ordinary page elsewhere."""
    if request.path.startswith("/api/"):
        return JsonResponse(
            {"code": "not_found", "message": "No such resource."}, status=404
        )
    return page_not_found(request, exception or Http404())
