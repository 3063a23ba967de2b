"""A choice a release's parser adds only under an environment variable (0.5.19+:
`--sampling-backend token_oracle` with SGLANG_KV_CANARY_ENABLE_TOKEN_ORACLE true), read from
each release's `add_cli_args` by tools/sglang_args.py."""

from __future__ import annotations

import pytest
from findings_at import findings_at
from fixture_file import FixtureFile

from speclint.engine import lint_text
from speclint.settings.options import LintOptions
from speclint.sglang.flags.schema import load_schema

LAUNCH = "python -m sglang.launch_server --model-path m --sampling-backend token_oracle\n"


def _codes(text: str, version: str) -> list[tuple]:
    return findings_at(text, "serve.sh", LintOptions(sglang_version=version, read_pyproject=False))


def test_the_choice_is_read_with_its_variable_per_release() -> None:
    spec = load_schema("0.5.23").by_dest["sampling_backend"]
    assert "token_oracle" not in (spec.choices or ())
    assert [(c[0], c[1], c[2]) for c in spec.env_choices] == [
        ("token_oracle", "SGLANG_KV_CANARY_ENABLE_TOKEN_ORACLE", False)
    ]
    older = load_schema("0.5.18").by_dest["sampling_backend"]
    assert "token_oracle" in (older.choices or ()) and older.env_choices == ()


@pytest.mark.parametrize("version", ["0.5.19", "0.5.23"])
def test_refused_without_the_variable_accepted_with_it(version: str) -> None:
    assert _codes(LAUNCH, version) == [("FLG006", 1, 66, "token_oracle")]
    for value in ("1", "true", "YES", "y"):
        assert _codes(f"SGLANG_KV_CANARY_ENABLE_TOKEN_ORACLE={value} {LAUNCH}", version) == []
    for value in ("0", "false", "no", "maybe"):  # an unparsable value reads as the default
        assert [c[0] for c in _codes(f"SGLANG_KV_CANARY_ENABLE_TOKEN_ORACLE={value} {LAUNCH}", version)] == [
            "FLG006"
        ]


def test_always_a_choice_in_0_5_18() -> None:
    assert _codes(LAUNCH, "0.5.18") == []


def test_the_help_names_the_variable() -> None:
    finding = lint_text(
        LAUNCH, "serve.sh", LintOptions(sglang_version="0.5.23", read_pyproject=False)
    ).findings[0]
    assert finding.message.startswith("`token_oracle` is not a valid value for `--sampling-backend`")
    assert "only when SGLANG_KV_CANARY_ENABLE_TOKEN_ORACLE is true" in finding.fix_hint
    assert "set SGLANG_KV_CANARY_ENABLE_TOKEN_ORACLE=1" in finding.fix_hint


def test_python_helper_with_the_env_dict() -> None:
    fixture = FixtureFile("python/env_added_choice.py")
    assert [f[:4] for f in fixture.findings()] == [("FLG006", 22, 44, "token_oracle")]


def test_shell_export_and_prefix() -> None:
    fixture = FixtureFile("shell/env_added_choice.sh")
    assert [f[:4] for f in fixture.findings()] == [("FLG006", 7, 35, "token_oracle")]
