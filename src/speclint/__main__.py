"""The `speclint` command (`python -m speclint`, and the console script): a run recorded by
`speclint.runner.replay` is replayed without importing click or the linter; a plain
`speclint [check] [options] FILE...` (`speclint.cli.plain`) is linted without click; anything
else goes to click's command line (`speclint.cli`)."""

from __future__ import annotations

import os
import sys


def main() -> None:
    try:
        _main()
    finally:
        kept = sys.modules.get("speclint.core.kept")
        if kept is not None:
            kept.save_all()  # what this run worked out for the next one (`core.kept`)


def _main() -> None:
    _defer_inspect()
    from speclint.runner import replay

    argv = sys.argv[1:]
    code = replay.replay(argv)
    if code is not None:
        sys.exit(code)
    replay.ARGV = argv
    from speclint.cli.plain import check_options

    options = check_options(argv, os.environ)
    if options is not None:
        sys.exit(_plain_check(options))
    from speclint.cli import main as command_line

    command_line()


def _defer_inspect() -> None:
    """`dataclasses` imports `inspect` (with ast, dis and tokenize: about a tenth of a
    one-file run) for one call that speclint's classes never make: a signature for a class
    without a docstring (tests/test_records.py keeps every record documented). In the
    command's own process, `inspect` is a stand-in that imports the real module on first use
    of any attribute, so anything that does use it gets the real one."""
    if "inspect" in sys.modules:
        return
    import types

    stand_in = types.ModuleType("inspect", "The standard library's inspect, imported on first use.")

    def __getattr__(name: str) -> object:
        if sys.modules.get("inspect") is stand_in:
            del sys.modules["inspect"]
        import inspect

        return getattr(inspect, name)

    vars(stand_in)["__getattr__"] = __getattr__
    sys.modules["inspect"] = stand_in


def _plain_check(options: dict[str, object]) -> int:
    """`speclint check` with options read without click, ending as click ends a command:
    Ctrl-C prints "Aborted!" (exit 1), a reader that left the pipe ends it quietly (exit 1)."""
    import errno

    from speclint.cli.check import run_check
    from speclint.report.echo import echo

    try:
        return run_check(options)
    except (EOFError, KeyboardInterrupt):
        echo(err=True)  # closes the terminal's ^C echo
        echo("Aborted!", err=True)
        return 1
    except OSError as error:
        if error.errno != errno.EPIPE:
            raise
        _quiet_streams()
        return 1


def _quiet_streams() -> None:
    """Standard output and error to /dev/null: Python's final flush of a broken pipe would
    print an error otherwise."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        for stream in (sys.stdout, sys.stderr):
            os.dup2(devnull, stream.fileno())
    except (OSError, ValueError, AttributeError):
        pass


if __name__ == "__main__":
    main()
