"""Why a variable of an inner `bash -c` is unknown: a name the script assigns without `export`
is "not exported to the inner shell"; a name it never assigns comes from the environment the
inner shell inherits (it was also said "not exported", wrongly: `$OMPI_COMM_WORLD_RANK` under
mpirun, `$SLURM_PROCID` under srun, `$LWS_WORKER_INDEX` in a pod do reach it)."""

from __future__ import annotations

from fixture_file import FixtureFile

SCRIPT = FixtureFile("shell/inner_shell_environment.sh")


def test_each_unknown_says_where_its_value_comes_from():
    (partly,) = SCRIPT.findings()
    assert partly[:4] == ("SLM004", 6, 167, "$OMPI_COMM_WORLD_RANK")
    assert (
        "the value of `--node-rank` ($OMPI_COMM_WORLD_RANK is not assigned in this file (comes from "
        "the environment); unquoted, read as one word)"
    ) in partly[4]
    assert "the value of `--port` ($PORT is not exported to the inner `bash -c` shell (line 6)" in partly[4]
