"""Process managers that start the server for the script: PM2 `pm2 start` and systemd's
`systemd-run`.

PM2 (`lib/binaries/CLI.js`, `lib/API.js` of pm2): `pm2 start SCRIPT [options] [-- ARGS...]`
runs SCRIPT with the words after `--` as its arguments (pm2 passes on only those), and a SCRIPT
holding a blank (`pm2 start "python3 -m sglang.launch_server ..." --name x`) is run as `bash -c
SCRIPT` (`Common.verifyConfs`: "If command is like pm2 start "python xx.py --ok" Then
automatically start the script with bash -c"). Its own options come before `--`: those that
take a value are the `<value>` options of CLI.js (`[value]` ones take the next word unless it
is an option, as commander reads them). The process gets the environment of the `pm2` command.

systemd-run (`src/run/run.c` of systemd, `systemd-run(1)`): `systemd-run [options] COMMAND
[ARGS...]` runs COMMAND in a transient service, whose environment is the service manager's
plus `-p Environment=NAME=VALUE` and `-E/--setenv NAME=VALUE` (none of this script's
variables), or with `--scope` as a child of systemd-run itself, which keeps the caller's
environment. `-S/--shell` starts a shell and no command.
"""

from __future__ import annotations

from speclint.frontends.shell.launcher_options import OptionTable, name_value, value_word, walk_options

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.spans import Span
    from speclint.core.words import Word
    from speclint.frontends.shell.expand import Arg
    from speclint.frontends.shell.walking import Walking

# pm2's options written `<value>` in CLI.js (the global ones `pm2 start` reads)
_PM2_VALUE = frozenset(
    """--ext -n --name --interpreter --interpreter-args --node-args -o --output -e --error
    --log-type --log-date-format --env -i --instances --parallel -p --pid -k --kill-timeout
    --listen-timeout --max-memory-restart --restart-delay --exp-backoff-restart-delay -u --user
    --uid --gid --namespace --cwd --hp --service-name -c --cron --cron-restart --only
    --ignore-watch --watch-delay --sort --stop-exit-codes""".split()
)
# written `[value]`: commander takes the next word as the value unless it starts with `-`
_PM2_OPTIONAL = frozenset(
    {"-l", "--log", "--filter-env", "--max-restarts", "--watch", "--image-name", "--node-version"}
)

# systemd-run's options with `required_argument` in run.c's option table (getopt string
# "+hrC:H:M:E:p:tPqGdSu:" for the short ones)
SYSTEMD_RUN = OptionTable(
    value=frozenset(
        """-C --capsule -u --unit --description --slice --expand-environment -H --host -M --machine
        --service-type --uid --gid --nice -E --setenv -p --property --on-active --on-boot
        --on-startup --on-unit-active --on-unit-inactive --on-calendar --timer-property
        --path-property --socket-property --working-directory --job-mode --background
        --json""".split()
    ),
    sets_env=frozenset({"-E", "--setenv"}),
)


def managed_command(
    walker: Walking,
    tool: str,
    args: list[Arg],
    i: int,
    env: dict[str, Word],
    image: tuple[str | None, Span | None] | None,
) -> tuple[list[Arg], dict[str, Word]] | None:
    """From `args[i]` (the word after `pm2`/`systemd-run`): the command the process manager
    runs and its environment, or None (a `pm2 start "CODE"` is walked here as `bash -c`;
    anything else starts no command speclint reads)."""
    if tool == "pm2":
        return _pm2(walker, args, i, env, image)
    return _systemd_run(args, i, env)


def _pm2(
    walker: Walking,
    args: list[Arg],
    i: int,
    env: dict[str, Word],
    image: tuple[str | None, Span | None] | None,
) -> tuple[list[Arg], dict[str, Word]] | None:
    if i >= len(args) or args[i].word.text != "start":
        return None
    i += 1
    script: Arg | None = None
    interpreter: Arg | None = None
    while i < len(args):
        text = args[i].word.text
        if text is None:
            if script is not None:
                i += 1
                continue
            return None  # the script itself is not known
        if text == "--":
            i += 1
            break
        i += 1
        if not text.startswith("-") or text == "-":
            script = script or args[i - 1]  # (further names are more apps, not arguments)
            continue
        option = text.split("=", 1)[0]
        if "=" in text:
            value = None
        elif option in _PM2_VALUE:
            value = args[i] if i < len(args) else None
            i += 1
        elif option in _PM2_OPTIONAL and i < len(args) and not (args[i].word.text or "-").startswith("-"):
            value = args[i]
            i += 1
        else:
            continue
        if option == "--interpreter" and value is not None:
            interpreter = value
    if script is None:
        return None
    words = script.word.text or ""
    if " " in words:  # run by `bash -c SCRIPT`
        line = script.word.span.line
        walker.parse_nested(script, env, image, f"${{name}} is not passed to `pm2`'s `bash -c` (line {line})")
        return None
    command = [script, *args[i:]]  # (empty unless `--` ended the options)
    if interpreter is not None and interpreter.word.text != "none":
        command = [interpreter, *command]
    return command, env


def _systemd_run(args: list[Arg], i: int, env: dict[str, Word]) -> tuple[list[Arg], dict[str, Word]] | None:
    start = i
    setenv: dict[str, Word] = {}
    i = walk_options(SYSTEMD_RUN, args, i, setenv)[0]
    options = {arg.word.text for arg in args[start:i]}
    if i >= len(args) or options & {"-S", "--shell"}:
        return None
    unit_env = dict(env) if "--scope" in options else {}
    _environment_properties(args, start, i, unit_env)
    unit_env.update(setenv)  # (a name both set: read as the `--setenv` value)
    return args[i:], unit_env


def _environment_properties(args: list[Arg], start: int, end: int, env: dict[str, Word]) -> None:
    """`-p Environment=NAME=VALUE [NAME=VALUE...]` (also `--property=`): the unit's variables
    (systemd.exec `Environment=`, its assignments separated by blanks; one written with a
    quote is not read)."""
    for k in range(start, end):
        text = args[k].word.text or ""
        if text in ("-p", "--property") and k + 1 < end:
            arg, skip = args[k + 1], 0
        elif text.startswith("--property="):
            arg, skip = args[k], len("--property=")
        else:
            continue
        value = arg.word.text or ""
        if not value.startswith("Environment=", skip) or "'" in value or '"' in value:
            continue
        at = skip + len("Environment=")
        for item in value[at:].split(" "):
            pair = name_value(item)
            if pair is not None:
                env[pair[0]] = value_word(arg, at + len(pair[0]) + 1, at + len(item))
            at += len(item) + 1
