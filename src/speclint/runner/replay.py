"""A whole `check` run answered from the cache: when the same command line, in the same
folder and environment, is run again over unchanged inputs, its recorded report is written
again, without linting, and without importing the front-ends, rules, resolver or click.

A run is recorded (`<cache dir>/v2/runs/<key>.run`) only when it was a plain report of
files (no `--fix`, `--diff`, `-o`, `--config`, `--isolated`, `--show-settings` or standard
input), printed nothing on standard error, and every linted file came with a cache entry.
Its key covers the arguments, the working directory, the environment variables a report can
depend on (`_ENV_PREFIXES`), whether the output streams are terminals, speclint's code and
the Python running it. Its inputs are every file that was linted, every file a lint read or
looked for (model configs, pins), and every configuration file, `.gitignore` and folder
listing the run looked at: each is checked by stat (`speclint.runner.inputs_check.inputs_unchanged`),
and one whose stat changed means a real run (a file changed shortly before it was read, by
content). So are speclint's own files that the run and its lints ran (`runner.code_used`:
the modules imported, the data), by size and mtime, after the inputs. A run whose inputs were changing while it ran (changed within two seconds of its
start) is not recorded.
Any doubt (a damaged or foreign record, a missing field) means the run is done again.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing is not imported at run time: a replay skips it
    from collections.abc import Callable
    from typing import Any, TextIO

FORMAT = 4
_REFUSED = {
    "--no-cache",
    "--config",
    "--isolated",
    "--fix",
    "--diff",
    "-o",
    "--output-file",
    "--show-settings",
    "--stdin-filename",
    "-",
    "--help",
    "-h",
    "--version",
}
_ENV_PREFIXES = (
    "SPECLINT_",
    "NO_COLOR",
    "FORCE_COLOR",
    "CLICOLOR",
    "TERM",
    "HF_",
    "HUGGINGFACE",
    "XDG_",
    "HOME",
    "PYTHON",
    "LANG",
    "LC_",
)
"""The environment variables a `check` run's report can depend on: speclint's own (options,
colour), where model configs are looked for, and Python's text encoding. Others (`$_`,
`OLDPWD`, a terminal's session ids) change between identical runs and are left out."""
_COMMANDS = {"explain", "rule", "rules", "preflight", "run", "server"}


def run_key(argv: list[str]) -> str:
    from speclint.runner.inputs_check import blake2b, code_fingerprint

    digest = blake2b(digest_size=20)
    terminals = [_isatty(stream) for stream in (sys.stdout, sys.stderr)]
    environment = sorted(
        (name, value) for name, value in os.environ.items() if name.startswith(_ENV_PREFIXES)
    )
    for part in (
        str(FORMAT),
        code_fingerprint(),
        os.getcwd(),
        repr(argv),
        repr(environment),
        repr(terminals),
        repr(getattr(sys.stdout, "encoding", None)),
    ):
        digest.update(part.encode("utf-8", "surrogatepass") + b"\0")
    return digest.hexdigest()


def _isatty(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def cache_dir_for(argv: list[str]) -> str | None:
    """The cache folder `check` would use for this command line, worked out without click
    (None: no cache, or a command line this shortcut does not read)."""
    if not argv or argv[0] in _COMMANDS:
        return None
    given = None
    for number, arg in enumerate(argv):
        if arg in _REFUSED or arg.startswith(("--config=", "--output-file=", "--stdin-filename=")):
            return None
        if arg == "--cache-dir" and number + 1 < len(argv):
            given = argv[number + 1]
        elif arg.startswith("--cache-dir="):
            given = arg[len("--cache-dir=") :]
    if given is None:
        given = os.environ.get("SPECLINT_CACHE_DIR") or None
    if given is not None:
        return given
    from speclint.runner.inputs_check import DEFAULT_DIR

    configured = _configured_cache_dir(os.getcwd())
    return DEFAULT_DIR if configured is None else configured or None


def _configured_cache_dir(folder: str) -> str | None:
    """`cache-dir` of the configuration closest to `folder` (as `speclint.settings.files` finds it):
    None when it sets none, "" when the file cannot be read here (no shortcut)."""
    from speclint.settings.config_names import CONFIG_NAMES

    while True:
        for name in CONFIG_NAMES:
            candidate = os.path.join(folder, name)
            if not os.path.isfile(candidate):
                continue
            try:
                table = _read_toml(candidate)
            except Exception:
                return ""
            if name == "pyproject.toml":
                table = table.get("tool", {})
                if not isinstance(table, dict) or "speclint" not in table:
                    continue
                table = table["speclint"]
            if not isinstance(table, dict):
                return ""
            value = table.get("cache-dir")
            if value is None:
                return None
            if not isinstance(value, str) or not value:
                return ""
            return os.path.join(folder, os.path.expanduser(value))
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


def _read_toml(path: str) -> dict[str, Any]:
    from speclint.settings.config_names import may_configure_speclint

    with open(path, "rb") as handle:
        data = handle.read(2 * 1024 * 1024)
    pyproject = os.path.basename(path) == "pyproject.toml"
    if pyproject and not may_configure_speclint(data):
        return {}  # as settings.files reads it: not parsed
    if b"cache-dir" not in data and b"\\u" not in data and b"\\U" not in data:
        # no key of it can be `cache-dir` (written plainly or escaped): it sets none, and
        # TOML's import (a third of a replayed run) is not paid to learn it. A pyproject.toml
        # is taken as holding speclint's table: where it does not, a parent folder's
        # cache-dir is not found, the record is looked for in the wrong folder and the run
        # is done for real (never a wrong replay)
        return {"tool": {"speclint": {}}} if pyproject else {}
    if sys.version_info >= (3, 11):
        import tomllib
    else:
        import tomli as tomllib
    table: dict[str, Any] = tomllib.loads(data.decode("utf-8"))
    return table


def _record_path(cache_dir: str, key: str) -> str:
    from speclint.runner.inputs_check import FORMAT as INDEX_FORMAT

    return os.path.join(cache_dir, f"v{INDEX_FORMAT}", "runs", key + _SUFFIX)


_SUFFIX = ".run"
_MAGIC = b"speclint-run %d\n" % FORMAT
"""A record is this line, the length of its header, the header (marshal: the exit code, the
report's length in bytes, the inputs by kind, the length of the list of speclint's files and
a hash of their stats), that list (marshal: read only once the inputs are known unchanged, not
by a run on a file just edited) and then the report as printed, in UTF-8: the report is never
parsed again, only written out. marshal, not JSON: a record is read only by the Python that
wrote it (its key holds Python's version), and marshal's reader is built in (no module to
load, a tenth of JSON's scanning); a damaged record raises, or gives values of the wrong type,
and is ignored."""


def replay(argv: list[str]) -> int | None:
    """Write the recorded report of this command line and return its exit code, or None
    (nothing recorded, an input changed, or anything in doubt): then run it for real."""
    try:
        cache_dir = cache_dir_for(argv)
        if cache_dir is None:
            return None
        with open(_record_path(cache_dir, run_key(argv)), "rb") as handle:
            data = handle.read()
        report, code = _read_record(data)
        if report is None:
            return None
        write = _writer(report)
    except Exception:  # no record, or one that cannot be trusted
        return None
    write()
    return code


def _read_record(data: bytes) -> tuple[bytes | None, int]:
    """(the report, the exit code) of a record whose inputs are all unchanged; (None, 0)."""
    if not data.startswith(_MAGIC):
        return None, 0
    length_end = data.index(b"\n", len(_MAGIC))
    header_end = length_end + 1 + int(data[len(_MAGIC) : length_end])
    from marshal import loads  # (built in: nothing is loaded)

    header = loads(data[length_end + 1 : header_end])
    if type(header) is not dict:
        return None, 0
    listed = header["code"]
    if type(listed) is not int or listed < 0:
        return None, 0
    files_end = header_end + listed
    report, code = data[files_end:], header["exit"]
    if len(report) != header["report"] or code not in (0, 1) or type(code) is not int:
        return None, 0
    inputs = header["quiet"], header["missing"], header["other"]
    if any(type(kind) is not list for kind in inputs):
        return None, 0
    from speclint.runner.inputs_check import files_unchanged, inputs_unchanged

    if not inputs_unchanged(header["quiet"], header["stats"], header["missing"], header["other"]):
        return None, 0

    if not files_unchanged(loads(data[header_end:files_end]), header["code_stats"]):
        return None, 0
    return report, code


def _writer(report: bytes) -> Callable[[], None]:
    """How to print the report: its bytes as they are, to a UTF-8 stream that does not
    translate line ends; else as text, once the stream is known to take it (what it cannot
    take is left to the real run and its messages)."""
    stream = sys.stdout
    buffer = getattr(stream, "buffer", None)
    encoding = str(getattr(stream, "encoding", None) or "").lower().replace("_", "-")
    if buffer is not None and os.linesep == "\n" and encoding in ("utf-8", "utf8"):
        if b"\xed" in report:  # (where UTF-8 puts surrogates) strict: no lone surrogate
            report.decode("utf-8")  # reaches the stream as bytes

        def write_bytes() -> None:
            stream.flush()
            buffer.write(report)
            buffer.flush()

        return write_bytes
    text = report.decode("utf-8", "surrogatepass")
    text.encode(stream.encoding or "utf-8", stream.errors or "strict")

    def write_text() -> None:
        stream.write(text)
        stream.flush()

    return write_text


ARGV: list[str] | None = None
"""The command line as the `speclint` command got it (set by `speclint.__main__`; None when
`check` is called otherwise, as in tests through click's runner: then nothing is recorded)."""
