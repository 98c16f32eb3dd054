# officesim — the two quick-start commands are `make run` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
OUT    ?= runs/oracle

.PHONY: install system-deps browser run test validate validate-hard validate-imports hard bench suite docker docker-local clean

system-deps:  ## tesseract (OCR), bubblewrap (shell sandbox), ImageMagick (the shell's image tool), fonts and python venv, installed when missing
	@missing=""; \
	command -v tesseract >/dev/null || missing="$$missing tesseract-ocr"; \
	command -v bwrap >/dev/null || missing="$$missing bubblewrap"; \
	command -v identify >/dev/null || missing="$$missing imagemagick"; \
	[ -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || missing="$$missing fonts-dejavu-core"; \
	$(PYTHON) -c "import ensurepip, venv" 2>/dev/null || missing="$$missing python3-venv"; \
	if [ -n "$$missing" ]; then \
	  echo "installing system packages:$$missing"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing; \
	fi

$(BIN)/officesim: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e ".[test,bench,inspect,docs,ray]"
	@touch $@

install: system-deps $(BIN)/officesim  ## everything officesim needs

# Only the tests open a browser (tests/test_report_browser.py, tests/test_docs_offline.py): `make run` never needs one.
browser: $(BIN)/officesim  ## headless Chromium for the browser tests: Debian's chromium, else Playwright's own build
	@command -v chromium >/dev/null || command -v chromium-browser >/dev/null || { \
	  echo "installing system package: chromium"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  { $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends chromium; } \
	  || $(BIN)/python -m playwright install chromium; }

run: install  ## evaluate the oracle agent over the whole suite
	$(BIN)/officesim eval --agent oracle --overwrite --out $(OUT)
	@echo "Report: $(OUT)/report.html"

test: install browser  ## unit and end-to-end tests (the docs site build among them), then the suite validator with mutation testing
	$(BIN)/python -m pytest -n 2 --dist loadfile
	$(BIN)/officesim validate --mutants --with-suite --tasks tasks/examples

validate: install
	$(BIN)/officesim validate --with-suite --tasks tasks/examples

validate-hard: install  ## prove the hard split (gold and up to 3 mutants of each class per task); about 100 min on 2 cores, a line per task as it finishes
	$(BIN)/officesim validate --split hard --mutants --sample 3 --json runs/hard-mutants.json

BENCHMARKS ?= ../shared/benchmarks
IMPORTS    ?= runs/imports
validate-imports: install  ## import OfficeBench and WorkBench (from $(BENCHMARKS)) and prove every task with its mutants; about an hour on 2 cores
	rm -rf $(IMPORTS) && mkdir -p $(IMPORTS)
	$(BIN)/officesim import officebench --source $(BENCHMARKS)/officebench --out $(IMPORTS)/officebench
	$(BIN)/officesim import workbench --source $(BENCHMARKS)/workbench --out $(IMPORTS)/workbench
	$(BIN)/officesim validate --mutants --tasks $(IMPORTS)/officebench --json $(IMPORTS)/officebench-mutants.json
	$(BIN)/officesim validate --mutants --tasks $(IMPORTS)/workbench --json $(IMPORTS)/workbench-mutants.json

hard: install  ## regenerate tasks/hard from the hard scenarios and their worlds
	$(BIN)/python -m officesim.tasks.build_hard

suite: install  ## regenerate tasks/suite from the scenario families
	$(BIN)/python -m officesim.tasks.build_suite

bench: install  ## performance benchmarks (prints a table, writes benchmarks/results/*.json); wrk is the C load generator of the concurrency figure
	@command -v wrk >/dev/null || { SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends wrk; } \
	  || echo "wrk could not be installed: the concurrency figure is measured by the Python clients only"
	$(BIN)/python benchmarks/run_all.py

docker:  ## build the image officesim:latest from a registry base (python slim)
	docker build -t officesim:latest .

docker-local:  ## build the image on a machine without registry access (local Debian base; root)
	docker/build-local.sh

clean:
	rm -rf $(VENV) runs .pytest_cache
