"""The SGLang release a Markdown document states in its own words: a line `sglang: 0.5.17`
(what `python -m sglang.check_env` prints for the installed release: every release's
`check_env.py`, 0.4.0 to 0.5.23 as read from the 92 wheels, prints `f"{k}: {v}"` over the
versions of its PACKAGE_LIST, whose first entry is `sglang`; the
Environment section of SGLang issue threads pastes that output), `SGLang Version:
0.5.9` (the "Test Environment" list of SGLang's model pages), `sglang    0.5.15` (a `pip list`
line) or `sglang==0.5.16` (a `pip freeze` line, after a `Version:` label too), possibly as a
list item, in bold or in a quoted reply. The document's launches that name no image or pin of their own are
checked against that release, as a notebook's launches are against its `pip install` pin
(`notebook_pins`): the line is the pin, at its place. A document that states two releases
states none (which launch ran on which is not written); a development build
(`0.5.10.post1.dev20260426+g...`) or a range is no release; a pre-release (`0.5.2rc2`) is
checked against the closest older bundled release, and the summary says so.
"""

from __future__ import annotations

import re
from functools import cache

from speclint.core import patterns
from speclint.core.spans import Span

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.launches import Launch


_LEAD = r"^[ \t]*(?:>[ \t]*)*(?:[-*+][ \t]+)?"
"""Blanks, quote markers of a reply, a list item's bullet."""
_BOLD = r"(?:\*\*|__)?"


@cache  # compiled on first use: only for a document that names a version
def _lines() -> tuple[re.Pattern[str], ...]:
    """A line that states the release: `sglang: X` / `SGLang Version: X` (check_env, model
    pages), `sglang    X` (`pip list`), `sglang==X` (`pip freeze`; after a `Version:` label
    too). The release is group 1; a remark in parentheses may follow."""
    version = r"`?(v?\d[\w.+]*?)\.?`?[ \t]*(?:\(.*)?$"
    after = r":[ \t]*(?:(?:\*\*|__)[ \t]*)?"  # (one run of blanks each side of `**`: no backtracking)
    colon = rf"{_LEAD}{_BOLD}sglang(?:[ \t]+version)?{_BOLD}[ \t]*{after}{version}"
    pip_list = r"^[ \t]*(?:>[ \t]*)*sglang[ \t]+(v?\d[\w.+]*)[ \t]*$"
    label = rf"(?:{_BOLD}version{_BOLD}[ \t]*{after})?"
    freeze = rf"{_LEAD}{label}`?sglang(?:\[[\w,-]*\])?===?{version}"
    return tuple(
        patterns.compile(pattern, patterns.IGNORECASE | patterns.MULTILINE)
        for pattern in (colon, pip_list, freeze)
    )


@cache
def _prose() -> tuple[re.Pattern[str], ...]:
    """A sentence that states the release the writer ran, anywhere in a line (searched, not
    matched at its start): `I'm running sglang 0.5.17`, `tested on SGLang v0.5.9`, `using
    sglang==0.5.9`, `upgraded to sglang 0.5.17`, `sglang version 0.5.17`, and a `pip install
    ... sglang==0.5.9` (inline code too). Only these: a release after a bare `on`, `with`,
    `since` or `from` (`fixed on SGLang 0.5.6`, `starting with SGLang 0.5.14`) is what a
    feature needs or a fact about that release, not what ran. The release is group 1: a
    whole release number or a release candidate (`0.5.2rc2`), not the start of a longer one
    (`0.5.10.dev1`)."""
    version = r"`?(v?\d+(?:\.\d+)+(?:\.?post\d+|rc\d+)?)(?![\w+]|\.\w)"
    extras = r"(?:\[[\w,-]*\])?"
    verbs = (
        r"\b(?:running|using|installed|tried|(?:up|down)graded[ \t]+to|updated[ \t]+to"
        r"|(?:(?:tested|testing|reproduced|happens|occurs|i'?m|i[ \t]+am|we'?re|we[ \t]+are)[ \t]+(?:on|with)))"
    )
    ran = rf"{verbs}[ \t]+(?:the[ \t]+)?(?:latest[ \t]+)?`?sglang{extras}(?:[ \t]*==[ \t]*|[ \t]+(?:version[ \t]+)?){version}"
    labelled = rf"\bsglang[ \t]+version[ \t]+(?:is[ \t]+)?{version}"
    pip = rf"\bpip3?[ \t]+install\b[^\n`]*?[ \t\"']sglang{extras}===?{version}"
    return tuple(patterns.compile(pattern, patterns.IGNORECASE) for pattern in (ran, labelled, pip))


def stated_release(text: str) -> tuple[str, Span] | None:
    """(release, its span) of the one release the document's version lines state, None when
    none does or they state different ones."""
    if "sglang" not in text.lower():
        return None
    from speclint.sglang.flags.versions import package_pin

    found: tuple[str, Span] | None = None
    matches = sorted(_matches(text), key=lambda m: m.start(1))
    for match in matches:
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


def _matches(text: str) -> list[re.Match[str]]:
    """Every pattern's matches in `text` (`finditer` over it), tried only on the lines that
    name sglang in any case: each pattern starts at a line's start and needs `sglang` (a match
    never spans lines), so the other lines, most of a document, cannot match."""
    line_patterns = _lines()
    found: list[re.Match[str]] = []
    start = 0
    for line in text.split("\n"):
        end = start + len(line)
        if "sglang" in line.casefold():  # (what `re.I` folds to these letters, casefold folds)
            for pattern in line_patterns:
                match = pattern.match(text, start, end)  # (`^` holds at a line's start)
                if match is not None:
                    found.append(match)
            for pattern in _prose():
                found.extend(pattern.finditer(text, start, end))
        start = end + 1
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
