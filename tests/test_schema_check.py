"""`tools/gen_sglang_schema.py --check`: whether the stored flag schema is what the release
wheels give (exit 1 and says so when not), writing nothing; and the stored schema is what the
cached wheels give."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from regenerated import SGLANG_WHEELS, assert_regenerates, use_tools

SERVER_ARGS = """\
import argparse
from dataclasses import dataclass


@dataclass
class ServerArgs:
    model_path: str
    port: int = 30000

    @staticmethod
    def add_cli_args(parser: argparse.ArgumentParser):
        parser.add_argument("--model-path", type=str, required=True)
        parser.add_argument("--port", type=int, default=ServerArgs.port)
{more}

def prepare_server_args(argv):
    parser = argparse.ArgumentParser()
    ServerArgs.add_cli_args(parser)
    return ServerArgs(**vars(parser.parse_args(argv)))
"""


def _wheel(cache: Path, more: str = "") -> None:
    """A release 0.0.0 whose `ServerArgs.add_cli_args` adds `--model-path`, `--port` (and `more`)."""
    with zipfile.ZipFile(cache / "sglang-0.0.0-py3-none-any.whl", "w") as archive:
        archive.writestr("sglang/srt/server_args.py", SERVER_ARGS.format(more=more))


def test_check_says_whether_the_stored_flags_are_what_the_wheels_give(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    use_tools()
    from gen_sglang_schema import main

    out = tmp_path / "flags.json"
    common = ["0.0.0", "--cache", str(tmp_path), "--out", str(out)]
    _wheel(tmp_path)
    assert main(common) == 0
    assert '"option_strings":["--port"]' in out.read_text(encoding="utf-8")
    capsys.readouterr()

    assert main([*common, "--check"]) == 0
    assert capsys.readouterr().out == "up to date\n"

    stored = out.read_text(encoding="utf-8")
    _wheel(tmp_path, '        parser.add_argument("--host", type=str, default="127.0.0.1")\n')
    assert main([*common, "--check"]) == 1
    assert capsys.readouterr().out == f"{out} differs from what the wheels give\n"
    assert out.read_text(encoding="utf-8") == stored  # --check writes nothing

    assert main(common) == 0
    assert '"option_strings":["--host"]' in out.read_text(encoding="utf-8")
    capsys.readouterr()
    assert main([*common, "--check"]) == 0


def test_regenerating_from_the_cached_wheels_reproduces_the_stored_flags() -> None:
    use_tools()
    from gen_sglang_schema import OUT, build, dump, stored_versions

    versions = stored_versions()
    assert_regenerates(OUT, versions, lambda: dump(build(versions, str(SGLANG_WHEELS))))
