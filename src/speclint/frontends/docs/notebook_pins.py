"""SGLang pinned by a notebook's install line: `%pip install "sglang[all]==X"` (IPython's
magic, which installs into the kernel's environment) or `!pip install ...` (`pip3`, `python -m
pip`, `uv pip`) in a code cell. The launches of later lines that name no image of their own
(`!python -m sglang.launch_server`, `subprocess.Popen([...])`, `sgl.Engine(...)` run by the
kernel after the install) are checked against X, as the launches after `pip install` in a
shell script are (`shell.python_runners.install_pin`): the requirement is the pin, at its
place. A range, an unpinned name or a requirements file (`-r`) pins nothing.
"""

from __future__ import annotations

import re

from speclint.core.spans import Span

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.launches import Launch

_INSTALL = re.compile(
    r"[ \t]*[!%][ \t]*(?:uv[ \t]+)?(?:pip3?|python3?[ \t]+-m[ \t]+pip)[ \t]+install[ \t](.*)"
)
_TOKEN = re.compile(r"""'([^']*)'|"([^"]*)"|([^\s'"]+)""")


def install_pins(text: str, starts: list[int]) -> list[tuple[int, str, Span]]:
    """(offset of the install line, the requirement pinning SGLang, its span) for each install
    line of the notebook's code `text` that pins SGLang exactly (the last such requirement
    of the line)."""
    if "install" not in text:
        return []
    from speclint.frontends.shell.python_runners import _PIP_VALUE
    from speclint.sglang.flags.versions import package_pin

    pins = []
    for line_number, start in enumerate(starts):
        end = starts[line_number + 1] - 1 if line_number + 1 < len(starts) else len(text)
        match = _INSTALL.match(text, start, end)
        if match is None or match.group(1).count('"') % 2 or match.group(1).count("'") % 2:
            continue  # (an unclosed quote: the shell refuses the line)
        pin: tuple[int, str, Span] | None = None
        skip = False
        for token in _TOKEN.finditer(text, match.start(1), end):
            word = next(group for group in token.groups() if group is not None)
            begin = token.start() + (token.group(3) is None)
            if skip or word.startswith("-"):
                skip = not skip and word in _PIP_VALUE
                continue
            if package_pin(word):
                column = begin - start + 1
                pin = (start, word, Span(line_number + 1, column, line_number + 1, column + len(word)))
        if pin is not None:
            pins.append(pin)
    return pins


def pin_launches(launches: list[Launch], pins: list[tuple[int, str, Span]], starts: list[int]) -> None:
    """Give each launch without an image the latest pin written before it."""
    if not pins:
        return
    for launch in launches:
        if launch.image is not None:
            continue
        at = starts[launch.span.line - 1] + launch.span.column - 1
        before = [pin for pin in pins if pin[0] < at]
        if before:
            _, launch.image, launch.image_span = before[-1]
