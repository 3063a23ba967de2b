"""A launcher's option written `--opt=$VALUE` with an unknown value (`srun --jobid=$JOBID`,
`mpirun --host=$HOSTS`): the option is skipped as Slurm and Open MPI skip it, and the command
after the options is the launch, read and checked. Before, the unknown word ended the
options, so the launch was not read at all (SLM005 "speclint reads no launch through
`srun`"). An option whose value speclint reads (`--container-image=$IMAGE`, which picks the
release) still leaves the launch unread, said so."""

from __future__ import annotations

import pytest

from speclint.engine import lint_text

FLAGS = "--model-path Qwen/Qwen3-8B --port 30000 --cuda-graph-max-bs 8"


@pytest.mark.parametrize(
    "launcher",
    [
        "srun --jobid=$JOBID --overlap --pty",
        "srun --nodelist=${NODES} --ntasks=1",
        "mpirun --host=$HOSTS -np 2",
    ],
)
def test_an_option_whose_value_is_unknown_is_skipped_and_the_launch_read(launcher: str) -> None:
    line = f"{launcher} python3 -m sglang.launch_server {FLAGS}\n"
    (finding,) = lint_text(line, "serve.sh").findings
    assert (finding.code, finding.span.line, finding.span.column) == ("FLG002", 1, line.index("--cuda") + 1)
    assert finding.message.startswith("`--cuda-graph-max-bs` is ambiguous in SGLang 0.5.23")


def test_an_unknown_container_image_still_leaves_the_launch_unread() -> None:
    line = f"srun --container-image=$IMAGE python3 -m sglang.launch_server {FLAGS}\n"
    (finding,) = lint_text(line, "serve.sh").findings
    assert finding.code == "SLM005"
    assert "speclint reads no launch through `srun`" in finding.message
