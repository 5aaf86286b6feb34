# Belegt: two commands on a fresh machine with Python 3.11+.
#   make run   – the application on the embedded PostgreSQL + a real Celery worker
#   make test  – the whole test suite
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: install run test lint imports typecheck check messages clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

# setup.py builds the compiled citation reader in place: a change to its C
# source reinstalls (and so rebuilds) it.
$(STAMP): pyproject.toml setup.py citations/domain/_cparser.c | $(PY)
	$(PY) -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

install: $(STAMP)

run: install
	$(PY) -m config.launcher

test: install
	$(PY) -m pytest $(PYTEST_ARGS)

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

# The import contracts of DESIGN.md section 2 ([tool.importlinter] in pyproject.toml).
imports: install
	$(VENV)/bin/lint-imports

typecheck: install
	$(VENV)/bin/mypy .

check: lint imports typecheck
	$(PY) manage.py makemigrations --check --dry-run

messages: install
	$(PY) manage.py makemessages -l de --ignore=.venv --ignore=var --ignore=test-artifacts --ignore=benchmarks
	$(PY) manage.py compilemessages --ignore=.venv

clean:
	rm -rf $(VENV) var build citations/domain/_cparser.*.so
