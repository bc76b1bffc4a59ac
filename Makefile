# Two commands on a fresh machine with Python 3.11+ and make:
#   make play   -- set up (once) and play Pika against bots in this terminal
#   make test   -- set up (once) and run the whole test suite
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Two stamps: what playing needs (the package and its dependencies), and on top of it what the
# tests and the checkers need (the ``test`` extra). ``make play`` waits only for the first.
PLAYING := $(VENV)/.playing
STAMP := $(VENV)/.installed

.PHONY: play test lint bench clean i18n template rules

# Setting up says in one line what it does, then prints nothing unless something fails:
# `make play` shows that line and the game. The one note left out is setuptools' "Editable
# installation" (it is told on every editable install of folders mapped onto a package, as
# setup.py maps core/ onto cardparty.core): information, not a defect; any packaging warning
# still shows (tests/test_packaging.py builds with all of them). A set-up interrupted half way
# leaves pip's "~"-named leftovers in site-packages, which pip would name on every later
# install: they are removed first (tests/test_make_play.py).
$(BIN)/python:
	@$(PYTHON) -m venv $(VENV)

LEFTOVERS = rm -rf $(VENV)/lib/python*/site-packages/~*
EDITABLE = PYTHONWARNINGS='ignore:Editable installation:UserWarning' $(BIN)/python -m pip \
    install -q --disable-pip-version-check

$(PLAYING): $(BIN)/python pyproject.toml setup.py
	@echo "setting up $(VENV) (once): installing cardparty and the packages playing needs..."
	@$(LEFTOVERS)
	@$(EDITABLE) -e .
	@touch $(PLAYING)

$(STAMP): $(PLAYING)
	@echo "setting up $(VENV) for the tests (once): installing pytest, ruff, mypy, hypothesis, Babel..."
	@$(LEFTOVERS)
	@$(BIN)/python -m pip install -q --disable-pip-version-check --upgrade pip
	@$(EDITABLE) -e '.[test]'
	@touch $(STAMP)

play: $(PLAYING)
	@$(BIN)/cardparty play

# The suite starts some hundreds of Python processes (hosts, clients, bots, benches). Where the
# environment says not to write bytecode (PYTHONDONTWRITEBYTECODE), each of them would compile
# the project afresh (half a second of CPU apiece) and each worker would rewrite every test
# module, so the suite's run writes bytecode anyway (in __pycache__, which git ignores).
test: $(STAMP)
	env -u PYTHONDONTWRITEBYTECODE $(BIN)/python -m pytest -q -n 4 --dist loadgroup

# ruff, then the type checker over core, net, client and plugins (pyproject's [tool.mypy]),
# through a tree of links named as the folders are imported (cardparty.core, ...), and over
# the wire's conformance suite, which imports none of them (its plugin/ is the host's side).
TYPECHECK := build/typecheck
lint: $(STAMP)
	$(BIN)/ruff check .
	rm -rf $(TYPECHECK) && mkdir -p $(TYPECHECK)/cardparty
	for d in core net client plugins; do ln -s ../../../$$d $(TYPECHECK)/cardparty/$$d; done
	cd $(TYPECHECK) && ../../$(BIN)/mypy --config-file ../../pyproject.toml -p cardparty
	$(BIN)/mypy tests/wire/*.py

bench: $(STAMP)
	$(BIN)/python -m pip install -q -e '.[test,bench]'
	$(BIN)/python bench/engine.py

# The catalogs: extract the English ids, merge them into each language's .po, compile the .mo
# files the runtime reads (committed, so playing needs no Babel). Run after changing texts.
KEYWORDS := -k Msg -k plural_msg:1,2 -k N_ -k _ -k ngettext:1,2
LOCALES := core/locale
i18n: $(STAMP)
	$(BIN)/pybabel extract -F babel.cfg --no-default-keywords $(KEYWORDS) --no-location \
	    --sort-output --project cardparty -o $(LOCALES)/cardparty.pot .
	$(BIN)/pybabel update -D cardparty -i $(LOCALES)/cardparty.pot -d $(LOCALES) \
	    --no-fuzzy-matching --ignore-obsolete
	$(BIN)/pybabel compile -D cardparty -d $(LOCALES) --statistics

# Whether docs/rules is in step with the rulebooks it follows (../shared/rules by default:
# make rules SOURCE=DIR), rule ids and revisions alike (tests/rules_in_step.py).
SOURCE ?= ../shared/rules
rules: $(PLAYING)
	$(BIN)/python -m tests.rules_in_step $(SOURCE)

clean:
	rm -rf $(VENV) build *.egg-info

# The template of `cardparty new-game`, generated from the tested example (core/newgame.py):
# run after changing tests/thirdparty/highcard; a test fails while they differ.
template: $(STAMP)
	$(BIN)/python -m cardparty.core.newgame tests/thirdparty/highcard
