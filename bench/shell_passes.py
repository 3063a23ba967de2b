"""The shell front-end alone, for instruction counts that repeat to the instruction: every
script of a list read by `extract_shell` in one process, `--passes` times (imports included).

    setarch -R valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \\
        python bench/shell_passes.py CORPUS_DIR LIST_FILE --passes 2

LIST_FILE holds one path a line, relative to CORPUS_DIR (the mixed corpus's shell scripts:
`mixed_corpus.write_corpus`). Run it with `PYTHONHASHSEED=0` on a tree whose kept stores
are settled (two runs): a copy's count depends on what its stores hold, so compare two
versions of a file in two whole copies of one tree (bench/README.md, session 28).
"""

from __future__ import annotations

import argparse
import os
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus")
    parser.add_argument("list_file")
    parser.add_argument("--passes", type=int, default=2)
    options = parser.parse_args()
    from speclint.frontends.shell.script import extract_shell

    with open(options.list_file, encoding="utf-8") as listed:
        paths = [os.path.join(options.corpus, line.strip()) for line in listed if line.strip()]
    scripts = []
    for path in paths:
        with open(path, encoding="utf-8") as handle:
            scripts.append((handle.read(), path))
    start = time.perf_counter()
    launches = 0
    for _ in range(options.passes):
        for text, path in scripts:
            launches += len(extract_shell(text, path).launches)
    elapsed = time.perf_counter() - start
    print(f"{len(scripts)} scripts x {options.passes}: {launches} launches, {elapsed * 1000:.1f} ms")


if __name__ == "__main__":
    main()
