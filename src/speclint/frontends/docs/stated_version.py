"""The SGLang release a Markdown document states in its own words: a line `sglang: 0.5.17`
(what `python -m sglang.check_env` prints for the installed release, in every release's
`check_env.py`: `print(f"{k}: {v}")` over its package versions, `sglang` first; the
Environment section of SGLang's issue template asks for that output) or `SGLang Version:
0.5.9` (the "Test Environment" list of SGLang's model pages), possibly as a list item, in bold
or in a quoted reply. The document's launches that name no image or pin of their own are
checked against that release, as a notebook's launches are against its `pip install` pin
(`notebook_pins`): the line is the pin, at its place. A document that states two releases
states none (which launch ran on which is not written); a development build
(`0.5.10.post1.dev20260426+g...`) or a range is no release.
"""

from __future__ import annotations

import re
from functools import cache

from speclint.core.spans import Span

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.launches import Launch


@cache  # compiled on first use: only for a document that names a version
def _line() -> re.Pattern[str]:
    return re.compile(
        r"^[ \t]*(?:>[ \t]*)*(?:[-*+][ \t]+)?(?:\*\*|__)?sglang(?:[ \t]+version)?(?:\*\*|__)?[ \t]*:"
        r"[ \t]*(?:\*\*|__)?[ \t]*`?(v?\d[\w.+]*?)\.?`?[ \t]*(\(.*)?$",
        re.I | re.M,
    )


def stated_release(text: str) -> tuple[str, Span] | None:
    """(release, its span) of the one release the document's version lines state, None when
    none does or they state different ones."""
    if "sglang" not in text.lower():
        return None
    from speclint.sglang.flags.versions import package_pin

    found: tuple[str, Span] | None = None
    for match in _line().finditer(text):
        version = match.group(1)
        release = package_pin("sglang==" + version.removeprefix("v").removeprefix("V"))
        if release is None:
            continue
        if found is not None and found[0] != release:
            return None
        if found is None:
            line = text.count("\n", 0, match.start(1)) + 1
            column = match.start(1) - (text.rfind("\n", 0, match.start(1)) + 1) + 1
            found = (release, Span(line, column, line, column + len(version)))
    return found


def state_launches(launches: list[Launch], text: str) -> None:
    """Give each launch without an image or pin of its own the release the document states."""
    if not launches or all(launch.image is not None for launch in launches):
        return
    stated = stated_release(text)
    if stated is None:
        return
    from speclint.sglang.flags.versions import STATED

    release, span = stated
    for launch in launches:
        if launch.image is None:
            launch.image, launch.image_span = STATED + release, span
