PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup compile pure test lint demo bench e2e eval fuzz docs soak clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP)

# The hot modules, compiled to C by mypyc (shipped with mypy, a dev dependency; black and mypy ship the same
# way): `make bench` measures the check's CPU with and without them. The .py files stay the source, and
# tooldiff runs as plain Python where a module is not compiled (PURE=1, no C compiler, the container).
# Compiled code checks the declared types, so a module must not declare str where YAML may load a number:
# not positions (YAML keys such as `31:`). mypyc drops docstrings: `docs.docstring` reads a rule's from its
# source.
RULES := $(patsubst src/tooldiff/%.py,%,$(filter-out %/__init__.py,$(wildcard src/tooldiff/rules/*.py)))
COMPILED := terms pairs overlap schemahash schemawalk engine tokens blast report $(RULES)
COMPILED_STAMP := src/tooldiff/.compiled

$(COMPILED_STAMP): $(STAMP) $(COMPILED:%=src/tooldiff/%.py)
	@find src -name "*.so" -delete
ifeq ($(PURE),)
	@echo "mypyc: compiling $(words $(COMPILED)) modules (a minute or two; PURE=1 skips it)"
	@cd src && ../$(BIN)/mypyc $(COMPILED:%=tooldiff/%.py) > ../$(VENV)/mypyc.log 2>&1 \
		|| { find . -name "*.so" -delete; echo "mypyc failed (see $(VENV)/mypyc.log): tooldiff runs as plain Python"; \
		     grep -E '^tooldiff/[^ ]+\.py:[0-9]+: ' ../$(VENV)/mypyc.log | head -3; }
	@rm -rf src/build
endif
	@touch $@

setup: $(STAMP) $(COMPILED_STAMP)

compile:
	@rm -f $(COMPILED_STAMP)
	@$(MAKE) --no-print-directory $(COMPILED_STAMP)

# Back to plain Python until the next `make compile` (or an edit of a compiled module).
pure:
	find src -name "*.so" -delete
	touch $(COMPILED_STAMP)

lint: $(STAMP)
	$(BIN)/ruff check src tests bench examples
	$(BIN)/mypy

test: $(STAMP) $(COMPILED_STAMP) lint
	$(BIN)/pytest

demo: $(STAMP) $(COMPILED_STAMP)
	@$(BIN)/python examples/demo.py

bench: $(STAMP) $(COMPILED_STAMP)
	$(BIN)/python bench/bench.py

e2e: $(STAMP) $(COMPILED_STAMP)
	$(BIN)/pytest -m e2e tests/e2e

eval: $(STAMP) $(COMPILED_STAMP)
	$(BIN)/python -m tooldiff.eval

fuzz: $(STAMP) $(COMPILED_STAMP)
	TOOLDIFF_FUZZ_EXAMPLES=5000 $(BIN)/pytest tests/test_fuzz.py

docs: $(STAMP) $(COMPILED_STAMP)
	$(BIN)/python -m tooldiff.docs > docs/rules.md
	$(BIN)/python docs/screenshot.py

clean:
	rm -rf $(VENV) build dist *.egg-info src/build src/*.so src/tooldiff/*.so src/tooldiff/rules/*.so $(COMPILED_STAMP)
soak: $(STAMP) $(COMPILED_STAMP)
	$(BIN)/python bench/soak.py
