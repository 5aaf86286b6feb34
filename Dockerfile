# Image for web and worker (docker-compose.yml). Debian-based, like CI.
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 \
    DJANGO_SETTINGS_MODULE=config.settings.base

RUN apt-get update \
 && apt-get install -y --no-install-recommends \
      tesseract-ocr tesseract-ocr-deu tesseract-ocr-eng curl \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /app
# Dependencies first, from pyproject.toml alone: this layer is rebuilt only
# when the dependencies change, not on every change to the source.
COPY pyproject.toml ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" > /tmp/requirements.txt \
 && pip install --no-cache-dir -r /tmp/requirements.txt \
 && rm /tmp/requirements.txt
# The compiled citation reader (citations/domain/_cparser.c), from setup.py and
# its C source alone (this layer too survives other source edits), in a
# directory of its own (pyproject.toml there would need a newer setuptools).
# The compiler is installed and removed in this one step, so the image keeps
# none. BELEGT_CITATIONS_COMPILED=1: a failed compile fails the build instead
# of leaving the parser on its slower Python steps without a word.
COPY setup.py /tmp/cparser/
COPY citations/domain/_cparser.c /tmp/cparser/citations/domain/
RUN apt-get update \
 && apt-get install -y --no-install-recommends gcc libc6-dev \
 && (python -c "import setuptools" || pip install --no-cache-dir setuptools) \
 && cd /tmp/cparser \
 && BELEGT_CITATIONS_COMPILED=1 python setup.py -q build_ext --inplace \
 && mkdir -p /app/citations/domain \
 && cp citations/domain/_cparser.*.so /app/citations/domain/ \
 && cd /app && rm -rf /tmp/cparser \
 && apt-get purge -y --auto-remove gcc libc6-dev \
 && rm -rf /var/lib/apt/lists/*
# Then the source; the application runs from it (templates/, static/ and
# locale/ live at the top of the tree, beside the packages). .dockerignore
# keeps a build of the host's out.
COPY . .
ENV PYTHONPATH=/app
# the compiled reader loads in this Python (or the build stops here)
RUN BELEGT_CITATIONS_COMPILED=1 python -c "from citations.domain.parser_compiled \
import compiled_parser; compiled_parser()" \
 && DJANGO_SECRET_KEY=build DATABASE_URL=postgres://build@localhost/build \
    python manage.py collectstatic --noinput -v 0

RUN useradd --system --uid 1000 belegt && mkdir -p /data/media && chown belegt /data/media
USER belegt
EXPOSE 8000
CMD ["gunicorn", "config.wsgi", "--bind", "0.0.0.0:8000", "--workers", "3", "--threads", "4", "--timeout", "120", "--access-logfile", "-"]
