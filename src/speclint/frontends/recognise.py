"""What starts an SGLang server: the one place every front-end asks.

A launch is `python -m sglang.launch_server` or `sglang serve` (what the shell front-end
recognises, wherever the command is written: a script, a Python argv or shell string, a
Dockerfile, a workflow step, a doc), or one of SGLang's Python APIs (`sglang.Engine(...)`,
`sglang.Runtime(...)`, `ServerArgs(...)`, its test and docs helpers). The text patterns here
find where a file *names* a launcher (to pick text worth reading, or to say no launch was
found); each says what it is for, since they differ on purpose (a prose line is not a shell
line).
"""

from __future__ import annotations

from speclint.core import patterns

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from collections.abc import Container, Sequence

LAUNCH_MODULE = "sglang.launch_server"
"""The module `python -m` runs to start the server."""
DEFAULT_ENTRY = "python -m sglang.launch_server"
"""How a launch is named when its command line is not written (flag lists, `--config` files)."""
SERVE_ENTRY = "sglang serve"
ROUTER_MODULE = "sglang_router.launch_server"
"""The co-launcher of SGLang's router package: data-parallel SGLang workers, which take
SGLang's flags from its command line, and the router (`speclint.sglang.router`)."""
ROUTER_ENTRY = "python -m sglang_router.launch_server"
ROUTER_MODULE_BYTES = ROUTER_MODULE.encode()
DYNAMO_MODULE = "dynamo.sglang"
"""NVIDIA Dynamo's SGLang worker: Dynamo's own options, the rest to SGLang's parser
(`speclint.sglang.dynamo`)."""
DYNAMO_ENTRY = "python -m dynamo.sglang"
BENCH_MODULES = (
    "sglang.bench_one_batch",
    "sglang.bench_offline_throughput",
    "sglang.bench_one_batch_server",
    "sglang.benchmark.one_batch",
    "sglang.benchmark.offline_throughput",
    "sglang.benchmark.one_batch_server",
)
"""SGLang's benchmark scripts that parse its flags with their own and start an engine (or,
`one_batch_server`, a server): the modules tools/gen_sglang_bench.py looks for in each
release (`speclint.sglang.bench` says which release ships which)."""
_BENCH_BYTES = tuple(module.encode() for module in BENCH_MODULES)
BENCH_ENTRIES = {"python -m " + module: module for module in BENCH_MODULES}
"""The entry of a launch by a benchmark script -> its module."""

_MODULE_ENTRIES = {
    LAUNCH_MODULE: DEFAULT_ENTRY,
    ROUTER_MODULE: ROUTER_ENTRY,
    DYNAMO_MODULE: DYNAMO_ENTRY,
    **{module: entry for entry, module in BENCH_ENTRIES.items()},
}


def module_entry(module: str | None) -> str | None:
    """The entry `python -m MODULE` starts, or None when MODULE is not SGLang's launcher."""
    return _MODULE_ENTRIES.get(module or "")


def script_entry(path: str | None) -> str | None:
    """The entry `python PATH` starts when PATH is SGLang's own `sglang/launch_server.py`: in
    a source checkout (`python/sglang/launch_server.py`, or `sglang/launch_server.py` from its
    `python/` folder) or an installed package (`.../site-packages/sglang/launch_server.py`).
    That file ends in an `if __name__ == "__main__":` block in every release (read from each
    wheel), so running it runs what `python -m sglang.launch_server` runs. None for any other
    path (a file of the user's own that only shares the name is not SGLang's)."""
    if path is None or not path.endswith(_LAUNCH_SCRIPT):
        return None
    folder = path[: -len(_LAUNCH_SCRIPT)]
    if folder in ("", "./") or folder.endswith(_SCRIPT_FOLDERS):
        return DEFAULT_ENTRY
    return None


def python_target(texts: Sequence[str | None], start: int) -> tuple[str, str | None, int] | None:
    """Where `python`'s own options (from `start`) end, as CPython reads them: ("script",
    PATH, i), ("module", MODULE, i) for `-m MODULE`, ("attached", MODULE, i) for `-mMODULE`,
    `i` the index of the first word after it; None for `-c` or no target (the shell walk's and `argv_launch`'s)."""
    j = start
    while j < len(texts):
        text = texts[j]
        if text is None or not text.startswith("-") or text == "-":
            return "script", text, j + 1
        if text.startswith("--"):
            j += 1
            continue
        cluster = text[1:]
        for k, letter in enumerate(cluster):
            if letter == "c":
                return None
            if letter == "m":
                if k + 1 < len(cluster):
                    return "attached", cluster[k + 1 :], j + 1
                return "module", texts[j + 1] if j + 1 < len(texts) else None, j + 2
            if letter in "WX":
                if k + 1 == len(cluster):
                    j += 1  # the value is the next word
                break
        j += 1
    return None


_LAUNCH_SCRIPT = "sglang/launch_server.py"
_SCRIPT_FOLDERS = ("python/", "site-packages/", "dist-packages/")


def command_entry(program: str, subcommand: str | None) -> str | None:
    """The entry a command `PROGRAM SUBCOMMAND ...` starts (`sglang serve`), or None; PROGRAM
    is the command's base name (no folder)."""
    return SERVE_ENTRY if program == "sglang" and subcommand == "serve" else None


def names_launcher(command: bytes) -> bool:
    """Whether a shell command's text names the launcher (a command speclint did not read as a
    launch then gets the reason, for the no-launch-found finding).

    `find`, not `in`: `bytes in bytes` first tries the right side as an integer (`0x24 in
    raw`), and the TypeError it raises and clears costs ~1.7 K instructions a test; the
    shell walker tests a few bytes of every command and assignment this way."""
    find = command.find
    return (
        find(b"sglang.launch_server") >= 0
        or find(b"sglang serve") >= 0
        or find(b"sglang/launch_server.py") >= 0
        or find(ROUTER_MODULE_BYTES) >= 0
        or (find(b"dynamo.sglang") >= 0 and _names_dynamo(command))
        or (find(b"sglang.bench") >= 0 and any(find(module) >= 0 for module in _BENCH_BYTES))
    )


def _names_dynamo(command: bytes) -> bool:
    """`dynamo.sglang` as a module of its own (not ai-dynamo 0.4's `dynamo.sglang.worker`)."""
    at = command.find(b"dynamo.sglang")
    while at >= 0:
        end = at + len(b"dynamo.sglang")
        if command[end : end + 1] != b".":
            return True
        at = command.find(b"dynamo.sglang", end)
    return False


# ---- SGLang's Python APIs ---------------------------------------------------------------

ENGINE = "Engine"
"""`sglang.Engine(**server_args)`: a keyword launch."""
RUNTIME = "Runtime"
"""`sglang.Runtime(**server_args)`: starts a server process; a keyword launch whose own
parameters each release's source says (`speclint.sglang.launch_classes`)."""
HTTP_ADAPTER = "HttpServerEngineAdapter"
"""sglang.srt.entrypoints.http_server_engine: `ServerArgs(**kwargs)`, then a server process."""
CLASS_ENTRY = {RUNTIME: "sglang.Runtime", HTTP_ADAPTER: HTTP_ADAPTER}
"""One of SGLang's launch classes -> the entry of a launch it makes (how findings name it)."""
CLASS_ENTRIES = {entry: cls for cls, entry in CLASS_ENTRY.items()}
"""The entry of a launch by one of SGLang's launch classes -> the class."""
SERVER_ARGS = "ServerArgs"
"""`ServerArgs(model_path, **fields)`: a keyword launch (the first positional is the model)."""
POPEN_LAUNCH_SERVER = "popen_launch_server"
"""sglang.test.test_utils: the command comes from SGLang's source (`speclint.sglang.helpers`)."""
POPEN_LAUNCH_PD_SERVER = "popen_launch_pd_server"
"""sglang.test.test_utils: one side (prefill or decode) of a PD-disaggregation test; the
command comes from SGLang's source (`speclint.sglang.helpers`)."""
PREPARE_SERVER_ARGS = "prepare_server_args"
"""sglang.srt.server_args: parses an argv as `launch_server` does."""
LAUNCH_SERVER_CMD = "launch_server_cmd"
"""SGLang's docs and notebooks helper: runs a shell command string."""
SHELL_HELPERS = frozenset({LAUNCH_SERVER_CMD, "execute_shell_command", "run_command", "run_cmd"})
"""Helpers (SGLang's and common ones) whose first argument is a shell command string."""
PYTHON_MENTIONS = (
    "sglang",
    "sgl.Engine",
    "sgl.Runtime",
    POPEN_LAUNCH_SERVER,
    LAUNCH_SERVER_CMD,
    HTTP_ADAPTER,
)
"""What a Python file must mention to be parsed: `sglang`, or one of SGLang's launch APIs in
a snippet that omits its imports (docs and issue excerpts)."""
ENTRY_WORDS = ("python3", "-m", LAUNCH_MODULE)
"""The command the test helpers run (`popen_launch_server`, `prepare_server_args`)."""


def is_engine(name: str, imports: Container[str], functions: Container[str], has_model_path: bool) -> bool:
    """Whether a call of `name` (dotted through the file's `imports`) is `sglang.Engine`:
    through the imports, or, in a snippet that omits them, `sgl.Engine` (SGLang's documented
    alias) and a bare `Engine(model_path=...)` (SGLang's field name), unless the file binds
    that name itself."""
    if name.startswith("sglang"):
        return True
    if name == "sgl.Engine":
        return "sgl" not in imports
    return name == ENGINE and ENGINE not in imports and ENGINE not in functions and has_model_path


def launch_class(
    name: str, imports: Container[str], bound: Container[str] = (), has_model_path: bool = False
) -> str | None:
    """The launch class (`Runtime`, `HttpServerEngineAdapter`) a call of `name` (dotted through
    the file's `imports`) makes: a name SGLang's releases give it (`sglang.Runtime`,
    `sglang.lang.api.Runtime`, ...: read from their source), or, in a snippet that omits its
    imports, `sgl.Runtime` and the class's bare name called with `model_path=` (ServerArgs'
    field, as a bare `Engine(model_path=...)`), unless the file imports or binds that name
    itself (`bound`: its functions and classes; verl's own `HttpServerEngineAdapter`, imported
    from verl, is not SGLang's); None for any other name."""
    if name == "sgl.Runtime":
        return RUNTIME if "sgl" not in imports else None
    from speclint.sglang.launch_classes import class_names

    names = class_names()
    found = names.get(name)
    if found is None and has_model_path and name in names.values():
        return name if name not in imports and name not in bound else None
    return found


DIFFUSION_PACKAGE = "sglang.multimodal_gen."
"""SGLang's diffusion runtime: its own `ServerArgs` (0.5.23's
sglang/multimodal_gen/runtime/server_args/server_args.py), `prepare_server_args` and flags,
not the language-model server's that speclint models."""


def is_server_args(name: str) -> bool:
    """Whether a call of `name` (dotted through the imports) is SGLang's `ServerArgs`."""
    return (name.startswith("sglang") and not name.startswith(DIFFUSION_PACKAGE)) or name == SERVER_ARGS


# ---- where text names a launcher ---------------------------------------------------------

# Compiled on first import by a front-end that uses one (`__getattr__`): the doc, Python and
# no-launch paths, not a shell script's.
_LAUNCHER_MODULE = (
    r"sglang(?:_router)?\.launch_server|sglang\.bench(?:mark\.|_)(?:one_batch(?:_server)?|offline_throughput)"
    r"|dynamo\.sglang(?!\.\w)"
)
"""SGLang's launcher, sglang-router's co-launcher, one of SGLang's benchmark scripts, or
NVIDIA Dynamo's SGLang worker (not its older `dynamo.sglang.worker` modules: not read)."""
_PATTERNS: dict[str, str | tuple[str, ...]] = {
    # `(?:{_LAUNCHER_MODULE})\b|\bsglang\s+serve\b` written to begin with its literal `sglang`
    # (searched fast: the alternation tried at every character cost ~0.1 M instructions a file)
    "LAUNCH_TEXT": (
        r"sglang(?:(?:_router)?\.launch_server\b|/launch_server\.py\b|\.bench(?:mark\.|_)(?:one_batch(?:_server)?"
        r"|offline_throughput)\b|(?<!\wsglang)\s+serve\b)"
    ),
    "DOC_LAUNCHER": rf"(?:{_LAUNCHER_MODULE})\b|(?<![\w.-])sglang\s+serve\b|(?<![\w-])sglang/launch_server\.py\b",
    "PROSE_LAUNCH": (
        r"(?<![\w./$=-])(?:[A-Z_][A-Z0-9_]*=[^\s`]+\s+)*"
        rf"(?:python[\d.]*\s+-m\s+(?:{_LAUNCHER_MODULE})|sglang\s+serve)(?![\w.-])"
    ),
    "RUNS_LAUNCHER": rf"(?<![\w.-])(?:-m\s+({_LAUNCHER_MODULE})\b|(sglang\s+serve)\b)",
    "MENTIONS": (
        rf"(?m)\b(?:{_LAUNCHER_MODULE})\b|\bsglang[ \t]+serve\b|\bsglang/launch_server\.py\b|\bdynamo\.sglang\b|\bsglangServe\b|\bserve\.engines\.sglang\b|\bsgl\.Engine\b"
        r"|\bsgl\.Runtime\b(?=\s*\()|\bHttpServerEngineAdapter\b(?=\s*\()|\blighteval[ \t]+sglang\b|\bbuild_sglang_\w*app\b"
        r"|^deployment:[ \t]*\n(?:[ \t]+[^\n]*\n|[ \t]*\n)*?[ \t]+(?P<named>type:[ \t]*sglang)[ \t]*$",
        rf"\b(?:{POPEN_LAUNCH_SERVER}|{PREPARE_SERVER_ARGS}|{LAUNCH_SERVER_CMD})\b"
        r"|\bsglang\.test\.server_fixtures\b|\bServerArgs\.from_cli_args\b|\bSM_SGLANG_[A-Z0-9_]+"
        r"|(?:--|\b)speculative[-_]algorithm\b",
        r"(?ms)\A(?=.*?\bsglang\b).*?^[ \t]*(?:-[ \t]+)?(?P<named>import_path)[ \t]*:[ \t]*\S",
    ),
}
if TYPE_CHECKING:
    LAUNCH_TEXT: re.Pattern[str]
    """A string argument of a generic helper (`run(cmd)`) that holds a launch (SGLang's
    launcher, sglang-router's co-launcher, or one of SGLang's benchmark scripts)."""
    DOC_LAUNCHER: re.Pattern[str]
    """A launcher in a doc's inline code span (not `my-sglang serve`, `x.sglang serve`)."""
    PROSE_LAUNCH: re.Pattern[str]
    """A command on a prose line: `VAR=x ... python -m sglang.launch_server` or `sglang serve`
    standing as words of their own."""
    RUNS_LAUNCHER: re.Pattern[str]
    """A string of a task file that runs the launcher (`-m MODULE`, group 1, or `sglang
    serve`, group 2), not one that names its module in a tool's settings."""
    MENTIONS: tuple[re.Pattern[str], ...]
    """What makes a file that yielded no launch worth a no-launch-found finding, most telling
    first: a launcher (lighteval's `lighteval sglang` backend, which starts SGLang's engine from
    its `model_args`, and a NeMo Evaluator launcher config's `deployment:` of `type: sglang`,
    whose command is the launcher's own config filled from these values, and Ray Serve's app
    builder for SGLang (`build_sglang_openai_app`), included: none is read; the part named is
    group `named` where there is one); else one of SGLang's launch helpers, SGLang's test server fixtures (base
    classes that launch a server from their subclasses' attributes), a SageMaker container's
    `SM_SGLANG_*` settings (its serve script makes flags of them: not read), or the speculative
    algorithm set in any of SGLang's spellings (`--speculative-algorithm`, a `--config` file's
    `speculative-algorithm:` key, the `speculative_algorithm` field); else, in a file that names
    sglang (an SGLang image), a Ray Serve application's `import_path:` (a RayService's
    `serveConfigV2`, a Serve config: the app's code, in another file, starts the server)."""
else:

    def __getattr__(name):
        """One of the patterns above (or a tuple of them), compiled now and kept as the
        module's attribute."""
        if name not in _PATTERNS:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        written = _PATTERNS[name]
        value = (
            patterns.compile(written) if isinstance(written, str) else tuple(map(patterns.compile, written))
        )
        globals()[name] = value
        return value
