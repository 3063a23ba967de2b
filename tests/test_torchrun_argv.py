"""Python argv lists that run torchrun, `python -m torch.distributed.run` or the deprecated
`torch.distributed.launch` (`subprocess.run(["torchrun", ..., "-m", "sglang.launch_server",
...])`, `Popen([sys.executable, "-m", "torch.distributed.run", ...])`): read through the
shell front-end's torchrun reading, findings at the list's items; an option written
`f"--nproc-per-node={n}"` is known although its value is not."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.engine import lint_text
from speclint.frontends import extract_file

FILE = FixtureFile("python/torchrun_argv.py")
FIXTURE, TEXT = FILE.path, FILE.text
_at, _findings = FILE.at, FILE.findings


def test_torchrun_argv_lists_are_read_with_exact_positions() -> None:
    findings = _findings()
    assert [f[:4] for f in findings] == [
        ("FLG001", 11, 101, "--tp-sise"),
        ("FLG005", 17, 92, "high"),
        ("FLG001", 23, 33, "torch.distributed.launch"),
        ("SLM005", 29, 43, "--nprocs"),
    ]
    assert findings[0][4].startswith("`--tp-sise` is not an SGLang 0.5.23 flag")
    assert "invalid float value: 'high'" in findings[1][4]
    # without --use-env, torch passes the server --local-rank first
    assert findings[2][4].startswith("`--local-rank` is not an SGLang 0.5.23 flag")
    assert findings[3][4] == (
        "speclint did not read this `torchrun` command, which runs `sglang.launch_server`: among "
        "its options stands `--nprocs`, not an option of torchrun in torch 2.13.0+cpu (read from "
        "its run.py): where the module starts is not known, so nothing in this launch was checked"
    )


def test_the_launch_gets_the_modules_arguments_at_the_call() -> None:
    first, second, third = extract_file(str(FIXTURE), TEXT).launches
    assert (first.entry, first.span.line) == ("python -m sglang.launch_server", 10)
    assert [w.text for w in first.args] == ["--model-path", "Qwen/Qwen2.5-7B-Instruct", "--tp-sise", "8"]
    assert [w.text for w in second.args][2:] == ["--mem-fraction-static", "high"]
    assert [w.text for w in third.args] == ["--local-rank=0", "--model-path", "Qwen/Qwen2.5-7B-Instruct"]


def test_an_option_with_an_unknown_value_still_places_the_module() -> None:
    # `f"--nproc-per-node={nproc}"` (a parameter): the option takes its value in the word
    for option, read in (
        ('f"--nproc-per-node={n}"', True),
        ('f"--nproc_per_node={n}", f"--master-port={n}"', True),
        ('f"--nproc={n}"', False),  # ambiguous: --nproc-per-node or --nproc_per_node
        ('f"--bogus={n}"', False),
        ('f"{n}"', False),
    ):
        text = (
            "import subprocess\n\ndef serve(n):\n    subprocess.run(['torchrun', "
            f"{option}, '-m', 'sglang.launch_server', '--model-path', 'm', '--prot', '1'])\n"
        )
        codes = [f.code for f in lint_text(text, "a.py").findings]
        assert codes == (["FLG001"] if read else ["SLM005"]), option
    shell = "torchrun --nproc-per-node=$N -m sglang.launch_server --model-path m --prot 1\n"
    (finding,) = lint_text(shell, "a.sh").findings
    assert (finding.code, finding.span.line, finding.span.column) == ("FLG001", 1, shell.index("--prot") + 1)
