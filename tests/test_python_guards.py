"""A guard that refuses the file's own value (`if X is None: raise`, `assert cls.mode`, `if not
ENABLED: return`) means the launch after it runs with a value set elsewhere: that value is
unknown (SLM004 names the guard's line), never the placeholder reported as an invalid flag
value, and a launch after a `return` the file's own values take is still read."""

from __future__ import annotations

from fixture_file import FixtureFile

BASE = FixtureFile("python/guarded_base_class.py")
GLOBALS = FixtureFile("python/guarded_globals.py")

REST = "its value at run time is set elsewhere (a subclass, a caller or the environment)"


def test_a_base_class_that_refuses_its_own_placeholders() -> None:
    findings = BASE.findings()
    assert [f[:4] for f in findings] == [
        ("SLM004", 25, 17, "cls.storage_backend"),
        ("FLG005", 29, 18, "two"),  # the rest of the launch is still checked
    ]
    message = findings[0][4]
    assert (
        f"`--hicache-storage-backend` (`cls.storage_backend` as this file sets it makes line 17 raise "
        f"before the launch: {REST})" in message
    )
    assert (
        f"`--attention-backend` (`cls.attention_backend` as this file sets it makes line 19 fail its "
        f"assert before the launch: {REST})" in message
    )


def test_module_placeholders_refused_by_exit_and_assert() -> None:
    findings = GLOBALS.findings()
    (partly,) = [f for f in findings if f[0] == "SLM004"]
    assert partly[1:4] == (18, 39, "BACKEND")
    assert f"(`BACKEND` as this file sets it makes line 13 exit before the launch: {REST})" in partly[4]
    assert (
        f"(`MODE` as this file sets it makes line 15 fail its assert before the launch: {REST})" in partly[4]
    )
    assert "FLG006" not in {f[0] for f in findings if f[1] == 18}


def test_a_launch_after_a_return_the_file_values_take_is_read() -> None:
    """`if not ENABLED: return` with ENABLED = False: the launch after it was never read."""
    (invalid,) = [f for f in GLOBALS.findings() if f[0] == "FLG006"]
    assert invalid[1:4] == (27, 107, "fa9")
    assert invalid[4].startswith("`fa9` is not a valid value for `--attention-backend`")


def test_a_guard_the_values_pass_changes_nothing(tmp_path) -> None:
    from speclint.engine import lint_text

    text = (
        "import subprocess\nBACKEND = 'file'\nif BACKEND is None:\n    raise SystemExit(1)\n"
        "assert BACKEND\nsubprocess.run(['python', '-m', 'sglang.launch_server', '--model-path', 'm',"
        " '--hicache-storage-backend', BACKEND, '--tp-size', 'x'])\n"
    )
    findings = lint_text(text, str(tmp_path / "serve.py")).findings
    assert [(f.code, f.span.line, f.span.column) for f in findings] == [
        ("FLG005", 6, 130)
    ]  # the `x`, no SLM004


def test_an_arm_that_works_and_returns_is_a_path_not_a_guard(tmp_path) -> None:
    """`if MODE == "prefill": launch(); return` keeps only the arm the file's values take (the
    decode launch after it is not read); `if DRY_RUN: print(...); return` only says why it
    stops: the launch after it is read."""
    from speclint.engine import lint_text

    launch = "subprocess.run(['python', '-m', 'sglang.launch_server', '--model-path', 'm', {}])\n"
    text = (
        "import subprocess\nMODE = 'prefill'\nDRY_RUN = True\n\n"
        "def serve():\n    if MODE == 'prefill':\n        "
        + launch.format("'--tp-size', '1'")
        + "        return\n    "
        + launch.format("'--tp-size', 'x'")
        + "\ndef dry():\n    if DRY_RUN:\n        print('would run')\n        return\n    "
        + launch.format("'--tp-size', 'y'")
        + "\nserve()\ndry()\n"
    )
    findings = lint_text(text, str(tmp_path / "serve.py")).findings
    assert [(f.code, f.span.line, f.message.split(":")[0]) for f in findings] == [
        ("FLG005", 15, "`y` is not a valid value for `--tp-size`")
    ]
