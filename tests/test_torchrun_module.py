"""`torchrun [options] -m MODULE ...` and `python -m torch.distributed.run ...`: torchrun's own
options are skipped with the arity torch's run.py gives them (tools/gen_torchrun.py), the
module is read as `python -m` reads it; an option speclint cannot place is reported (SLM005)
where it is written, never guessed."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.engine import lint_text
from speclint.frontends import extract_file
from speclint.frontends.shell.torchrun_options import SWITCH, VALUE

FILE = FixtureFile("shell/torchrun_module.sh")
FIXTURE, TEXT = FILE.path, FILE.text
_at, _findings = FILE.at, FILE.findings


def test_the_module_after_torchruns_options_is_read_with_exact_positions() -> None:
    findings = _findings()
    assert [f[:4] for f in findings] == [
        ("FLG001", 5, 66, "--tp-sise"),
        ("FLG005", 8, 65, "high"),
        ("SLM005", 10, 10, "--nproc"),
        ("FLG005", 11, 76, "x"),
        ("SLM005", 12, 10, "--no-python"),
    ]
    assert "did you mean `--tp-size`?" in findings[0][4]
    assert "invalid float value: 'high'" in findings[1][4]


def test_options_speclint_cannot_place_are_reported_not_guessed() -> None:
    findings = _findings()
    assert findings[2][4] == (
        "speclint did not read this `torchrun` command, which runs `sglang.launch_server`: among "
        "its options stands `--nproc`, an abbreviation that could match `--nproc-per-node`, "
        "`--nproc_per_node` which argparse refuses ('ambiguous option' on Python 3.11): where the "
        "module starts is not known, so nothing in this launch was checked"
    )
    assert "with `--no-python` torchrun refuses `-m` beside it" in findings[4][4]
    for options, said in (
        ("--bogus 8", "`--bogus`, not an option of torchrun in torch 2.13"),
        ("$OPTS", "a word whose value speclint cannot know ($OPTS is not assigned"),
    ):
        text = f"torchrun {options} -m sglang.launch_server --model-path m\n"
        (finding,) = lint_text(text, "a.sh").findings
        # a file with no launch: said at the launcher's name, with the reason
        column = text.index("sglang.launch_server") + 1
        assert (finding.code, finding.span.line, finding.span.column) == ("SLM005", 1, column), options
        assert "(speclint did not read the `torchrun` command at line 1: among its options stands " in (
            finding.message
        )
        assert said in finding.message
        assert extract_file("a.sh", text).launches == []


def test_the_launch_gets_the_arguments_after_the_module_and_torchruns_environment() -> None:
    first, second, third = extract_file(str(FIXTURE), TEXT).launches
    assert [w.text for w in first.args] == ["--model-path", "deepseek-ai/DeepSeek-V3", "--tp-sise", "16"]
    assert [w.text for w in third.args] == ["--model-path", "m", "--port", "x"]
    # --virtual-local-rank: torchrun sets each worker's CUDA_VISIBLE_DEVICES itself
    visible = second.env["CUDA_VISIBLE_DEVICES"]
    assert visible.text is None and "--virtual-local-rank" in (visible.dynamic_reason or "")
    assert _at(visible.span) == (7, 53, "--virtual-local-rank")
    assert "CUDA_VISIBLE_DEVICES" not in first.env


def test_a_script_path_is_not_a_module_launch() -> None:
    text = "torchrun --nproc-per-node 8 serve.py -m sglang.launch_server\n"
    assert extract_file("a.sh", text).launches == []


def test_the_option_tables_come_from_torchs_parser() -> None:
    # arity as torch's run.py declares it: `env` actions take a value, `check_env` ones none
    assert {"--nproc-per-node", "--nproc_per_node", "--nnodes", "--rdzv-endpoint", "-r", "-t"} <= VALUE
    assert {"-m", "--module", "--standalone", "--no-python", "--run-path"} <= SWITCH
    assert not VALUE & SWITCH
