# Two commands (see README):  `make run` starts the app, `make test` runs every test.
# Both create ./.venv and install the project into it first; nothing else is needed.
PY ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
PORT ?= 8501

.PHONY: run test chromium bench lint clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[test,dask]"
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/python -m streamlit run app.py --server.port $(PORT)

# The browser tests drive Debian's chromium (never a downloaded browser build).
chromium:
	@test -x /usr/bin/chromium || { \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq chromium; }

# Two workers (pytest-xdist), one per core; the browser tests all go to one of them
# (--dist loadgroup), which starts the app server on a free port.  One test alone:
# .venv/bin/python -m pytest tests/test_x.py::name
# Bytecode is written even where the environment says not to (PYTHONDONTWRITEBYTECODE=1 on
# the CI machines): without it every worker, app server and joblib process compiled rulecore
# and the tests again (pytest's assertion rewriting alone was 9 s of each worker's 16 s
# collection).  __pycache__ is ignored by git.
test: $(STAMP) chromium
	$(BIN)/ruff check .
	env -u PYTHONDONTWRITEBYTECODE $(BIN)/python -m pytest -n 2 --dist loadgroup

lint: $(STAMP)
	$(BIN)/ruff check .

clean:
	rm -rf $(VENV) tests/artifacts
