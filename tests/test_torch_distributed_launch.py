"""`python -m torch.distributed.launch ... -m sglang.launch_server ...`: torch's deprecated
launcher, read as torchrun is (its options from torch's run.py, plus launch.py's own
`--use-env`, tools/gen_torchrun.py); without `--use-env` torch passes the server
`--local-rank=<rank>` first, which SGLang's parser judges like any word."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.engine import lint_text
from speclint.frontends import extract_file
from speclint.frontends.shell.torchrun_options import LAUNCH_SWITCH, LAUNCH_VALUE, LOCAL_RANK_ARG, SWITCH

FILE = FixtureFile("shell/torch_distributed_launch.sh")
FIXTURE, TEXT = FILE.path, FILE.text
_at, _findings = FILE.at, FILE.findings


def test_the_module_after_the_launchers_options_is_read_with_exact_positions() -> None:
    findings = _findings()
    assert [f[:4] for f in findings] == [
        ("FLG001", 4, 43, "--tp-sise"),
        ("FLG001", 6, 12, "torch.distributed.launch"),
        ("SLM005", 9, 47, "--nprocs"),
        ("SLM005", 10, 37, "--use"),
        ("FLG005", 11, 112, "x"),
    ]
    assert findings[0][4].startswith("`--tp-sise` is not an SGLang 0.5.23 flag")
    assert "did you mean `--tp-size`?" in findings[0][4]


def test_without_use_env_the_server_gets_local_rank_first() -> None:
    finding = _findings()[1]
    assert finding[4] == (
        "`--local-rank` is not an SGLang 0.5.23 flag: argparse stops the launch with 'unrecognized arguments'"
    )
    first, second, third = extract_file(str(FIXTURE), TEXT).launches
    assert [w.text for w in first.args] == ["--model-path", "Qwen/Qwen2.5-7B-Instruct", "--tp-sise", "2"]
    assert [w.text for w in second.args] == [
        "--local-rank=0",
        "--model-path",
        "deepseek-ai/DeepSeek-V3",
        "--tp-size",
        "8",
    ]
    # placed at the module name, and no fix may edit the text written there; the note there
    # says what added it and how to stop it
    [report] = [f for f in lint_text(TEXT, str(FIXTURE)).findings if f.span.line == 6]
    assert report.fix is None and [(n.span.line, n.span.column, n.message) for n in report.notes] == [
        (
            6,
            12,
            "`torch.distributed.launch` passes `--local-rank=<rank>` to the module before its own "
            "arguments unless `--use-env` is given (torch 2.13.0+cpu's launch.py and run.py); add "
            "`--use-env` if the module does not take it",
        )
    ]
    rank = second.args[0]
    assert _at(rank.span) == (6, 12, "torch.distributed.launch") and rank.origin == rank.span
    assert [w.text for w in third.args] == ["--model-path", "m", "--port", "x"]
    for use_env in ("--use-env", "--use_env", "--use-e"):  # `--use-e`: a unique abbreviation
        text = f"python -m torch.distributed.launch {use_env} -m sglang.launch_server --model-path m\n"
        (launch,) = extract_file("a.sh", text).launches
        assert [w.text for w in launch.args] == ["--model-path", "m"], use_env
        assert lint_text(text, "a.sh").findings == [], use_env


def test_options_the_launcher_lacks_are_reported_not_guessed() -> None:
    findings = _findings()
    assert findings[2][4] == (
        "speclint did not read this `python -m torch.distributed.launch` command, which runs "
        "`sglang.launch_server`: among its options stands `--nprocs`, not an option of "
        "torch.distributed.launch in torch 2.13.0+cpu (read from its launch.py and run.py): where "
        "the module starts is not known, so nothing in this launch was checked"
    )
    assert "`--use`, an abbreviation that could match `--use-env`, `--use_env`" in findings[3][4]
    # torchrun itself has no --use-env: there it stays an option torch lacks
    text = "torchrun --use-env -m sglang.launch_server --model-path m\n"
    assert extract_file("a.sh", text).launches == []
    (finding,) = lint_text(text, "a.sh").findings
    assert finding.code == "SLM005" and "`--use-env`, not an option of torchrun" in finding.message


def test_the_launchers_own_options_come_from_torchs_launch_py() -> None:
    assert LAUNCH_SWITCH == {"--use-env", "--use_env"} and not LAUNCH_VALUE
    assert not LAUNCH_SWITCH & SWITCH
    assert LOCAL_RANK_ARG == "--local-rank="
