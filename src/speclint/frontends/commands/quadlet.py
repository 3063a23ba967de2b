"""Podman Quadlet `.container` files: the container a generated service runs.

podman-systemd.unit(5) / podman-container.unit(5): the `[Container]` section describes a
container that Quadlet turns into `ExecStart=podman run ... IMAGE ARGS` of a generated
`.service`; `Image=` is required; `Exec=` is "additional arguments for the container; this
has exactly the same effect as passing more arguments after a `podman run <image>
<arguments>` invocation", in the format of systemd command lines; `Entrypoint=` is
`--entrypoint`; `Environment=` sets the container's environment (systemd's `Environment=`
format), `AddDevice=` is `--device`, `PodmanArgs=` are more `podman run` options. The unit is
read as that `podman run` command (`shell.docker`: the image tag picks the SGLang release, as
for `docker run`). Quadlet writes the words into `ExecStart=` quoting only blanks, quotes and
backslashes, so systemd then expands their `${X}`, `$X` and `%` specifiers (from the
`[Service]` section's `Environment=`, not the container's); the last `Image=`, `Exec=` and
`Entrypoint=` win, each `Environment=`, `AddDevice=` and `PodmanArgs=` adds.
"""

from __future__ import annotations

from speclint.core.launches import ExtractResult
from speclint.frontends.commands.systemd import Unit, settings_of, specifiers
from speclint.frontends.commands.text import (
    Char,
    argv_item,
    comment_lines,
    split_quoted,
    unclosed_quote,
    unique_comments,
    walk_shell,
)
from speclint.frontends.shell.embedded import ArgvItem, Budget, ShellBuffer
from speclint.frontends.shell.pieces import Piece

_SINGLE = ("Image", "Exec", "Entrypoint")
"""Keys whose last setting wins."""
_OPTIONS = {"Environment": "--env", "AddDevice": "--device", "EnvironmentFile": "--env-file"}
"""Keys that each add a `podman run` option with its value."""


def _virtual(text: str, at: int) -> ArgvItem:
    """A word Quadlet writes into the generated command, placed where the setting is."""
    return ArgvItem([Piece(text, at, at)])


def extract_quadlet(
    text: str, path: str, written: dict[str, str] | None = None, base: str | None = None
) -> ExtractResult:
    """The launch a `.container` file's `Exec=` (or `Entrypoint=`) runs in its `Image=`
    (`written`: names standing for text unknown when the file was written, with why; `base`:
    the `.container` a drop-in (`x.container.d/*.conf`) extends, not read with it: its
    `Image=` is unknown unless the drop-in sets one)."""
    unit = Unit(text, written, base, quadlet=True)
    result = ExtractResult(comments=comment_lines(text, unit.starts, "#"))
    single: dict[str, tuple[list[Char], int]] = {}
    options: list[ArgvItem] = []
    for key, value, _ in settings_of(text, unit.starts, "Container"):
        if key in _SINGLE:
            single[key] = (value, value[0][1] if value else 0)
        elif key in _OPTIONS and value:
            words = _words(unit, value, result)
            if key == "Environment":
                words = [w for w in words if "=" in "".join(p.text or "" for p in w.pieces)]
            for word in words:
                options += [_virtual(_OPTIONS[key], value[0][1]), word]
        elif key == "PodmanArgs" and value:
            options += _words(unit, value, result)
    image = single.get("Image")
    command = single.get("Exec")
    entrypoint = single.get("Entrypoint")
    if base is not None and image is None:
        image = ([], command[1] if command is not None else 0)
    if image is None or (not image[0] and base is None) or "sglang" not in text:
        return result
    if (command is None or "sglang" not in "".join(c[0] or "" for c in command[0])) and (
        entrypoint is None or "sglang" not in "".join(c[0] or "" for c in entrypoint[0])
    ):
        unique_comments(result)
        return result
    at = (command or entrypoint or image)[1]
    buffer = ShellBuffer(text, unit.starts, Budget())
    for item in [_virtual("podman", at), _virtual("run", at), *options]:
        buffer.add_word(item)
    if entrypoint is not None and entrypoint[0]:
        buffer.add_word(_virtual("--entrypoint", entrypoint[1]))
        buffer.add_word(argv_item(entrypoint[0]))  # a JSON list stays one word: not read
    named = "".join(c[0] or "" for c in image[0])
    if not image[0]:  # a drop-in: the image is the base file's
        why = f"the image is set by `Image=` in `{base}` (not read with this drop-in)"
        buffer.add_word(ArgvItem([Piece(None, image[1], image[1], reason=why)]))
    elif named.endswith((".image", ".build")):  # another Quadlet unit makes the image
        why = f"`Image={named}` names a Quadlet unit that pulls or builds the image: not read"
        buffer.add_word(ArgvItem([Piece(None, image[0][0][1], image[0][-1][2], reason=why)]))
    else:
        buffer.add_word(argv_item(image[0]))
    for word in _words(unit, command[0], result) if command is not None else []:
        buffer.add_word(word)
    walk_shell(result, path, buffer, {})
    unique_comments(result)
    return result


def _words(unit: Unit, value: list[Char], result: ExtractResult) -> list[ArgvItem]:
    """A value in systemd's command-line format, as the words systemd passes (its `$X`,
    `${X}` and specifiers expanded)."""
    unclosed: list[int] = []
    words = split_quoted(value, True, unclosed)
    if unclosed:
        unclosed_quote(result, unit.starts, unclosed[0], "Quadlet cannot split this value into words")
        return []
    return [item for word in words for item in unit.items(specifiers(word), True)]
