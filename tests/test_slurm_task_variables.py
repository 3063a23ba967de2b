"""Slurm's own variables (`$SLURM_NODEID`, `$SLURM_PROCID`, `$SLURM_NNODES`,
`$SLURM_JOB_NODELIST`...) in `--node-rank`, `--nnodes`, `--dist-init-addr`: unknown (known only
when the job runs, some different in each task), the reason naming the variable, never a
finding on a guessed value. Before: "not exported to the inner `bash -c` shell" and "not passed
to the batch script", which are false (Slurm sets them there). In `srun`'s own arguments the
shell running `srun` expands a task's variable once for every task: the reason says so."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.frontends import extract_file

FILE = FixtureFile("shell/slurm_task_variables.sh")


def test_slurm_variables_are_unknown_with_their_reason() -> None:
    findings = FILE.findings()
    assert [f[:4] for f in findings] == [
        ("SLM004", 12, 12, '"$SLURM_NNODES"'),
        ("SLM004", 16, 12, '"$SLURM_JOB_NUM_NODES"'),
        ("SLM004", 19, 94, '"$SLURM_NNODES"'),
    ]
    direct, task, wrap = (f[4] for f in findings)
    assert (
        "$SLURM_NODEID is expanded by the shell that runs `srun` (line 11) before srun starts its tasks: "
        "every task gets that shell's one value, not its own" in direct
    )
    assert "$SLURM_NNODES is expanded by the shell that runs `srun` (line 11): the value Slurm sets" in direct
    assert "(from $SLURM_JOB_NODELIST, which Slurm sets where the job runs)" in direct  # `$(scontrol ...)`
    assert (
        "$SLURM_PROCID is set by Slurm in each task `srun` (line 15) starts (each task its own), known only "
        "when the job runs" in task
    )
    assert "$SLURM_JOB_NUM_NODES is set by Slurm in each task `srun` (line 15) starts, known only" in task
    assert "`${SLURM_JOB_NODELIST%%,*}` is not evaluated (from $SLURM_JOB_NODELIST" in task
    assert "$SLURM_NNODES is set by Slurm in the batch script of `sbatch --wrap` (line 19)" in wrap
    assert "not exported" not in task and "not passed" not in wrap


def test_the_values_are_unknown_not_guessed() -> None:
    direct, task, wrap = extract_file(str(FILE.path), FILE.text).launches
    for launch in (direct, task):
        values = {w.text for w in launch.args}
        assert not values & {"0", "1", "2"}  # no node rank or count made up
    assert [w.text for w in wrap.args][-2:] == ["--node-rank", "0"]  # written: read
    assert not [name for name in task.env if name.startswith("SLURM")]  # (nothing added to the env)
