"""Why a variable of an inner `bash -c` is unknown: a name the script assigns without `export`
is "not exported to the inner shell"; a name it never assigns comes from the environment the
inner shell inherits (it was also said "not exported", wrongly: `$OMPI_COMM_WORLD_RANK` under
mpirun, `$SLURM_PROCID` under srun, `$LWS_WORKER_INDEX` in a pod do reach it)."""

from __future__ import annotations

from fixture_file import FixtureFile

SCRIPT = FixtureFile("shell/inner_shell_environment.sh")


def test_each_unknown_says_where_its_value_comes_from():
    partly = SCRIPT.findings()[0]
    assert partly[:4] == ("SLM004", 6, 167, "$OMPI_COMM_WORLD_RANK")
    assert (
        "the value of `--node-rank` ($OMPI_COMM_WORLD_RANK is not assigned in this file (comes from "
        "the environment); unquoted, read as one word)"
    ) in partly[4]
    assert "the value of `--port` ($PORT is not exported to the inner `bash -c` shell (line 6)" in partly[4]


def test_a_here_document_read_by_bash_says_the_same():
    heredoc = [f for f in SCRIPT.findings() if f[1] == 9]
    assert [f[:4] for f in heredoc] == [("SLM004", 9, 130, "\\$NODE_RANK")]
    assert (
        "`--node-rank` ($NODE_RANK is not assigned in this file (comes from the environment)" in heredoc[0][4]
    )
    assert "the value of `--port` ($PORT is not exported to the inner `bash` shell (line 8)" in heredoc[0][4]
