# Two entry points for a fresh machine with python3 and make: `make demo` and `make test`.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: demo test lint bench fuzz clean screenshots reports strength

$(STAMP): pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[dev,ray]'
	# Ajv, an independent JSON Schema validator the tests compare our schemas with.
	if command -v npm >/dev/null; then npm install --prefix $(VENV)/node --silent --no-audit \
		--no-fund --no-save ajv@8; fi
	# Debian's Chromium, which the browser tests drive (the table's, tests/test_table_browser.py,
	# and the balance report's, tests/test_report.py);
	# skipped where it is installed already or where apt cannot install as this user.
	if ! command -v chromium >/dev/null && command -v apt-get >/dev/null \
		&& [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -qq --no-install-recommends chromium >/dev/null; fi
	touch $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/ludex check

test: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ludex validate --strict
	$(PY) -m pytest -n auto

# Every benchmark; the JSON it writes is what the README's speed table is made from.
bench: $(STAMP)
	$(PY) benchmarks/all.py --output benchmarks/results.json
	$(PY) scripts/update_docs.py speed

# Long fuzzing runs (the test suite runs the same briefly), on both cores: mutated content,
# generated programs (4 generators x 25,000), mutated saves and mutated scenarios must give
# results or diagnostics, never a crash; 10,000 random games per bundled game must keep their
# invariants.
fuzz: $(STAMP)
	for game in tests/games/tiny games/imperium games/sword_of_rome; do \
		$(PY) -m tests.fuzz.content_mutations $$game 5000 $${SEED:-0} || exit 1; done
	$(PY) -m tests.fuzz.programs 25000 $${SEED:-0} 2
	$(PY) -m tests.fuzz.save_mutations 1000 $${SEED:-0}
	for game in tests/games/wagers games/imperium games/sword_of_rome; do \
		$(PY) -m tests.fuzz.scenario_mutations $$game 2000 $${SEED:-0} || exit 1; done
	for game in games/imperium games/sword_of_rome; do \
		$(PY) -m tests.fuzz.invariants $$game 10000 $${SEED:-0} 2 20 || exit 1; done

# The table's pictures in docs/ (docs/table.md, the README), taken by its browser tests.
screenshots: $(STAMP)
	LUDEX_SCREENSHOTS=docs/images $(PY) -m pytest -q tests/test_table_browser.py

# The balance reports of 1,000 games of each bundled game, opened in headless Chromium (the
# test suite does the same with fewer games).
reports: $(STAMP)
	LUDEX_REPORT_GAMES=$${GAMES:-1000} $(PY) -m pytest -q tests/test_report.py

# MCTS's strength: its win rate, over every seat, against random and greedy players.
# GAMES and BUDGET (iterations a decision) trade time for narrower intervals.
strength: $(STAMP)
	mkdir -p build
	for other in random greedy; do \
		$(VENV)/bin/ludex simulate imperium --players 3 --games $${GAMES:-60} --workers 2 \
			--agents mcts:$${BUDGET:-30},$$other,$$other --rotate \
			--report build/strength-imperium-$$other.html | grep -E "^[0-9]|agent" || exit 1; \
		$(VENV)/bin/ludex simulate sword_of_rome --players 2 --games $${GAMES:-60} \
			--workers 2 --agents mcts:$${BUDGET:-10},$$other --rotate \
			--report build/strength-sword_of_rome-$$other.html | grep -E "^[0-9]|agent" || exit 1; \
	done

clean:
	rm -rf $(VENV) build dist
