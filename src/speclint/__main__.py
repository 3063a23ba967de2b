"""The `speclint` command (`python -m speclint`, and the console script): a run recorded by
`speclint.runner.replay` is replayed without importing click or the linter; anything else
goes to click's command line (`speclint.cli`)."""

from __future__ import annotations

import sys


def main() -> None:
    from speclint.runner import replay

    argv = sys.argv[1:]
    code = replay.replay(argv)
    if code is not None:
        sys.exit(code)
    replay.ARGV = argv
    from speclint.cli import main as command_line

    command_line()


if __name__ == "__main__":
    main()
