# Image for web and worker (docker-compose.yml). Debian-based, like CI.
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 \
    DJANGO_SETTINGS_MODULE=config.settings.base

RUN apt-get update \
 && apt-get install -y --no-install-recommends \
      tesseract-ocr tesseract-ocr-deu tesseract-ocr-eng curl \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY pyproject.toml README.md ./
COPY config ./config
COPY cases ./cases
COPY evidence ./evidence
COPY agents ./agents
COPY ontology ./ontology
COPY citations ./citations
COPY review ./review
COPY reports ./reports
RUN pip install --no-cache-dir .
COPY . .
RUN DJANGO_SECRET_KEY=build DATABASE_URL=postgres://build@localhost/build \
    python manage.py collectstatic --noinput -v 0

RUN useradd --system --uid 1000 belegt && mkdir -p /data/media && chown belegt /data/media
USER belegt
EXPOSE 8000
CMD ["gunicorn", "config.wsgi", "--bind", "0.0.0.0:8000", "--workers", "3", "--threads", "4", "--timeout", "120", "--access-logfile", "-"]
