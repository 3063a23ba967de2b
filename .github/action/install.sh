#!/usr/bin/env bash
# The action's install step: speclint into its own virtualenv, put on PATH for later steps.
set -euo pipefail
venv="${RUNNER_TEMP:?}/speclint-venv"
"${INPUT_PYTHON:-python3}" -m venv "$venv"
"$venv/bin/python" -m pip install -q --upgrade pip
if [ -n "${INPUT_VERSION:-}" ]; then
  "$venv/bin/python" -m pip install -q "$INPUT_VERSION"
else
  "$venv/bin/python" -m pip install -q "${GITHUB_ACTION_PATH:?}"
fi
echo "$venv/bin" >> "${GITHUB_PATH:?}"
"$venv/bin/speclint" --version
