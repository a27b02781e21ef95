# mcp_lab -- set-up, Lab, tests and benchmarks.
#
# Theory of operation: `setup` is a chain of stamp files, so a second run with nothing changed
# costs one prerequisite check (a few hundred ms) and a handful of mtime comparisons:
#   .venv/bin/python                      created once, with the Python tools/check_prereqs.sh finds
#   .venv/.stamp-pip                      `pip install -e '.[course,dev]'`, redone when pyproject.toml changes
#   .venv/.stamp-kernel                   `ipykernel install --sys-prefix`, redone after a reinstall
#   <reference>/node_modules/.stamp-npm   `npm ci`, redone when package(-lock).json changes
#   <suite>/node_modules/.stamp-npm       `npm ci` of the pinned conformance suite and its Node 22
#                                         (the `node` npm package), redone when its lock changes;
#                                         a fresh install takes 10-18 s and 240 MB
#   .venv/.stamp-teach                    `pip install -e '.[course,dev,teach]'` (JupyterHub, nbgrader)
#   classroom/hub/node_modules/.stamp-npm `npm ci` of the hub's configurable-http-proxy
# `make teach` adds the last two (make test, bench-hub and wheelhouse need them); `make hub` installs them
# without the conformance suite (target hub-install).
# `make setup OFFLINE=path/to/bundle` installs everything, teach included, from a classroom
# bundle written by `make wheelhouse` (pip --no-index, npm --offline): no network at all.
#   <venv>/share/jupyter/lab/settings/overrides.json   JupyterLab defaults for this environment
#                                         (the news pop-up off), copied from tools/lab-overrides.json
#   tools/inspector/node_modules/.stamp-npm  the MCP Inspector + Node 22 (`npm ci`): not part of
#                                         `setup`; `make inspector` and `make test` need it
# setuptools' editable install records the package folders that exist when pip runs; the pip
# stamp's name therefore says whether mcp_lab/__init__.py existed, so the install is redone
# once when the package first appears.
# Override the interpreter with `make PYTHON=/path/to/python3.12 setup` (before .venv exists).

SHELL := /bin/sh
VENV := .venv
VPY := $(VENV)/bin/python
# A .venv records the folder it was made in (the shebang of its pip, pyvenv.cfg's `command`): its
# scripts, its kernels and its editable install of mcp_lab all point there.  In a copied or moved
# checkout they would run the ORIGINAL folder's code, silently.  So every make run first compares
# that folder with this one and, when they differ, says so in one line and removes .venv, which
# the set-up below then makes again here (about a minute).  `make -n` only says it.
VENV_MADE_IN := $(shell sed -n '1s|^\#!\(.*\)/bin/python[0-9.]*$$|\1|p' $(VENV)/bin/pip 2>/dev/null)
ifneq ($(VENV_MADE_IN),)
ifneq ($(realpath $(VENV_MADE_IN)),$(realpath $(VENV)))
$(info mcp_lab set-up: .venv was made in $(VENV_MADE_IN), not in this folder (a copied or moved checkout); making it again here)
ifeq ($(findstring n,$(firstword -$(MAKEFLAGS))),)
$(shell rm -rf $(VENV))
endif
endif
endif
REF := mcp_lab/servers/reference
PIP_STAMP := $(VENV)/.stamp-pip$(if $(wildcard mcp_lab/__init__.py),,-nopkg)
KERNEL_STAMP := $(VENV)/.stamp-kernel
NPM_STAMP := $(REF)/node_modules/.stamp-npm
INSPECTOR := tools/inspector
INSPECTOR_STAMP := $(INSPECTOR)/node_modules/.stamp-npm
LAB_SETTINGS := $(VENV)/share/jupyter/lab/settings/overrides.json
SUITE := mcp_lab/conformance/suite
SUITE_STAMP := $(SUITE)/node_modules/.stamp-npm
# Jupyter refuses to run as root unless told to (CI and these machines run as root).
ALLOW_ROOT := $(if $(filter 0,$(shell id -u)),--ServerApp.allow_root=True)
HUB := classroom/hub
TEACH_STAMP := $(VENV)/.stamp-teach
HUB_NPM_STAMP := $(HUB)/node_modules/.stamp-npm
PYTEST_ARGS ?=
# Four workers on two cores: much of the suite's time is spent waiting (on kernels, servers,
# browsers and installs), not computing.  Work is handed out in units, longest first: a whole
# test file, or one notebook's re-run (tests/conftest.py, "Scheduling").
# `make test PYTEST_WORKERS=0` runs everything in one process.
PYTEST_WORKERS ?= 4
LAB_ARGS ?=
# Where `make wheelhouse` writes the classroom bundle; OFFLINE= is a bundle to install from.
BUNDLE ?= build/classroom-bundle
OFFLINE ?=
PIP_SOURCE := $(if $(OFFLINE),--no-index --find-links $(abspath $(OFFLINE))/wheels)
PIP_INSTALL := pip install --disable-pip-version-check --progress-bar off -q
# npm's settings as environment variables, so an install script's own nested npm (the `node`
# package fetching its binary) reads the bundle's cache offline too.
NPM_ENV := $(if $(OFFLINE),npm_config_offline=true npm_config_cache=$(abspath $(OFFLINE))/npm-cache)

.PHONY: durations translations lab-pt node-parts python-parts lite lite-serve recordings setup prereqs teach hub-install lab labs test lint check fmt bench hub bench-hub wheelhouse clean inspector inspector-install

setup: prereqs $(PIP_STAMP) $(KERNEL_STAMP) $(NPM_STAMP) $(SUITE_STAMP) $(LAB_SETTINGS) $(if $(OFFLINE),$(TEACH_STAMP) $(HUB_NPM_STAMP))

teach: setup $(TEACH_STAMP) $(HUB_NPM_STAMP)

# What the workshop hub and its learners' servers need, and no more: the package with the teach
# extra, the kernels, the reference server, the Lab's defaults and the hub's proxy; not the
# conformance suite and its Node 22 (notebook 14 needs it: `make setup` adds it).
hub-install: prereqs $(PIP_STAMP) $(KERNEL_STAMP) $(NPM_STAMP) $(LAB_SETTINGS) $(TEACH_STAMP) $(HUB_NPM_STAMP)

prereqs:
	@sh tools/check_prereqs.sh >/dev/null
	@if [ -n "$(OFFLINE)" ]; then \
		if [ ! -d "$(OFFLINE)/wheels" ]; then \
			echo "mcp_lab set-up: OFFLINE=$(OFFLINE) is not a classroom bundle (no wheels/ folder in it); write one with make wheelhouse" >&2; exit 1; fi; \
		want=$$(cat "$(OFFLINE)/PLATFORM" 2>/dev/null); \
		have=$$($$(sh tools/check_prereqs.sh) -c 'import sys, sysconfig; print(f"cp{sys.version_info[0]}{sys.version_info[1]}-{sysconfig.get_platform()}")'); \
		if [ "$$want" != "$$have" ]; then \
			echo "mcp_lab set-up: the bundle $(OFFLINE) holds wheels for $${want:-an unknown platform}, this machine's Python is $$have; write a bundle with make wheelhouse on a machine like this one" >&2; exit 1; fi; \
	fi

$(VPY): | prereqs
	@py=$$(sh tools/check_prereqs.sh) || exit 1; \
	echo "creating $(VENV) with $$py"; \
	"$$py" -m venv $(VENV)

$(PIP_STAMP): pyproject.toml | $(VPY)
	$(VPY) -m $(PIP_INSTALL) $(PIP_SOURCE) -e '.[course,dev]'
	@rm -f $(VENV)/.stamp-pip*
	@touch $@

# A teacher's tools, not a learner's: only the targets that need them install them.
$(TEACH_STAMP): pyproject.toml $(PIP_STAMP)
	$(VPY) -m $(PIP_INSTALL) $(PIP_SOURCE) -e '.[course,dev,teach]'
	@touch $@

$(KERNEL_STAMP): $(PIP_STAMP) mcp_lab/notebook/wire_kernel.py
	$(VPY) -m ipykernel install --sys-prefix
	$(VPY) -m mcp_lab.notebook.wire_kernel install --sys-prefix
	@touch $@

$(NPM_STAMP): $(REF)/package.json $(REF)/package-lock.json | prereqs
	cd $(REF) && $(NPM_ENV) npm ci --no-audit --no-fund
	@touch $@

$(HUB_NPM_STAMP): $(HUB)/package.json $(HUB)/package-lock.json | prereqs
	cd $(HUB) && $(NPM_ENV) npm ci --no-audit --no-fund
	@touch $@

$(INSPECTOR_STAMP): $(INSPECTOR)/package.json $(INSPECTOR)/package-lock.json | prereqs
	cd $(INSPECTOR) && $(NPM_ENV) npm ci --no-audit --no-fund
	@touch $@

inspector-install: $(INSPECTOR_STAMP)


# The MCP Inspector's web UI on the bundled calendar (protocolEra auto), on 127.0.0.1 only.
inspector: setup $(INSPECTOR_STAMP)
	$(VPY) -m mcp_lab.course.inspector calendar

# JupyterLab reads <sys.prefix>/share/jupyter/lab/settings/overrides.json as this environment's
# defaults: the news pop-up (it covers part of every page) is off. A person's own settings win.
$(LAB_SETTINGS): tools/lab-overrides.json | $(VPY)
	@mkdir -p $(dir $@)
	cp tools/lab-overrides.json $@

# The suite needs Node >= 22; the `node` package's preinstall fetches the matching platform binary
# from the npm registry at install time (package.json's allowScripts approves that one script), so
# nothing is downloaded when the suite runs. The system Node (>= 20) only runs npm. Run it as
# PATH=$(SUITE)/node_modules/node/bin:$$PATH $(SUITE)/node_modules/.bin/conformance ...
$(SUITE_STAMP): $(SUITE)/package.json $(SUITE)/package-lock.json | prereqs
	cd $(SUITE) && $(NPM_ENV) npm ci --no-audit --no-fund
	@$(SUITE)/node_modules/node/bin/node -e 'process.exit(+process.versions.node.split(".")[0] >= 22 ? 0 : 1)' \
		|| { echo "the pinned Node 22 in $(SUITE) did not install"; exit 1; }
	@touch $@

# The server's root is the repository, so labs/ is reachable from the file browser; the page
# opens on notebooks/00-start-here.ipynb, with the file browser in notebooks/. The file browser
# does not list the teachers' labs/solutions and labs/source (Jupyter's default hidden names,
# plus those two folder names; tests/browser/test_lab_files.py starts a server with this line).
LAB_HIDE_GLOBS := ['__pycache__','*.pyc','*.pyo','.DS_Store','*~','solutions','source']
lab: setup
	$(VENV)/bin/jupyter lab --ServerApp.ip=127.0.0.1 --ServerApp.root_dir=. \
		--LabApp.default_url=/lab/tree/notebooks/00-start-here.ipynb \
		"--ContentsManager.hide_globs=$(LAB_HIDE_GLOBS)" \
		--KernelManager.transport_encryption=auto $(ALLOW_ROOT) $(LAB_ARGS)

# The Portuguese edition (pt-BR) opens in a Lab whose menus, dialogs and file browser speak Portuguese:
# the official language pack (course extra) and, for this Lab only, a user-settings folder of its own
# holding JupyterLab's translation setting (locale pt_BR), written once and then the learner's. `make
# lab` reads the environment's overrides (tools/lab-overrides.json: locale en), so the English edition
# opens in English whatever the machine's language. The page opens on the Portuguese 00 once it is
# generated (make translations), on README.pt-BR.md until then.
LAB_PT_SETTINGS := $(VENV)/share/jupyter/lab/user-settings-pt-BR
LAB_PT_LOCALE := $(LAB_PT_SETTINGS)/@jupyterlab/translation-extension/plugin.jupyterlab-settings
LAB_PT_START := $(if $(wildcard notebooks/pt-BR/00-start-here.ipynb),notebooks/pt-BR/00-start-here.ipynb,README.pt-BR.md)
$(LAB_PT_LOCALE): | $(VPY)
	@mkdir -p $(dir $@)
	cp tools/lab-pt-BR-locale.json $@

lab-pt: setup $(LAB_PT_LOCALE)
	$(VENV)/bin/jupyter lab --ServerApp.ip=127.0.0.1 --ServerApp.root_dir=. \
		--LabApp.default_url=/lab/tree/$(LAB_PT_START) \
		--LabApp.user_settings_dir=$(abspath $(LAB_PT_SETTINGS)) \
		"--ContentsManager.hide_globs=$(LAB_HIDE_GLOBS)" \
		--KernelManager.transport_encryption=auto $(ALLOW_ROOT) $(LAB_ARGS)

# The Portuguese edition's catalogs and notebooks (mcp_lab/course/translate.py): the English merged
# into every PO catalog (new entries untranslated, changed ones fuzzy), then notebooks/pt-BR/ and
# labs/pt-BR/ written from them. `make translations ADD=notebooks/02-json-rpc-by-hand.ipynb` starts
# the catalog of one more notebook (a lab's: ADD=labs/source/<lab>/<lab>.ipynb; labs/pt-BR/ is cut with
# nbgrader, hence the teach stamp); TRANSLATE_ROOT= works on another checkout (the tests' fixture).
TRANSLATE_ROOT ?= .
ADD ?=
translations: setup $(TEACH_STAMP)
	$(VPY) -m mcp_lab.course.translate --root $(TRANSLATE_ROOT) update $(ADD)
	$(VPY) -m mcp_lab.course.translate --root $(TRANSLATE_ROOT) build

# The labs from one source: labs/source/<lab>/ (nbgrader markers and metadata) gives the student
# versions in labs/ and the solutions in labs/solutions/; tests/test_labs.py fails when they differ.
labs: setup $(TEACH_STAMP)
	$(VPY) -m mcp_lab.course.generate

# Lint, format check, the layer contract and the type checker (pyproject.toml: [tool.importlinter],
# [tool.mypy]) run before any test: a few seconds, mypy's first run about ten.
LINT_PATHS := mcp_lab tests tools bench classroom

lint: setup
	$(VENV)/bin/ruff check $(LINT_PATHS)
	$(VENV)/bin/ruff format --check $(LINT_PATHS)
	$(VENV)/bin/lint-imports --no-cache
	$(VENV)/bin/mypy

# The inner loop: `make lint`, then the unit tests, every test that starts no process (a server, a
# kernel, a browser, the hub, an install): tests/_support/kinds.py marks the others `system`, and
# while only unit tests run it fails a test that starts a process unmarked.  Once set up: 15-19 s
# on an idle 2-core machine (about 700 tests), 50-115 s on one whose load is 9-11 (2026-12-05);
# `make test` runs everything.  Extra pytest arguments: PYTEST_ARGS, as for test.
check: lint
	$(VPY) -m pytest -q -m "not system" $(PYTEST_ARGS)

# Where Chromium cannot be had (not root, not Debian), everything else still runs and the browser
# tests report themselves skipped with the reason; under CI (CI=true) a missing browser fails.
# The MCP Inspector is a test prerequisite (a browser test drives it), installed once by its stamp.
# The browser edition's site is not: the first test that needs it runs `make lite` while the other
# workers go on with their tests, and the others wait for that one build (tests/_support/lite_site.py).
# The package's and the tests' bytecode is written once before pytest: where PYTHONDONTWRITEBYTECODE
# is set (as on these machines) every process the suite starts would otherwise compile them again.
test: lint teach $(INSPECTOR_STAMP)
	@sh tools/ensure_chromium.sh || { [ "$$CI" != true ] || exit 1; \
		echo "make test: no Chromium here: the browser tests will be skipped (each says why)" >&2; }
	@$(VPY) -m compileall -q -j0 -x node_modules mcp_lab tests >/dev/null
	$(VPY) -m pytest $(if $(filter 0,$(PYTEST_WORKERS)),,-n $(PYTEST_WORKERS) --dist loadscope --no-loadscope-reorder) $(PYTEST_ARGS)

# The order `make test` hands work out in: each test's time, measured by a whole run and written
# to tests/durations.json (commit it); the slowest unit starts first (tests/_support/durations.py).
durations: lint teach $(INSPECTOR_STAMP)
	MCP_LAB_RECORD_DURATIONS=$(abspath tests/durations.json) $(VPY) -m pytest -n $(PYTEST_WORKERS) --dist loadscope --no-loadscope-reorder $(PYTEST_ARGS)

fmt: setup
	$(VENV)/bin/ruff check --fix $(LINT_PATHS)
	$(VENV)/bin/ruff format $(LINT_PATHS)

# `make bench QUICK=1`: every row with a few rounds (rough figures; what tests/test_bench.py runs).
bench: setup
	$(VPY) bench/bench.py $(if $(filter-out 0,$(QUICK)),--quick)

# The workshop hub, run as root (classroom/hub/jupyterhub_config.py lists its settings:
# MCP_LAB_HUB_PORT, MCP_LAB_HUB_PASSWORD, ...); Ctrl-C stops it and every learner's server.
# `make hub NEW_GROUP=1` revokes every earlier session (a new group in the same room).
NEW_GROUP ?=
hub: hub-install
	$(if $(NEW_GROUP),MCP_LAB_HUB_NEW_GROUP=$(NEW_GROUP)) $(VENV)/bin/jupyterhub -f $(HUB)/jupyterhub_config.py

# Capacity of the hub on this machine: 1, 3 and 5 learners at once (docs/teaching.md, "Capacity").
bench-hub: hub-install
	$(VPY) bench/bench_hub.py

# The classroom bundle for a room without internet: every wheel and npm package set-up needs, and
# the browser edition's inputs (its build tools from the lite extra; its Pyodide wheels of
# lite/wheels.in, checked by sha256, beside the others in wheels/; npm's pyodide core, cached with
# every other pinned Node part), so `make lite OFFLINE=...` builds the site with no network.
wheelhouse: teach $(VENV)/.stamp-lite
	$(VPY) classroom/bundle.py $(BUNDLE)
	$(LITE_PIP_DOWNLOAD) -d $(BUNDLE)/wheels

# The browser edition (JupyterLite + Pyodide): a folder of static files, built offline from pinned
# inputs, that any static host can serve. Stamps, as for set-up:
#   .venv/.stamp-lite                 `pip install -e '.[course,dev,lite]'` (jupyterlite-core and its
#                                     Pyodide kernel, 0.8.6), redone when pyproject.toml changes
#   lite/node_modules/.stamp-npm      `npm ci` of lite/package-lock.json: the Pyodide core (npm pyodide)
#   build/lite-wheels/.stamp          the wheels of lite/wheels.in for Pyodide, checked by sha256
#   build/lite/.stamp                 tools/lite_build.py (lock, config, notebooks of both editions), then
#                                     jupyter lite build, then lab/pt-BR/ (the Lab in Portuguese)
# The inputs come from PyPI and npm, pinned and hashed, or with OFFLINE= from the classroom bundle
# `make wheelhouse` writes (it holds them all).
LITE_SITE := build/lite
# The pinned wheels for Pyodide 314 (CPython 3.14, pyemscripten_2026_0_wasm32), whatever Python runs
# it; -d (and, offline, the bundle's wheels as the only source) added where it is used.
LITE_PIP_DOWNLOAD = $(VPY) -m pip download --disable-pip-version-check --progress-bar off -q --no-deps \
	--only-binary=:all: --platform pyemscripten_2026_0_wasm32 --python-version 3.14 --implementation cp \
	--abi cp314 --require-hashes -r lite/wheels.in
LITE_SRC := build/lite-src
LITE_WHEELS := build/lite-wheels
LITE_TOOLS_STAMP := $(VENV)/.stamp-lite
LITE_NPM_STAMP := lite/node_modules/.stamp-npm
LITE_WHEELS_STAMP := $(LITE_WHEELS)/.stamp
LITE_STAMP := $(LITE_SITE)/.stamp
LITE_PORT ?= 8765
LITE_INPUTS := $(shell find mcp_lab notebooks labs -type f \( -name '*.py' -o -name '*.ipynb' -o -name '*.jsonl' -o -name '*.json' -o -name '*.yaml' -o -name '*.yml' -o -name '*.po' \) -not -path '*/node_modules/*' -not -path '*/solutions/*' -not -path '*/source/*' 2>/dev/null)

# What `make test` installs, in two halves that do not touch each other: each pinned Node part is
# an `npm ci` in its own folder (npm's cache is safe to share), the Python parts are pip installs
# into one .venv (one at a time).  .ci/run builds the Node parts with -j in the background while
# the Python parts install; `make test` then finds both done.
node-parts: $(NPM_STAMP) $(SUITE_STAMP) $(HUB_NPM_STAMP) $(INSPECTOR_STAMP) $(LITE_NPM_STAMP)

python-parts: $(PIP_STAMP) $(KERNEL_STAMP) $(LAB_SETTINGS) $(TEACH_STAMP) $(LITE_TOOLS_STAMP)

$(LITE_TOOLS_STAMP): pyproject.toml $(PIP_STAMP)
	$(VPY) -m $(PIP_INSTALL) $(PIP_SOURCE) -e '.[course,dev,lite]'
	@touch $@

$(LITE_NPM_STAMP): lite/package.json lite/package-lock.json | prereqs
	cd lite && $(NPM_ENV) npm ci --no-audit --no-fund
	@touch $@

# Wheels for Pyodide 314 (CPython 3.14, platform pyemscripten_2026_0_wasm32), whatever Python runs
# the build: pure-Python ones and the few compiled for Pyodide that PyPI publishes.
$(LITE_WHEELS_STAMP): lite/wheels.in | $(VPY)
	@rm -rf $(LITE_WHEELS) && mkdir -p $(LITE_WHEELS)
	$(LITE_PIP_DOWNLOAD) $(PIP_SOURCE) -d $(LITE_WHEELS)
	@touch $@

$(LITE_STAMP): $(LITE_TOOLS_STAMP) $(LITE_NPM_STAMP) $(LITE_WHEELS_STAMP) tools/lite_build.py tools/lite_bytecode.py tools/lite_bytecode.mjs $(LITE_INPUTS)
	@rm -rf $(LITE_SITE) $(LITE_SRC)
	$(VPY) tools/lite_build.py lite/node_modules/pyodide $(LITE_WHEELS) $(LITE_SRC)
	cd $(LITE_SRC) && $(abspath $(VENV))/bin/jupyter lite build --no-sourcemaps --log-level=WARN \
		--lite-dir . --output-dir $(abspath $(LITE_SITE)) --contents files
	$(VPY) tools/lite_build.py --edition-entries $(LITE_SITE)
	@du -sh $(LITE_SITE) | sed 's|^|make lite: the site is |'
	@touch $@

lite: setup $(LITE_STAMP)

# Re-record the reference server's conversations the browser edition answers from
# (notebooks/cassettes/everything/): lessons 06, 09 and 11 run against the real pinned server.
# Run it after changing what those lessons send to "everything"; commit the result.
recordings: setup
	$(VPY) tools/record_reference_sessions.py

# Serve the built site on 127.0.0.1 (Ctrl-C stops it); `make lite-serve LITE_PORT=8766` for another port.
lite-serve: lite
	$(VPY) tools/lite_serve.py $(LITE_SITE) $(LITE_PORT)

clean:
	rm -rf $(VENV) $(REF)/node_modules $(HUB)/node_modules $(SUITE)/node_modules $(INSPECTOR)/node_modules build dist .pytest_cache .hypothesis test-output test-results .ruff_cache .mypy_cache .import_linter_cache
	rm -rf *.egg-info
	find . -path ./.git -prune -o \( -name __pycache__ -o -name .ipynb_checkpoints \) -type d -prune -exec rm -rf {} +
