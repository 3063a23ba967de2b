"""The `speclint` command (`python -m speclint`, and the console script), its process set up
by `speclint.cli.startup`: a run recorded by
`speclint.runner.replay` is replayed without importing click or the linter; a plain
`speclint [check] [options] FILE...` (`speclint.cli.plain`) is linted without click; anything
else goes to click's command line (`speclint.cli`)."""

from __future__ import annotations

import os
import sys


def main() -> None:
    # a recorded run is replayed before the command's set up (`startup.begin`): the few
    # modules a replay needs come from their .pyc files, and the kept store of every module
    # a lint imports (`core.kept`, ~1.5 MB) is not read at all
    argv = sys.argv[1:]
    if "--no-cache" not in argv:  # (nothing to replay: not even the attempt's imports)
        from speclint.runner import replay

        code = replay.replay(argv)
        if code is not None:
            sys.exit(code)
    from speclint.cli import startup

    startup.begin(argv)
    try:
        _main(argv)
    finally:
        startup.end()


def command() -> None:
    """The console script and `python -m speclint`: `main`, then the process ends at once
    when Python's own exit would only free memory (`cli.process_end.leave`; `main` itself returns to
    a caller as any function does)."""
    try:
        main()
    except SystemExit as stop:
        from speclint.cli.process_end import leave

        leave(stop.code)  # returns when Python must exit the usual way
        raise


def _main(argv: list[str]) -> None:
    if "--no-cache" not in argv:  # (what a run through the cache records to be replayed)
        from speclint.runner import replay

        replay.ARGV = argv
    from speclint.cli.plain import check_options

    options = check_options(argv, os.environ)
    if options is not None:
        sys.exit(_plain_check(options))
    from speclint.cli import main as command_line

    command_line()


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
    command()
