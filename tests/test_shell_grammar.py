"""The bash grammar loaded without tree-sitter-bash's `__init__` is the package's own."""

from __future__ import annotations

import subprocess
import sys

import tree_sitter
import tree_sitter_bash

from speclint.frontends.shell.text import BASH, parse_bytes

SCRIPT = b'ARGS=(--tp 2)\nnohup python -m sglang.launch_server "${ARGS[@]}" --port $((3 + 1)) &\n'


def test_same_grammar_as_the_package():
    theirs = tree_sitter.Parser(tree_sitter.Language(tree_sitter_bash.language()))
    assert str(parse_bytes(SCRIPT).root_node) == str(theirs.parse(SCRIPT).root_node)
    assert BASH.abi_version == tree_sitter.Language(tree_sitter_bash.language()).abi_version


def test_linting_a_script_does_not_import_importlib_resources():
    code = (
        "import sys; from speclint.engine import lint_text; "
        "lint_text('python -m sglang.launch_server --tp 2', 'a.sh'); "
        "print('importlib.resources' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
