# Two entry points for a fresh machine with python3 and make: `make demo` and `make test`.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: demo test lint bench clean

$(STAMP): pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	# Ajv, an independent JSON Schema validator the tests compare our schemas with.
	if command -v npm >/dev/null; then npm install --prefix $(VENV)/node --silent --no-audit \
		--no-fund --no-save ajv@8; fi
	touch $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/ludex check

test: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ludex validate --strict
	$(PY) -m pytest

bench: $(STAMP)
	$(PY) benchmarks/validate.py
	$(PY) benchmarks/engine.py
	$(PY) benchmarks/game.py

clean:
	rm -rf $(VENV) build dist
