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
# Then the source; the application runs from it (templates/, static/ and
# locale/ live at the top of the tree, beside the packages).
COPY . .
ENV PYTHONPATH=/app
RUN DJANGO_SECRET_KEY=build DATABASE_URL=postgres://build@localhost/build \
    python manage.py collectstatic --noinput -v 0

RUN useradd --system --uid 1000 belegt && mkdir -p /data/media && chown belegt /data/media
USER belegt
EXPOSE 8000
CMD ["gunicorn", "config.wsgi", "--bind", "0.0.0.0:8000", "--workers", "3", "--threads", "4", "--timeout", "120", "--access-logfile", "-"]
