#!/usr/bin/env bash
# The action's lint step: annotations (`--output-format github`), then SARIF when asked.
set -uo pipefail
read -r -a paths <<< "${INPUT_PATHS:-.}"
options=(--fail-on "${INPUT_FAIL_ON:-warning}")
if [ -n "${INPUT_CONFIG:-}" ]; then
  options+=(--config "$INPUT_CONFIG")
fi
speclint --output-format github "${options[@]}" "${paths[@]}"
status=$?
if [ "${INPUT_SARIF:-false}" = "true" ]; then
  speclint --output-format sarif -o speclint.sarif --exit-zero "${options[@]}" "${paths[@]}" \
    || status=2
  echo "sarif-file=speclint.sarif" >> "${GITHUB_OUTPUT:-/dev/null}"
fi
exit "$status"
