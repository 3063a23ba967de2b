"""Runners that put a Python environment under the command they run: `uv run [options]
COMMAND`, `uv tool run` / `uvx [options] COMMAND`, `pipx run [options] APP`, and the project
runners `conda run`, `poetry run`, ... (`wrappers.RUNNERS`).

Their options are skipped (those that take a value with it); `uv run -m MODULE` is read as
`python -m MODULE`. A requirement that pins SGLang exactly names the release the command
runs, as an image tag does (`versions.package_pin`): `uv run --with "sglang[all]==0.5.2"`
(each requirement of a comma-separated `--with`), `uvx --from sglang==0.5.2` / `--with`,
uvx's `COMMAND@VERSION` (`uvx sglang@0.5.2 serve`: uv's "Requesting specific versions"),
`pipx run --spec sglang==0.5.2`, pipx's requirement APP (`pipx run sglang==0.5.2 serve`: the
app run is the requirement's name). A range (`sglang>=0.5`) or a bare `sglang` pins nothing.
"""

from __future__ import annotations

import re

from speclint.frontends.shell.expand import Arg
from speclint.frontends.shell.launcher_options import value_word
from speclint.frontends.shell.wrappers import RUNNERS
from speclint.sglang.flags.versions import package_pin

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.spans import Span
    from speclint.frontends.shell.variables import VarValue
    from speclint.frontends.shell.walking import Walking

Pin = tuple[str | None, "Span | None"]
"""(the requirement as written, where): a launch's `image`."""

# `uv tool run` / `uvx` (uv's `ToolRunArgs` and the shared index, resolver, installer, cache
# and global options): the options that take a value
_UV_TOOL_RUN = RUNNERS[("uv", "run")] - {
    "--extra",
    "--group",
    "--only-group",
    "--package",
    "--project",
} | frozenset(
    """--from --constraints -c --overrides --build-constraints --index-strategy
    --keyring-provider --resolution --prerelease --exclude-newer --no-build-package
    --no-binary-package --refresh-package --reinstall-package --upgrade-package -P --link-mode
    --config-setting -C --python-preference --color --allow-insecure-host --torch-backend""".split()
)
# `pipx run` (pipx's `_add_run` argparse options that take a value)
_PIPX_RUN = frozenset({"--spec", "--python", "--pip-args", "--index-url", "-i", "--backend"})
_PINS = frozenset({"--with", "--from", "--spec"})
_REQUIREMENT = re.compile(r"([A-Za-z0-9][A-Za-z0-9._-]*)\s*(\[[^\]]*\])?\s*(===?|[<>~!]=|[<>])")
"""A requirement with a version (PEP 508's name, extras, a version operator): its name."""


def runner_command(args: list[Arg], i: int) -> tuple[list[Arg], int, Pin | None, bool]:
    """For a runner at `args[i]`: the words of the command it runs (`args`, or a copy whose
    `uvx` COMMAND@VERSION has lost its `@VERSION`), where the command starts, the pin of
    SGLang its options make, and whether the command is `-m MODULE` (the index is then the
    module's). The index is len(args) when this is not a command the runner runs."""
    base = (args[i].word.text or "").rsplit("/", 1)[-1]
    following = args[i + 1].word.text if i + 1 < len(args) else None
    if base == "uvx":
        return _options(args, i + 1, _UV_TOOL_RUN, base, tool=True)
    if base == "uv" and following == "tool":
        if i + 2 < len(args) and args[i + 2].word.text == "run":
            return _options(args, i + 3, _UV_TOOL_RUN, base, tool=True)
        return args, len(args), None, False
    if base == "pipx":
        if following != "run":
            return args, len(args), None, False
        return _options(args, i + 2, _PIPX_RUN, base)
    valued = RUNNERS.get((base, following or ""))
    if valued is None:
        return args, len(args), None, False
    return _options(args, i + 2, valued, base)


def _options(
    args: list[Arg], i: int, valued: frozenset[str], base: str, tool: bool = False
) -> tuple[list[Arg], int, Pin | None, bool]:
    pin: Pin | None = None
    while i < len(args) and (args[i].word.text or "").startswith("-"):
        text = args[i].word.text or ""
        option, equals, _ = text.partition("=")
        if option in ("-m", "--module") and base == "uv" and not tool:
            if equals:  # `--module=NAME`: the module is the rest of the word
                module = Arg(value_word(args[i], len(option) + 1), None)
                return [*args[:i], module, *args[i + 1 :]], i, pin, True
            return args, i + 1, pin, True
        if text == "--":
            i += 1
            break
        value: tuple[Arg, int] | None = None
        if equals and option.startswith("--"):
            value = (args[i], len(option) + 1)
        elif text in valued and i + 1 < len(args):
            value = (args[i + 1], 0)
            i += 1
        i += 1
        if value is not None and option in _PINS:
            pin = _pinned(*value) or pin
    if tool and i < len(args):
        args, pin = _versioned_command(args, i, pin)
    if base == "pipx" and i < len(args):
        args, pin = _requirement_app(args, i, pin)
    return args, i, pin, False


def _requirement_app(args: list[Arg], i: int, pin: Pin | None) -> tuple[list[Arg], Pin | None]:
    """pipx's `run APP` where APP is a requirement (`pipx run sglang==0.5.2 serve`, pipx's
    run.py: the app run is `Requirement(app).name`, installed from APP unless `--spec`
    names the package): the command is the name; the pin is APP's when no `--spec` gave one."""
    text = args[i].word.text
    match = _REQUIREMENT.match(text or "")
    if text is None or match is None:
        return args, pin
    if pin is None and "==" in text and package_pin(text):
        word = value_word(args[i], 0)
        pin = (word.text, word.span)
    return [*args[:i], Arg(value_word(args[i], 0, match.end(1)), None), *args[i + 1 :]], pin


def _pinned(arg: Arg, skip: int) -> Pin | None:
    """The requirement of an option's value (`NAME==V`, or each of `A,B==V` split at the
    commas outside `[...]`) that pins SGLang, with its place."""
    text = arg.word.text
    if text is None:
        return None
    start = skip
    depth = 0
    for at in range(skip, len(text) + 1):
        char = text[at] if at < len(text) else ","
        depth += (char == "[") - (char == "]")
        if char == "," and depth <= 0:
            requirement = text[start:at].strip()
            if package_pin(requirement):
                word = value_word(arg, start, at)
                return word.text, word.span
            start = at + 1
    return None


def _versioned_command(args: list[Arg], i: int, pin: Pin | None) -> tuple[list[Arg], Pin | None]:
    """uvx's `COMMAND@VERSION`: the command without `@VERSION`, and its pin when it is SGLang's."""
    text = args[i].word.text
    if text is None or "@" not in text or text.startswith("@"):
        return args, pin
    at = text.index("@")
    command = Arg(value_word(args[i], 0, at), None)
    if package_pin(text):
        word = value_word(args[i], 0)
        pin = (word.text, word.span)
    return [*args[:i], command, *args[i + 1 :]], pin


# `pip install` options that take a value (pip's `install` command and its general options;
# uv's `uv pip install` adds `--python`/`-p`): the words after them are not requirements
_PIP_VALUE = frozenset(
    """-r --requirement -c --constraint -e --editable -t --target --platform --python-version
    --implementation --abi --root --prefix --src --upgrade-strategy -C --config-settings
    --global-option --no-binary --only-binary --progress-bar --root-user-action --report -i
    --index-url --extra-index-url -f --find-links --log --proxy --retries --timeout
    --exists-action --trusted-host --cert --client-cert --cache-dir --python -p
    --keyring-provider --index-strategy --override --overrides --torch-backend""".split()
)


PIN_VARIABLE = "__speclint_pip_pin"
"""The variable that holds the last `pip install sglang==X` of this path through the script
(its text the requirement, its origin where written): a pin installed in one arm of an `if`,
`case` or `||` is then a value chosen by a branch, and a launch after it is one alternative
per arm (`alternatives`), each checked against the release that arm installs."""


def record_install(walker: Walking, args: list[Arg], i: int) -> None:
    """`pip install sglang==X` (`args[i]`: `pip`): the script's later launches run X (the
    walker's image, as a `docker run` image is for the script it runs; `PIN_VARIABLE`)."""
    pin = install_pin(args, i)
    if pin is not None:
        from speclint.frontends.shell.variables import VarValue

        walker.image = pin
        walker.env.vars[PIN_VARIABLE] = VarValue(text=pin[0], origin=pin[1])


def uncertain_pin(walker: Walking, span: Span, value: VarValue) -> None:
    """A launch at `span` after a `pip install sglang==X` that only some paths ran, with no
    alternatives kept for them (`value`: `PIN_VARIABLE`, unknown): said, the release is not
    known (the launch carries no pin)."""
    from speclint.core.diagnostics import Diagnostic

    line = f" (line {value.origin.line})" if value.origin is not None else ""
    found = Diagnostic(
        "release-uncertain",
        f"the `pip install sglang==X`{line} before this launch runs on some paths only: the SGLang "
        "release it runs is not known, so its flags are checked against the release the summary "
        "names, unverified for the one installed",
        span,
    )
    if walker.collect and found not in walker.result.diagnostics:
        walker.result.diagnostics.append(found)


def install_pin(args: list[Arg], i: int) -> Pin | None:
    """For `pip install [options] REQUIREMENT...` (`args[i]`: the word `pip`, or the module
    name of `python -m pip`, or `pip` of `uv pip`): the last requirement that pins SGLang
    exactly, with its place; None when it installs no such pin."""
    if i + 1 >= len(args) or args[i + 1].word.text != "install":
        return None
    pin: Pin | None = None
    k = i + 2
    while k < len(args):
        text = args[k].word.text
        k += 1
        if text is None:
            continue
        if text.startswith("-"):
            k += text in _PIP_VALUE
            continue
        if package_pin(text):
            pin = (text, args[k - 1].word.span)
    return pin
