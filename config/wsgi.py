import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
application = get_wsgi_application()

# Each web worker imports this after the fork (no preload): the query embedder
# is loaded and warmed in the background while the worker already serves.
from evidence.search_vectors import query_vectors_warm_start  # noqa: E402

query_vectors_warm_start()
