"""Hostile inputs for the Python forms of issue 14 (helpers, class attributes, split and
joined strings, if-arm alternatives): bounded work, a located result, never a crash or a hang.
Time bounds here are generous ceilings against runaway (exponential) work, not speed targets."""

from __future__ import annotations

import os
import time

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from speclint.engine import lint_text
from speclint.frontends import extract_file

LAUNCH = "['python3', '-m', 'sglang.launch_server', '--model-path', 'm', '--tp-szie', '2']"
EXAMPLES = int(os.environ.get("SPECLINT_FUZZ_EXAMPLES", "30"))


def timed(text: str, limit: float = 20.0):
    start = time.monotonic()
    result = lint_text(text, "hostile.py")
    assert time.monotonic() - start < limit
    return result


def test_a_helper_calling_itself_is_not_followed():
    text = (
        "import subprocess\ndef build(n):\n    return build(n - 1) + ['--tp', '2']\n"
        f"subprocess.Popen({LAUNCH[:-1]}, *build(3)])\n"
    )
    [launch] = extract_file("x.py", text).launches
    assert launch.args[-1].splat and "calls itself" in launch.args[-1].dynamic_reason


def test_mutually_recursive_helpers_stop():
    text = "import subprocess\ndef a(): return b()\ndef b(): return a()\nsubprocess.Popen(a())\n"
    result = timed(text)
    assert result.findings == [] or all(f.span.line >= 1 for f in result.findings)


def test_helpers_nested_deeper_than_the_bound_give_an_unknown_with_the_reason():
    chain = "".join(f"def h{i}():\n    return h{i + 1}()\n" for i in range(300))
    text = f"import subprocess\n{chain}def h300():\n    return {LAUNCH}\nsubprocess.Popen(h0())\n"
    assert extract_file("x.py", text).launches == []  # the argv never becomes a list: unknown
    short = (
        "import subprocess\n"
        + "".join(f"def g{i}():\n    return g{i + 1}()\n" for i in range(5))
        + f"def g5():\n    return {LAUNCH}\nsubprocess.Popen(g0())\n"
    )
    assert [f.code for f in timed(short).findings] == ["FLG001"]


def test_helpers_calling_helpers_twice_each_are_bounded():
    """4**7 calls if followed naively (within the depth bound)."""
    chain = "".join(
        f"def h{i}():\n    return h{i + 1}() + h{i + 1}() + h{i + 1}() + h{i + 1}()\n" for i in range(7)
    )
    text = f"import subprocess\n{chain}def h7():\n    return ['--tp', '2']\nsubprocess.Popen(['sglang', 'serve', *h0()])\n"
    timed(text)
    [launch] = extract_file("x.py", text).launches
    assert (
        launch.args[-1].dynamic
        and "more helper calls than speclint follows" in launch.args[-1].dynamic_reason
    )


def test_a_huge_join_and_a_huge_split_string_are_bounded():
    words = ", ".join(f"'--w{i}'" for i in range(6_000))  # past the 4096-element bound
    text = f"import os, shlex, subprocess\nos.system(' '.join(['python -m sglang.launch_server', {words}]))\n"
    result = timed(text)
    assert all(f.span.line == 2 for f in result.findings)
    big = "--tp-szie 2 " * 50_000
    text = f"import shlex, subprocess\nsubprocess.run(shlex.split('python -m sglang.launch_server {big}'))\n"
    result = timed(text)
    assert result.findings and all(f.span.line == 2 for f in result.findings)


def test_many_if_arms_and_many_ifs_stay_within_the_alternatives_bound():
    ifs = "".join(
        f"if c{i}:\n    kw.update(tp_size={i + 1})\nelse:\n    kw.update(dp_size={i + 1})\n"
        for i in range(30)
    )
    text = "import sglang as sgl\nkw = dict(model_path='m')\n" + ifs + "sgl.Engine(**kw)\n"
    launches = extract_file("x.py", text).launches
    assert 1 <= len(launches) <= 16
    chain = "".join(
        f"{'if' if i == 0 else 'elif'} x == {i}:\n    kw.update(tp_size={i + 1})\n" for i in range(150)
    )
    text = "import sglang as sgl\nkw = dict(model_path='m')\n" + chain + "sgl.Engine(**kw)\n"
    result = timed(text)
    assert all(f.span.line >= 1 for f in result.findings)


def test_a_class_with_many_methods_setting_attributes():
    methods = "".join(f"    def m{i}(self):\n        self.args = ['--tp', '{i}']\n" for i in range(2000))
    text = (
        "import unittest\nfrom sglang.test.test_utils import popen_launch_server\n"
        f"class T(unittest.TestCase):\n{methods}"
        "    def test_z(self):\n        popen_launch_server('m', 'u', 600, other_args=self.args)\n"
    )
    [launch] = extract_file("x.py", text).launches
    assert launch.args[-1].dynamic or launch.args[-1].splat  # set differently by 2000 methods


_PIECES = [
    "def build(m, k=1):\n    return ['--model-path', m, '--speculative-num-steps', str(k)]\n",
    "def build(m):\n    return build(m)\n",
    "def wrap():\n    return build('x') + ['--tp', '2']\n",
    "subprocess.Popen(['python', '-m', 'sglang.launch_server', *wrap()])\n",
    "subprocess.Popen(shlex.split(f'python -m sglang.launch_server --port {port} --tp-szie 2'))\n",
    "os.system(' '.join(['python', '-m', 'sglang.launch_server', MODEL]))\n",
    "class T:\n    def setUp(self):\n        self.other_args = ['--tp', '2']\n"
    "    def test(self):\n        popen_launch_server(MODEL, URL, 600, other_args=self.other_args)\n",
    "kw = dict(model_path='m')\n",
    "if a:\n    kw.update(speculative_num_steps=k)\nelif b:\n    kw.update(x=1)\n",
    "sgl.Engine(**kw)\n",
    "k = k + 1\n",
    "MODEL = '/m'\n",
    "for k in range(3):\n    kw.update(tp_size=k)\n",
    "cmd = 'python -m sglang.launch_server --mem-fraction 0.8'.split()\n",
    "subprocess.run(cmd)\n",
]


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize="SPECLINT_FUZZ_EXAMPLES" not in os.environ,
    suppress_health_check=list(HealthCheck),
)
@given(st.lists(st.sampled_from(_PIECES), min_size=1, max_size=10), st.data())
def test_composed_new_forms_never_raise(parts, data):
    text = "import os, shlex, subprocess\nimport sglang as sgl\n" + "".join(parts)
    if data.draw(st.booleans()):
        where = data.draw(st.integers(0, len(text)))
        text = (
            text[:where]
            + data.draw(st.sampled_from(["(", ")", ":", "\n  ", "'", "\0", "#", "{", ""]))
            + text[where:]
        )
    result = lint_text(text, "x.py")
    lines = text.count("\n") + 1
    assert all(1 <= f.span.line <= lines for f in result.findings)


def test_class_cycles_deep_hierarchies_and_many_subclasses_are_bounded():
    base = (
        "from sglang.test.test_utils import popen_launch_server\n"
        "class A(Z):\n    other_args = ['--tp', '1']\n"
        "    @classmethod\n    def setUpClass(cls):\n        popen_launch_server('m', 'u', 600, other_args=cls.other_args)\n"
        "class Z(A):\n    other_args = ['--tp', '2']\n"
    )
    launches = extract_file("x.py", base).launches  # a cycle: each class once
    assert 1 <= len(launches) <= 3
    deep = base + "".join(
        f"class D{i}({'A' if i == 0 else f'D{i - 1}'}):\n    other_args = ['--tp-szie', '{i}']\n"
        for i in range(400)
    )
    result = timed(deep)
    assert len(extract_file("x.py", deep).launches) <= 1 + 64 + 2  # MAX_INHERITED_WALKS
    assert all(f.span.line >= 1 for f in result.findings)


def test_many_calls_of_a_launching_function_are_bounded():
    calls = "".join(f"start(['--tp', '{i}'])\n" for i in range(1000))
    text = (
        "import subprocess\ndef start(args):\n    subprocess.Popen(['python', '-m', 'sglang.launch_server'] + args)\n"
        "def again(args):\n    start(args)\n    again(args)\n" + calls
    )
    timed(text)
    launches = extract_file("x.py", text).launches
    assert 2 <= len(launches) <= 1 + 8  # the function alone, then at most MAX_SITES calls


def test_shlex_split_without_a_string_is_an_unknown_word_not_a_crash():
    # `shlex.split()` once raised IndexError (found by mypy --strict): now a splat word
    text = (
        "import shlex, subprocess\nsubprocess.run(['python', '-m', 'sglang.launch_server'] + shlex.split())\n"
    )
    [launch] = extract_file("x.py", text).launches
    assert launch.args[-1].splat and "shlex.split(...)" in launch.args[-1].dynamic_reason
