# Two entry points: `make demo` and `make test`. Each creates .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: demo test bench clean

$(BIN)/kifu: pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -c constraints.txt -e '.[test]'
	touch $@

demo: $(BIN)/kifu
	$(BIN)/kifu demo

test: $(BIN)/kifu
	$(BIN)/python -m pytest -q

bench: $(BIN)/kifu
	$(BIN)/python benchmarks/rules_replay.py

clean:
	rm -rf $(VENV) build *.egg-info
