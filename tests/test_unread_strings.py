"""A launcher written inside one argument of a command speclint does not follow (`foo --cmd
"python3 -m sglang.launch_server ..."`) is reported at the launcher's words, even beside
launches speclint reads (was: silently dropped, and "All checks passed"); the well-known
commands that run such a string as shell code are read as that code: Slurm `sbatch --wrap`,
`singularity|apptainer run`, `tmux new -d "CMD"`, `screen -dmS s bash -c`, `srun bash -c`.
Printed, matched or stored strings (`echo`, `grep`, `pkill -f`, `logger`, `git commit -m`,
a function the file defines) stay silent."""

from __future__ import annotations

from pathlib import Path

from findings_at import findings_at, place
from speclint_runs import run_speclint

from speclint.engine import lint_text

READ = "python3 -m sglang.launch_server --model-path m\n"
SPEC = (
    "python3 -m sglang.launch_server --model-path m --speculative-algorithm EAGLE "
    "--speculative-num-steps 1 --speculative-eagle-topk 1 --speculative-num-draft-tokens 16"
)


def _at(line: str, token: str, number: int) -> tuple[int, int, str]:
    """(line, column, the text pointed at) of `token` on that line of a test file, as
    `findings_at` gives a finding's place."""
    return number, line.index(token) + 1, token


def test_a_launcher_inside_a_string_argument_is_reported_beside_a_read_launch() -> None:
    line = f'echo run; foo --cmd "{SPEC}"; python3 -m sglang.launch_server --model-path x'
    result = lint_text(line + "\n", "a.sh")
    assert len(result.contexts) == 1  # the plain launch after it is read
    (finding,) = result.findings
    where = _at(line, "python3 -m sglang.launch_server", 1)
    assert (finding.code, *place([line], finding.span)) == ("SLM005", *where)
    assert finding.message == (
        "speclint did not read this command: `foo` is given `python3 -m sglang.launch_server` inside "
        "one argument, which it may run as a command; speclint does not read what `foo` runs, so "
        "nothing in this launch was checked"
    )


def test_the_run_does_not_say_all_checks_passed(tmp_path: Path) -> None:
    script = tmp_path / "serve.sh"
    script.write_text(f"launch_job --server-cmd '{SPEC}'\n{READ}")
    done = run_speclint("--no-cache", str(script))
    assert f"{script}:1:26: SLM005 [info] speclint did not read this command: `launch_job`" in done.stdout
    assert "All checks passed" not in done.stdout
    assert done.returncode == 0  # an info finding: the exit status of a clean run


def test_other_forms_of_a_launcher_inside_an_argument() -> None:
    lines = [
        "python3 -m sglang.launch_server --model-path x &",
        "python3 -c \"import os; os.system('python3 -m sglang.launch_server --model-path y')\"",
        "run_remote node1 'CUDA_VISIBLE_DEVICES=0 /opt/venv/bin/python3 -u -m sglang.launch_server --tp 2'",
        "launcher --cmd='sglang serve --model-path y'",
        'submit "cd /work && python -m sglang.bench_one_batch --model-path y --batch-size 1"',
    ]
    assert findings_at("\n".join(lines) + "\n", "a.sh") == [
        ("SLM005", *_at(lines[1], "python3 -m sglang.launch_server", 2)),
        ("SLM005", *_at(lines[2], "/opt/venv/bin/python3 -u -m sglang.launch_server", 3)),
        ("SLM005", *_at(lines[3], "sglang serve", 4)),
        ("SLM005", *_at(lines[4], "python -m sglang.bench_one_batch", 5)),
    ]


def test_printed_matched_and_stored_strings_stay_silent() -> None:
    text = READ + (
        'echo "python -m sglang.launch_server --model-path m"\n'
        "ps aux | grep 'python -m sglang.launch_server'\n"
        'pkill -f "python3 -m sglang.launch_server"\n'
        'logger "starting python3 -m sglang.launch_server"\n'
        'sudo -u svc echo "python -m sglang.launch_server --tp 2"\n'
        '# foo --cmd "python -m sglang.launch_server --tp 2"\n'
        'say() { echo "$@"; }\n'
        'say "launching python -m sglang.launch_server --tp 8"\n'
        'git commit -m "serve with python -m sglang.launch_server"\n'
        "sed -i 's/python -m sglang.launch_server/sglang serve/' run.sh\n"
        'alias serve="python -m sglang.launch_server --model-path m"\n'
        'watchdog --process "sglang.launch_server"\n'
    )
    assert lint_text(text, "a.sh").findings == []


def test_a_file_with_only_a_launcher_in_a_string_keeps_its_one_finding() -> None:
    line = f'foo --cmd "{SPEC}"'
    (finding,) = lint_text(line + "\n", "a.sh").findings
    assert (finding.code, finding.span.line) == ("SLM005", 1)
    assert "this file names `sglang.launch_server` but speclint found no launch" in finding.message


def test_sbatch_wrap_is_read_as_the_batch_script() -> None:
    lines = [
        "export M=/models/llama",
        'sbatch -N 1 --gres=gpu:8 --wrap "python3 -m sglang.launch_server --model-path $M --tp-szie 8"',
        "sbatch -p gpu --job-name sgl --wrap='python3 -m sglang.launch_server --model-path m --tp-szie 8'",
        'sbatch $SBATCH_OPTS --wrap "srun python3 -m sglang.launch_server --model-path m --tp-szie 8"',
        "sbatch --wrap=\"python3 -m sglang.launch_server --model-path m --port 'x'\"",
    ]
    found = lint_text("\n".join(lines) + "\n", "a.sh")
    assert len(found.contexts) == 4
    assert [(f.code, *place(lines, f.span)) for f in found.findings] == [
        ("FLG001", *_at(lines[1], "--tp-szie", 2)),
        ("FLG001", *_at(lines[2], "--tp-szie", 3)),
        ("FLG001", *_at(lines[3], "--tp-szie", 4)),
        ("FLG005", *_at(lines[4], "'x'", 5)),
    ]


def test_sbatch_wrap_beside_a_read_launch_is_read_not_dropped() -> None:
    line = f'sbatch --wrap "{SPEC}"'
    found = findings_at(line + "\n" + READ, "a.sh")
    assert ("SPD001", *_at(line, "16", 1)) in found
    assert not any(code == "SLM005" for code, *_ in found)


def test_sbatch_export_none_leaves_the_callers_variables_out() -> None:
    text = "export M=/models/llama\nsbatch --export=NONE --wrap 'python3 -m sglang.launch_server --model-path $M'\n"
    (finding,) = lint_text(text, "a.sh").findings
    assert finding.code == "SLM004"
    assert "$M is not passed to the batch script of `sbatch --wrap` (line 2)" in finding.message


def test_singularity_and_apptainer_run_pass_the_command_to_the_image() -> None:
    lines = [
        "singularity run --nv -B /data:/data docker://lmsysorg/sglang:v0.5.2 "
        "python3 -m sglang.launch_server --model-path m --tp-szie 2",
        "apptainer run --nv sglang.sif python3 -m sglang.launch_server --model-path m --tp-szie 2",
    ]
    found = lint_text("\n".join(lines) + "\n", "a.sh")
    assert [(f.code, f.span.line, f.span.column) for f in found.findings] == [
        ("FLG001", *_at(lines[0], "--tp-szie", 1)[:2]),
        ("FLG001", *_at(lines[1], "--tp-szie", 2)[:2]),
    ]
    assert "SGLang 0.5.2" in found.findings[0].message


def test_tmux_screen_and_srun_strings_are_read() -> None:
    lines = [
        'tmux new -d -s sgl "python3 -m sglang.launch_server --model-path m --tp-szie 2"',
        "tmux new-session -d 'python3 -m sglang.launch_server --model-path m --tp-szie 2'",
        'screen -dmS sgl bash -c "python3 -m sglang.launch_server --model-path m --tp-szie 2"',
        'srun -N 1 --gpus=8 bash -c "python3 -m sglang.launch_server --model-path m --tp-szie 2"',
    ]
    assert findings_at("\n".join(lines) + "\n" + READ, "a.sh") == [
        ("FLG001", *_at(line, "--tp-szie", number)) for number, line in enumerate(lines, 1)
    ]
