"""Compare the Python front-end's tree built from CPython's `ast` with the one built from
libcst, node by node, on any Python files (the big version of
tests/test_python_syntax_parity.py): SGLang's own sources from the wheels in
.cache/sglang-wheels, the mixed corpus, fixtures.

    PYTHONPATH=src python tools/python_syntax_parity.py FILE... [--show 4]

Files CPython cannot parse are skipped (they are read through libcst, as before). Prints each
file that differs with its first differences, then the counts.
"""

from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path

import libcst as cst

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from test_python_syntax_parity import differences, libcst_comments  # noqa: E402

from speclint.frontends.python.comments import comments_in  # noqa: E402
from speclint.frontends.python.from_ast import build  # noqa: E402
from speclint.frontends.python.from_cst import convert  # noqa: E402
from speclint.frontends.python.select import lone_backslashes_as_comments  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("files", nargs="+")
    parser.add_argument("--show", type=int, default=4)
    options = parser.parse_args()
    compared = differing = skipped = 0
    for name in options.files:
        try:
            source = lone_backslashes_as_comments(Path(name).read_text(encoding="utf-8"))
            tree = ast.parse(source)
            reference = convert(cst.parse_module(source))
        except (SyntaxError, ValueError, UnicodeDecodeError, cst.ParserSyntaxError, RecursionError):
            skipped += 1
            continue
        compared += 1
        try:
            found = differences(build(source, tree), reference)
        except Exception as error:  # a form the conversion does not know
            found = [f"conversion failed: {type(error).__name__}: {error}"]
        if comments_in(source) != libcst_comments(source):
            found.append("comments differ")
        if found:
            differing += 1
            print(name, len(found))
            for line in found[: options.show]:
                print("   ", line)
    print(f"compared {compared} files, {differing} differ, {skipped} skipped (not parsed by both)")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
