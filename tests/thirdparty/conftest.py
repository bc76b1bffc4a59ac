"""The packages under tests/thirdparty are games as their authors ship them: their own tests
run where the package is installed (tests/core/test_third_party_game.py installs it and runs
them there), never as this project's tests, which have not installed it."""

collect_ignore = ["highcard"]
