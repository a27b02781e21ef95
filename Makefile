# mcp_lab -- set-up, Lab, tests and benchmarks.
#
# Theory of operation: `setup` is a chain of stamp files, so a second run with nothing changed
# costs one prerequisite check (a few hundred ms) and a handful of mtime comparisons:
#   .venv/bin/python                      created once, with the Python tools/check_prereqs.sh finds
#   .venv/.stamp-pip                      `pip install -e '.[dev]'`, redone when pyproject.toml changes
#   .venv/.stamp-kernel                   `ipykernel install --sys-prefix`, redone after a reinstall
#   <reference>/node_modules/.stamp-npm   `npm ci`, redone when package(-lock).json changes
#   <suite>/node_modules/.stamp-npm       `npm ci` of the pinned conformance suite and its Node 22
#                                         (the `node` npm package), redone when its lock changes;
#                                         a fresh install takes 10-18 s and 240 MB
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
SUITE := mcp_lab/conformance/suite
SUITE_STAMP := $(SUITE)/node_modules/.stamp-npm
# Jupyter refuses to run as root unless told to (CI and these machines run as root).
ALLOW_ROOT := $(if $(filter 0,$(shell id -u)),--ServerApp.allow_root=True)
PYTEST_ARGS ?=
LAB_ARGS ?=

.PHONY: setup prereqs lab test lint fmt bench clean

setup: prereqs $(PIP_STAMP) $(KERNEL_STAMP) $(NPM_STAMP) $(SUITE_STAMP)

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

# The suite needs Node >= 22; the `node` package's preinstall fetches the matching platform binary
# from the npm registry at install time (package.json's allowScripts approves that one script), so
# nothing is downloaded when the suite runs. The system Node (>= 20) only runs npm. Run it as
# PATH=$(SUITE)/node_modules/node/bin:$$PATH $(SUITE)/node_modules/.bin/conformance ...
$(SUITE_STAMP): $(SUITE)/package.json $(SUITE)/package-lock.json | prereqs
	cd $(SUITE) && npm ci --no-audit --no-fund
	@$(SUITE)/node_modules/node/bin/node -e 'process.exit(+process.versions.node.split(".")[0] >= 22 ? 0 : 1)' \
		|| { echo "the pinned Node 22 in $(SUITE) did not install"; exit 1; }
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
	rm -rf $(VENV) $(REF)/node_modules $(SUITE)/node_modules build dist .pytest_cache .hypothesis test-output test-results .ruff_cache .import_linter_cache
	rm -rf *.egg-info
	find . -path ./.git -prune -o \( -name __pycache__ -o -name .ipynb_checkpoints \) -type d -prune -exec rm -rf {} +
