PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup test lint demo bench e2e eval fuzz docs soak clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)

lint: $(STAMP)
	$(BIN)/ruff check src tests bench examples
	$(BIN)/mypy

test: $(STAMP) lint
	$(BIN)/pytest

demo: $(STAMP)
	@$(BIN)/python examples/demo.py

bench: $(STAMP)
	$(BIN)/python bench/bench.py

e2e: $(STAMP)
	$(BIN)/pytest -m e2e tests/e2e

eval: $(STAMP)
	$(BIN)/python -m tooldiff.eval

fuzz: $(STAMP)
	TOOLDIFF_FUZZ_EXAMPLES=5000 $(BIN)/pytest tests/test_fuzz.py

docs: $(STAMP)
	$(BIN)/python -m tooldiff.docs > docs/rules.md
	$(BIN)/python docs/screenshot.py

clean:
	rm -rf $(VENV) build dist *.egg-info
soak: $(STAMP)
	$(BIN)/python bench/soak.py
