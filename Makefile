# The two commands a newcomer needs: `make run` and `make test`.

VENV ?= .venv
PYTHON := $(VENV)/bin/python
# Mark the last successful installs; pip re-runs only when a requirements file changes.
# The site needs only requirements.txt; the test and lint tools come with `make test`/`make lint`.
INSTALLED := $(VENV)/.installed
DEV_INSTALLED := $(VENV)/.installed-dev

.DEFAULT_GOAL := help

.PHONY: help install install-dev run test lint migrations-check check superuser

help:
	@echo "make run        install the site, migrate and serve http://127.0.0.1:8000"
	@echo "make test       install the test tools and run the suite (PYTEST_ARGS=\"-k lockout\" to narrow)"
	@echo "make lint       ruff check"
	@echo "make check      lint + missing-migrations check + tests (what CI runs)"
	@echo "make superuser  create an admin account (asks in a terminal; elsewhere set"
	@echo "                DJANGO_SUPERUSER_USERNAME, DJANGO_SUPERUSER_EMAIL, DJANGO_SUPERUSER_PASSWORD)"

$(PYTHON):
	python3 -m venv $(VENV)

$(INSTALLED): requirements.txt | $(PYTHON)
	$(PYTHON) -m pip install --disable-pip-version-check -r requirements.txt
	touch $(INSTALLED)

$(DEV_INSTALLED): requirements.txt requirements-dev.txt | $(PYTHON)
	$(PYTHON) -m pip install --disable-pip-version-check -r requirements-dev.txt
	touch $(INSTALLED) $(DEV_INSTALLED)

install: $(INSTALLED)

install-dev: $(DEV_INSTALLED)

run: install
	$(PYTHON) manage.py migrate
	$(PYTHON) manage.py runserver 127.0.0.1:8000

test: install-dev
	$(PYTHON) -m pytest $(PYTEST_ARGS)

lint: install-dev
	$(VENV)/bin/ruff check .

migrations-check: install-dev
	$(PYTHON) manage.py makemigrations --check --dry-run

check: lint migrations-check test

# Without a terminal, createsuperuser would ask nobody and do nothing: take the account
# from DJANGO_SUPERUSER_* instead, or say what is missing and fail.
superuser: install
	$(PYTHON) manage.py migrate
	@if [ -n "$$DJANGO_SUPERUSER_USERNAME$$DJANGO_SUPERUSER_PASSWORD" ]; then \
	  missing=""; \
	  for var in DJANGO_SUPERUSER_USERNAME DJANGO_SUPERUSER_EMAIL DJANGO_SUPERUSER_PASSWORD; do \
	    eval "value=\$$$$var"; [ -n "$$value" ] || missing="$$missing $$var"; \
	  done; \
	  if [ -n "$$missing" ]; then echo "make superuser: set$$missing too" >&2; exit 2; fi; \
	  $(PYTHON) manage.py createsuperuser --noinput; \
	elif [ -t 0 ]; then \
	  $(PYTHON) manage.py createsuperuser; \
	else \
	  echo "make superuser: no terminal to ask in. Set DJANGO_SUPERUSER_USERNAME," >&2; \
	  echo "DJANGO_SUPERUSER_EMAIL and DJANGO_SUPERUSER_PASSWORD, or run it in a terminal." >&2; \
	  exit 2; \
	fi
