"""`tools/gen_torchrun.py`: the stored torchrun options (src/speclint/frontends/shell/torchrun_options.py)
are what the oracle venv's torch gives, and `--check` says whether a stored module is what a
torch package folder gives (exit 1 and says so when not), writing nothing. Skipped without the
oracle venv's torch (.cache/oracle)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from regenerated import ROOT, use_tools

TORCHES = sorted((ROOT / ".cache" / "oracle").glob("*/lib/python*/site-packages/torch"))


@pytest.fixture
def torch_dir() -> Path:
    if not TORCHES:
        pytest.skip("no torch under .cache/oracle")
    use_tools()
    return TORCHES[-1]


def test_regenerating_from_the_oracle_torch_reproduces_the_stored_options(torch_dir: Path) -> None:
    from gen_torchrun import OUT, build, render

    with open(OUT, encoding="utf-8") as handle:
        assert render(*build(str(torch_dir))) == handle.read()


def test_check_says_whether_the_stored_options_are_what_torch_gives(
    torch_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from gen_torchrun import main

    torch = tmp_path / "torch"
    (torch / "distributed").mkdir(parents=True)
    shutil.copy(torch_dir / "version.py", torch / "version.py")
    for name in ("run.py", "launch.py"):
        shutil.copy(torch_dir / "distributed" / name, torch / "distributed" / name)
    out = tmp_path / "torchrun_options.py"
    common = ["--torch", str(torch), "--out", str(out)]
    assert main(common) == 0
    assert '        "--nproc-per-node",\n' in out.read_text(encoding="utf-8")
    assert capsys.readouterr().out.startswith(f"wrote {out}: torch ")

    assert main([*common, "--check"]) == 0
    assert capsys.readouterr().out == "up to date\n"

    stored = out.read_text(encoding="utf-8")
    run = torch / "distributed" / "run.py"
    source = run.read_text(encoding="utf-8")
    start = source.index("    parser.add_argument(", source.index("def get_args_parser"))
    run.write_text(source[:start] + '    parser.add_argument("--made-up", type=str)\n' + source[start:])
    assert main([*common, "--check"]) == 1
    assert capsys.readouterr().out == f"{out} differs from what torch's run.py and launch.py give\n"
    assert out.read_text(encoding="utf-8") == stored  # --check writes nothing

    assert main(common) == 0
    assert '        "--made-up",\n' in out.read_text(encoding="utf-8")
