# officesim — the two quick-start commands are `make run` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
OUT    ?= runs/oracle

.PHONY: install system-deps run test validate bench suite docker docker-local clean

system-deps:  ## tesseract (OCR) and bubblewrap (shell sandbox), installed when missing
	@command -v tesseract >/dev/null && command -v bwrap >/dev/null || { \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq tesseract-ocr bubblewrap fonts-dejavu-core; }

$(BIN)/officesim: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e ".[test,bench]"
	@touch $@

install: system-deps $(BIN)/officesim  ## everything officesim needs

run: install  ## evaluate the oracle agent over the whole suite
	$(BIN)/officesim eval --agent oracle --overwrite --out $(OUT)
	@echo "Report: $(OUT)/report.html"

test: install  ## unit and end-to-end tests, then the suite validator
	$(BIN)/python -m pytest -n 2 --dist loadfile
	$(BIN)/officesim validate

validate: install
	$(BIN)/officesim validate

suite: install  ## regenerate tasks/suite from the scenario families
	$(BIN)/python -m tasks.build_suite

bench: install  ## performance benchmarks (prints a table, writes benchmarks/results/*.json)
	$(BIN)/python benchmarks/run_all.py

docker:  ## build the image officesim:latest from a registry base (python slim)
	docker build -t officesim:latest .

docker-local:  ## build the image on a machine without registry access (local Debian base; root)
	docker/build-local.sh

clean:
	rm -rf $(VENV) runs .pytest_cache
