"""`tools/gen_deterministic_facts.py`: the stored module (src/speclint/sglang/traits_deterministic.py)
is what the cached wheels of every modelled release give, and `--check` says whether a stored
module is what the wheels give (exit 1 and says so when not), writing nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from regenerated import SGLANG_WHEELS, assert_regenerates, use_tools


def test_regenerating_from_the_cached_wheels_reproduces_the_stored_module() -> None:
    use_tools()
    from gen_deterministic_facts import OUT, _modelled, build, render

    versions = _modelled()
    assert_regenerates(OUT, versions, lambda: render(build(versions, str(SGLANG_WHEELS))))


def test_check_says_whether_the_stored_module_is_what_the_wheels_give(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if not list(SGLANG_WHEELS.glob("sglang-0.5.23-*.whl")):
        pytest.skip(f"the 0.5.23 wheel is not cached in {SGLANG_WHEELS}")
    use_tools()
    from gen_deterministic_facts import main

    out = tmp_path / "traits_deterministic.py"
    common = ["0.5.23", "--cache", str(SGLANG_WHEELS), "--out", str(out)]
    assert main(common) == 0
    assert '    "0.5.23": ("triton", "flashinfer", "fa3"),\n' in out.read_text(encoding="utf-8")
    assert capsys.readouterr().out.startswith(f"wrote {out}: 1 releases\n0.5.23 ")

    assert main([*common, "--check"]) == 0
    assert capsys.readouterr().out == "up to date\n"

    stale = out.read_text(encoding="utf-8").replace('"fa3"', '"fa4"')
    out.write_text(stale, encoding="utf-8")
    assert main([*common, "--check"]) == 1
    assert capsys.readouterr().out == f"{out} differs from what the wheels give\n"
    assert out.read_text(encoding="utf-8") == stale  # --check writes nothing
