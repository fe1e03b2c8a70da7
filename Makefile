# One-command setup on Debian 12 (as root, or with sudo): Debian packages, a venv that sees
# Debian's python3-brlapi and python3-louis, and the package itself. Every target is idempotent.
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
DEBS := brltty python3-brlapi liblouis-data liblouis-bin python3-louis espeak-ng alsa-utils \
        python3-venv tmux poppler-utils cups-client cups python3-cairo fonts-dejavu-core \
        chromium chromium-headless-shell chromium-driver gcc python3-dev orca xvfb \
        at-spi2-core dbus-daemon postgresql haproxy
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
ARGS ?=
# the Rummikub packing's modules compiled by mypyc (gcc and python3-dev build them)
PACKING := games/rummikub/packing
COMPILED := $(PACKING)/compiled.sha256
# the gettext catalogs, compiled next to their sources (a .po newer than its .mo is read as is)
CATALOGS := $(patsubst %.po,%.mo,$(wildcard layouts/locale/*.po))

.PHONY: setup debs play test lint bench clean

setup: debs $(VENV)/.installed $(COMPILED) $(CATALOGS)

debs:
	@missing=$$(for p in $(DEBS); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null \
	    | grep -q 'install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	    echo "Installing Debian packages:" $$missing; \
	    $(SUDO) apt-get update -q && \
	    DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -q --no-install-recommends $$missing; \
	fi

$(VENV)/.installed: pyproject.toml
	[ -x $(PY) ] || /usr/bin/python3 -m venv --system-site-packages $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test]'
	touch $@

# the manifest of hashes is the stamp: a source edited since makes it stale here, and makes
# the package import the sources until this runs again (see packing/__init__.py)
$(COMPILED): $(wildcard $(PACKING)/*.py) tools/build_packing.py $(VENV)/.installed
	$(PY) tools/build_packing.py

$(CATALOGS) &: $(wildcard layouts/locale/*.po) tools/build_catalogs.py $(VENV)/.installed
	$(PY) tools/build_catalogs.py

play: setup
	$(VENV)/bin/brailledev play uno $(ARGS)

lint: setup
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy .

# Six workers: much of the suite's time is spent waiting on BRLTTY, Chromium and servers.
# Bytecode is written even where the environment sets PYTHONDONTWRITEBYTECODE (ours does):
# otherwise every worker and every program a test starts compiles every module again
# (collecting the suite: 15 s of processor without, 5 s with).
test: lint
	PYTHONDONTWRITEBYTECODE= $(VENV)/bin/pytest -n 6 --dist loadfile

bench: setup
	$(PY) -m pip install -q -e '.[bench]'
	for b in $$(ls bench/*.py | grep -v __init__); do echo "== $$b"; $(PY) $$b || exit 1; done

clean:
	rm -rf $(VENV) *.egg-info .mypy_cache .ruff_cache .hypothesis build $(COMPILED) \
	    $(PACKING)/*.so layouts/locale/*.mo
