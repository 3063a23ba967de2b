"""The hand-written matchers that replace regexes compiled at import on a cold run (a release
in an image tag, a Python interpreter's name) accept exactly what those regexes accepted:
checked against the regexes themselves on every string of up to four pieces that matter."""

from __future__ import annotations

import itertools
import re

from speclint.frontends.shell.launch import _is_python
from speclint.sglang.flags.versions import _tag_version, version_from_image, version_key

PIECES = ["v", "0", "5", "12", ".", "post", "p", "t", "x", "-", "\u0663", "python", "pypy", "3"]
TAG = re.compile(r"^v?(\d+)\.(\d+)\.(\d+)(?:\.?post(\d+))?(?![\d.])")
PYTHON = re.compile(r"(python|pypy)(\d+(\.\d+)*t?)?")


def _texts():
    for length in range(6):
        for pieces in itertools.product(PIECES, repeat=length if length < 5 else 0):
            yield "".join(pieces)
    yield from ("0.5.6.post2", "v0.5.6post2-cu126", "0.5.6.post2.", "0.5.6post2.", "0.5.12.3")


def test_a_release_tag_is_read_as_the_regex_read_it():
    for text in _texts():
        found = TAG.match(text)
        assert _tag_version(text) == (None if found is None else found.groups()), text


def test_a_python_interpreter_is_named_as_the_regex_named_it():
    for text in _texts():
        assert _is_python(text) == (PYTHON.fullmatch(text) is not None), text


def test_what_users_see_of_a_tag():
    assert version_from_image("lmsysorg/sglang:v0.5.6.post2-cu126") == "0.5.6.post2"
    assert version_from_image("lmsysorg/sglang:dev") is None
    assert version_key("0.5.6") < version_key("0.5.6.post2") < version_key("0.5.7")
    assert version_key("nightly") == (-1, 0, 0, 0)
