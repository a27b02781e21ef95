# mcp_lab -- set-up, Lab, tests and benchmarks.
#
# Theory of operation: `setup` is a chain of stamp files, so a second run with nothing changed
# costs one prerequisite check (a few hundred ms) and a handful of mtime comparisons:
#   .venv/bin/python                      created once, with the Python tools/check_prereqs.sh finds
#   .venv/.stamp-pip                      `pip install -e '.[dev]'`, redone when pyproject.toml changes
#   .venv/.stamp-kernel                   `ipykernel install --sys-prefix`, redone after a reinstall
#   <reference>/node_modules/.stamp-npm   `npm ci`, redone when package(-lock).json changes
# setuptools' editable install records the package folders that exist when pip runs; the pip
# stamp's name therefore says whether mcp_lab/__init__.py existed, so the install is redone
# once when the package first appears.
# Override the interpreter with `make PYTHON=/path/to/python3.12 setup` (before .venv exists).

SHELL := /bin/sh
VENV := .venv
VPY := $(VENV)/bin/python
REF := mcp_lab/servers/reference
PIP_STAMP := $(VENV)/.stamp-pip$(if $(wildcard mcp_lab/__init__.py),,-nopkg)
KERNEL_STAMP := $(VENV)/.stamp-kernel
NPM_STAMP := $(REF)/node_modules/.stamp-npm
# Jupyter refuses to run as root unless told to (CI and these machines run as root).
ALLOW_ROOT := $(if $(filter 0,$(shell id -u)),--ServerApp.allow_root=True)
PYTEST_ARGS ?=
LAB_ARGS ?=

.PHONY: setup prereqs lab test lint fmt bench clean

setup: prereqs $(PIP_STAMP) $(KERNEL_STAMP) $(NPM_STAMP)

prereqs:
	@sh tools/check_prereqs.sh >/dev/null

$(VPY): | prereqs
	@py=$$(sh tools/check_prereqs.sh) || exit 1; \
	echo "creating $(VENV) with $$py"; \
	"$$py" -m venv $(VENV)

$(PIP_STAMP): pyproject.toml | $(VPY)
	$(VPY) -m pip install --disable-pip-version-check --progress-bar off -q -e '.[dev]'
	@rm -f $(VENV)/.stamp-pip*
	@touch $@

$(KERNEL_STAMP): $(PIP_STAMP) mcp_lab/notebook/wire_kernel.py
	$(VPY) -m ipykernel install --sys-prefix
	$(VPY) -m mcp_lab.notebook.wire_kernel install --sys-prefix
	@touch $@

$(NPM_STAMP): $(REF)/package.json $(REF)/package-lock.json | prereqs
	cd $(REF) && npm ci --no-audit --no-fund
	@touch $@

# The server's root is the repository, so labs/ is reachable from the file browser; the page
# opens on notebooks/00-start-here.ipynb, with the file browser in notebooks/.
lab: setup
	$(VENV)/bin/jupyter lab --ServerApp.ip=127.0.0.1 --ServerApp.root_dir=. \
		--LabApp.default_url=/lab/tree/notebooks/00-start-here.ipynb \
		--KernelManager.transport_encryption=auto $(ALLOW_ROOT) $(LAB_ARGS)

# Lint, format check and the layer contract (pyproject.toml) run before any test: a few seconds.
LINT_PATHS := mcp_lab tests tools bench

lint: setup
	$(VENV)/bin/ruff check $(LINT_PATHS)
	$(VENV)/bin/ruff format --check $(LINT_PATHS)
	$(VENV)/bin/lint-imports --no-cache

test: lint
	@sh tools/ensure_chromium.sh
	$(VPY) -m pytest $(PYTEST_ARGS)

fmt: setup
	$(VENV)/bin/ruff check --fix $(LINT_PATHS)
	$(VENV)/bin/ruff format $(LINT_PATHS)

bench: setup
	$(VPY) bench/bench.py

clean:
	rm -rf $(VENV) $(REF)/node_modules build dist .pytest_cache .hypothesis test-output test-results .ruff_cache .import_linter_cache
	rm -rf *.egg-info
	find . -path ./.git -prune -o \( -name __pycache__ -o -name .ipynb_checkpoints \) -type d -prune -exec rm -rf {} +
