"""Each way a user writes a launcher's options in front of SGLang (srun, mpirun/mpiexec,
apptainer/singularity exec, kubectl exec): the options (and their values) are not the command,
the SGLang flags after them are found where they are written, and options that set the
launched process's environment or image give the launch that environment and image."""

from __future__ import annotations

import pytest

from speclint.engine import lint_text
from speclint.frontends.shell.script import extract_shell

SGLANG = "python3 -m sglang.launch_server --model-path /m --tp-szie 2"
ARGS = ["--model-path", "/m", "--tp-szie", "2"]
IMAGE = "lmsysorg/sglang:v0.5.6.post2"

# (launcher words, environment the launch gets, image) per form a user writes
FORMS = {
    # srun
    "srun short option with a value": ("srun -N 2", {}, None),
    "srun short switch": ("srun -l -N 2", {}, None),
    "srun long option with a value": ("srun --ntasks-per-node 1 --job-name python", {}, None),
    "srun --opt=value": ("srun --gres=gpu:8 --nodes=2", {}, None),
    "srun -- ends the options": ("srun -N 2 --", {}, None),
    "srun --container-image IMAGE": (f"srun --container-image {IMAGE}", {}, IMAGE),
    "srun --container-image=IMAGE": (f"srun --container-image={IMAGE} --container-mounts /d:/d", {}, IMAGE),
    "srun pyxis registry#image": (f"srun --container-image=nvcr.io#{IMAGE}", {}, IMAGE),
    # mpirun / mpiexec
    "mpirun -np N": ("mpirun -np 2 --hostfile python", {}, None),
    "mpirun --np N": ("mpirun --np 2 --map-by ppr:1:node", {}, None),
    "mpirun --np=N": ("mpirun --np=2 --bind-to=none", {}, None),
    "mpirun -mca NAME VALUE": ("mpirun -mca btl tcp,self --mca pml ob1", {}, None),
    "mpirun -x NAME=VALUE": ("mpirun -x NCCL_IB_DISABLE=1", {"NCCL_IB_DISABLE": "1"}, None),
    "mpirun -x NAME=VALUE with commas": (
        "mpirun -x NCCL_SOCKET_IFNAME=eth0,eth1",
        {"NCCL_SOCKET_IFNAME": "eth0,eth1"},
        None,
    ),
    "mpirun -x NAME (the caller's value)": (
        "NCCL_DEBUG=INFO mpirun -x NCCL_DEBUG",
        {"NCCL_DEBUG": "INFO"},
        None,
    ),
    "mpiexec -genv NAME VALUE": (
        "mpiexec -n 2 -genv SGLANG_LOG_LEVEL debug",
        {"SGLANG_LOG_LEVEL": "debug"},
        None,
    ),
    "mpiexec -env NAME VALUE": ("mpiexec -env SGLANG_LOG_LEVEL debug", {"SGLANG_LOG_LEVEL": "debug"}, None),
    "mpirun -- ends the options": ("mpirun -np 2 --", {}, None),
    # apptainer / singularity exec
    "apptainer switch": ("apptainer exec --nv img.sif", {}, "img.sif"),
    "apptainer short option with a value": ("apptainer exec -B /d:/d img.sif", {}, "img.sif"),
    "apptainer --opt=value": ("apptainer exec --bind=/d:/d img.sif", {}, "img.sif"),
    "apptainer docker:// image": (f"singularity exec --nv docker://{IMAGE}", {}, IMAGE),
    "apptainer --env NAME=VALUE": ("apptainer exec --env SGLANG_X=1 img.sif", {"SGLANG_X": "1"}, "img.sif"),
    "apptainer --env=NAME=VALUE": ("apptainer exec --env=SGLANG_X=1 img.sif", {"SGLANG_X": "1"}, "img.sif"),
    "apptainer --env NAME=VALUE,NAME=VALUE": (
        "apptainer exec --env SGLANG_X=1,SGLANG_Y=2 img.sif",
        {"SGLANG_X": "1", "SGLANG_Y": "2"},
        "img.sif",
    ),
    "apptainer keeps the caller's environment": (
        "SGLANG_X=1 apptainer exec img.sif",
        {"SGLANG_X": "1"},
        "img.sif",
    ),
    "apptainer --cleanenv": ("SGLANG_X=1 apptainer exec --cleanenv img.sif", {}, "img.sif"),
    "apptainer -e": ("SGLANG_X=1 apptainer exec -e img.sif", {}, "img.sif"),
    "apptainer --containall": ("SGLANG_X=1 apptainer exec --containall img.sif", {}, "img.sif"),
    # kubectl exec: the pod's environment, not the caller's
    "kubectl exec POD --": ("SGLANG_X=1 kubectl exec pod --", {}, None),
    "kubectl options before and after exec": ("kubectl -n serving exec -it pod -c server --", {}, None),
    "kubectl --opt=value": ("kubectl --namespace=serving exec --container=server pod --", {}, None),
    "kubectl exec POD COMMAND (no --)": ("kubectl exec -it pod", {}, None),
    "kubectl exec POD options COMMAND (no --)": ("kubectl exec pod -c server", {}, None),
}


def _tp_szie_finding(line: str) -> list[tuple[int, int, int]]:
    return [
        (f.span.line, f.span.column, f.span.end_column)
        for f in lint_text(line, "t.sh").findings
        if f.code == "FLG001"
    ]


@pytest.mark.parametrize("form", FORMS)
def test_a_launcher_option_form(form: str) -> None:
    launcher, env, image = FORMS[form]
    line = f"{launcher} {SGLANG}\n"
    (launch,) = extract_shell(line, "t.sh").launches
    assert [w.text for w in launch.args] == ARGS
    assert {name: word.text for name, word in launch.env.items()} == env
    assert launch.image == image
    column = line.index("--tp-szie") + 1
    assert _tp_szie_finding(line) == [(1, column, column + len("--tp-szie"))]


@pytest.mark.parametrize(
    ("launcher", "value"),
    [
        ("mpirun -x SGLANG_X=debug", "debug"),
        ("apptainer exec --env SGLANG_X=debug img.sif", "debug"),
        ("apptainer exec --env=SGLANG_X=debug img.sif", "debug"),
    ],
)
def test_an_environment_value_points_where_it_is_written(launcher: str, value: str) -> None:
    line = f"{launcher} {SGLANG}\n"
    (launch,) = extract_shell(line, "t.sh").launches
    span = launch.env["SGLANG_X"].span
    assert line[span.column - 1 : span.end_column - 1] == value


# A name the shell could not assign (ASCII letters, digits, `_`, not starting with a digit) is
# not an environment assignment: Open MPI and apptainer would pass `ÉTAT=1` on, but no variable
# SGLang or speclint reads is named so. The word is still the option's value, never the
# command: the launch and its flags are found as usual, the name is not in its environment.
@pytest.mark.parametrize(
    ("launcher", "env"),
    [
        ("mpirun -x ÉTAT=1", {}),
        ("mpirun -x ÉTAT=1 -x SGLANG_X=1", {"SGLANG_X": "1"}),
        ("mpirun -x 1X=1", {}),
        ("apptainer exec --env ÉTAT=1 img.sif", {}),
        ("apptainer exec --env=ÉTAT=1 img.sif", {}),
        ("apptainer exec --env ÉTAT=1,SGLANG_X=1 img.sif", {"SGLANG_X": "1"}),
    ],
)
def test_a_name_that_is_not_a_shell_variable_name_is_not_set(launcher: str, env: dict[str, str]) -> None:
    line = f"{launcher} {SGLANG}\n"
    (launch,) = extract_shell(line, "t.sh").launches
    assert [w.text for w in launch.args] == ARGS
    assert {name: word.text for name, word in launch.env.items()} == env
    column = line.index("--tp-szie") + 1
    assert _tp_szie_finding(line) == [(1, column, column + len("--tp-szie"))]
