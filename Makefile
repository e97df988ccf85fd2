# The two commands a newcomer needs: `make run` and `make test`.

VENV ?= .venv
PYTHON := $(VENV)/bin/python
# Marks the last successful install; re-runs pip only when a requirements file changes.
INSTALLED := $(VENV)/.installed

.DEFAULT_GOAL := help

.PHONY: help install run test lint migrations-check check superuser

help:
	@echo "make run        install, migrate and serve http://127.0.0.1:8000"
	@echo "make test       install and run the test suite (PYTEST_ARGS=\"-k lockout\" to narrow)"
	@echo "make lint       ruff check"
	@echo "make check      lint + missing-migrations check + tests (what CI runs)"
	@echo "make superuser  create an admin account"

$(PYTHON):
	python3 -m venv $(VENV)

$(INSTALLED): requirements.txt requirements-dev.txt | $(PYTHON)
	$(PYTHON) -m pip install --disable-pip-version-check -r requirements-dev.txt
	touch $(INSTALLED)

install: $(INSTALLED)

run: install
	$(PYTHON) manage.py migrate
	$(PYTHON) manage.py runserver 127.0.0.1:8000

test: install
	$(PYTHON) -m pytest $(PYTEST_ARGS)

lint: install
	$(VENV)/bin/ruff check .

migrations-check: install
	$(PYTHON) manage.py makemigrations --check --dry-run

check: lint migrations-check test

superuser: install
	$(PYTHON) manage.py migrate
	$(PYTHON) manage.py createsuperuser
