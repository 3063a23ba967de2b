"""Each way a user writes a launcher's options in front of SGLang (srun, mpirun/mpiexec,
apptainer/singularity exec, kubectl exec): the options (and their values) are not the command,
the SGLang flags after them are found where they are written, and options that set the
launched process's environment or image give the launch that environment and image."""

from __future__ import annotations

import pytest

from speclint.engine import lint_text
from speclint.frontends.shell.script import extract_shell

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.launches import Launch

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
    # runners of a project's environment (their options before the command)
    "pipenv run": ("SGLANG_X=1 pipenv run", {"SGLANG_X": "1"}, None),
    "hatch run": ("hatch run", {}, None),
    # GNU screen: a new session running the command, with the caller's environment
    "screen -dmS NAME (letters in one word, the value next)": (
        "SGLANG_X=1 screen -dmS sgl",
        {"SGLANG_X": "1"},
        None,
    ),
    "screen -S NAME -d -m": ("screen -S sgl -d -m", {}, None),
    "screen -SNAME (value attached)": ("screen -Ssgl -L -Logfile s.log -dm", {}, None),
    # ray job submit: the entrypoint runs on the cluster, in its runtime environment
    "ray job submit --": ("SGLANG_X=1 ray job submit --working-dir . --entrypoint-num-gpus 8 --", {}, None),
    "ray job submit --opt=value (no --)": ("ray job submit --address=http://h:8265 --no-wait", {}, None),
    # docker compose run / exec: the service's image and environment are in the compose file
    "docker compose run SERVICE": ("docker compose run --rm sglang", {}, None),
    "docker compose -f FILE run -e NAME=VALUE SERVICE": (
        "docker compose -f c.yml -p p run -e SGLANG_X=1 --name n -T sglang",
        {"SGLANG_X": "1"},
        None,
    ),
    "docker compose exec SERVICE": ("docker compose exec -u root --index 2 sglang", {}, None),
    "docker-compose run SERVICE": ("docker-compose --profile gpu run --service-ports sglang", {}, None),
    # profilers and debuggers: the program is the interpreter word, its arguments unchanged
    "nsys profile with valued options": (
        "SGLANG_X=1 nsys profile -o trace --capture-range cudaProfilerApi -t cuda --force-overwrite true -d 30",
        {"SGLANG_X": "1"},
        None,
    ),
    "py-spy record --": ("py-spy record -o profile.svg --", {}, None),
    "gdb --args": ("gdb -ex r --args", {}, None),
    "perf record": ("perf record -g", {}, None),
    "valgrind --tool=X": ("valgrind --tool=memcheck", {}, None),
    "strace -f -o FILE": ("strace -f -o trace.txt", {}, None),
}


def _env(launch: Launch) -> dict[str, str | None]:
    """The launch's environment, less the CUDA_VISIBLE_DEVICES Slurm gives every srun task
    (unknown; tests/test_srun_gpu_visibility.py)."""
    return {
        name: word.text
        for name, word in launch.env.items()
        if not (name == "CUDA_VISIBLE_DEVICES" and (word.dynamic_reason or "").startswith("Slurm "))
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
    assert _env(launch) == env
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


# The environment a launch gets behind a launcher, as the launcher's own source builds it.
# Each case: the script, then {name: (value, its line, its first column)} the launch gets.
ENV_FORMS = {
    # srun --export (Slurm src/srun/launch.c `_build_user_env`): NONE keeps only SLURM*
    "srun --export=NONE": (
        "export SGLANG_X=1 SLURM_JOB_ID=7\nsrun --export=NONE",
        {"SLURM_JOB_ID": ("7", 1, 32)},
    ),
    "srun --export NONE (value in the next word, any case)": (
        "export SGLANG_X=1\nsrun -N 2 --export none",
        {},
    ),
    # ALL keeps the caller's variables and adds NAME=value items
    "srun --export=ALL,NAME=value": (
        "export SGLANG_Y=0\nsrun --export=ALL,SGLANG_X=1",
        {"SGLANG_Y": ("0", 1, 17), "SGLANG_X": ("1", 2, 28)},
    ),
    # ... but a caller's value wins over NAME=value ("take precedence", srun(1))
    "srun --export=ALL,NAME=value when the caller exports NAME": (
        "export SGLANG_X=0\nsrun --export=ALL,SGLANG_X=1",
        {"SGLANG_X": ("0", 1, 17)},
    ),
    "srun --export=ALL (the default)": ("export SGLANG_X=0\nsrun --export=ALL", {"SGLANG_X": ("0", 1, 17)}),
    # without ALL: only the names listed (the caller's value, or the one given), and SLURM*
    "srun --export=NAME,NAME=value": (
        "export SGLANG_X=0 SGLANG_Y=2\nsrun --export=SGLANG_Y,SGLANG_Z=3",
        {"SGLANG_Y": ("2", 1, 28), "SGLANG_Z": ("3", 2, 33)},
    ),
    "srun --export=NAME the caller does not set": ("export SGLANG_X=0\nsrun --export=SGLANG_Y", {}),
    # the list is cut at commas: `SGLANG_X=0,1` sets 0 and names a variable `1`
    "srun --export=ALL,NAME=a,b": (
        "srun --export=ALL,SGLANG_X=0,1",
        {"SGLANG_X": ("0", 1, 28)},
    ),
    # items after NONE are not read; the last --export counts
    "srun --export=NAME=value,NONE,NAME=value": (
        "srun --export=SGLANG_X=1,NONE,SGLANG_Y=2",
        {"SGLANG_X": ("1", 1, 24)},
    ),
    "srun --export twice": ("export SGLANG_X=0\nsrun --export=NONE --export=ALL", {"SGLANG_X": ("0", 1, 17)}),
    # SLURM_EXPORT_ENV / SRUN_EXPORT_ENV give the list when --export is absent (srun's opt.c)
    "SLURM_EXPORT_ENV=NONE exported": (
        "export SLURM_EXPORT_ENV=NONE SGLANG_X=0\nsrun",
        {"SLURM_EXPORT_ENV": ("NONE", 1, 25)},
    ),
    "SLURM_EXPORT_ENV=NONE before srun": (
        "export SGLANG_X=0\nSLURM_EXPORT_ENV=NONE srun",
        {"SLURM_EXPORT_ENV": ("NONE", 2, 18)},
    ),
    "SRUN_EXPORT_ENV over SLURM_EXPORT_ENV": (
        "export SLURM_EXPORT_ENV=NONE SRUN_EXPORT_ENV=ALL SGLANG_X=0\nsrun",
        {"SLURM_EXPORT_ENV": ("NONE", 1, 25), "SRUN_EXPORT_ENV": ("ALL", 1, 46), "SGLANG_X": ("0", 1, 59)},
    ),
    "--export over SLURM_EXPORT_ENV": (
        "export SLURM_EXPORT_ENV=NONE SGLANG_X=0\nsrun --export=ALL",
        {"SLURM_EXPORT_ENV": ("NONE", 1, 25), "SGLANG_X": ("0", 1, 39)},
    ),
    # an --export value speclint cannot know leaves the caller's environment as it is
    "srun --export $UNKNOWN": ("export SGLANG_X=0\nsrun --export $E", {"SGLANG_X": ("0", 1, 17)}),
    # apptainer applies --env after cleaning the environment, whatever the order written
    # (cmd/internal/cli/actions_linux.go: --env values become APPTAINERENV_ variables, which
    # internal/pkg/util/env/clean.go passes with --cleanenv)
    "apptainer --env NAME=value --cleanenv": (
        "export SGLANG_Y=0\napptainer exec --env SGLANG_X=1 --cleanenv img.sif",
        {"SGLANG_X": ("1", 2, 31)},
    ),
    "apptainer -e --env=NAME=value": (
        "export SGLANG_Y=0\napptainer exec -e --env=SGLANG_X=1 img.sif",
        {"SGLANG_X": ("1", 2, 34)},
    ),
    "singularity --env NAME=value --containall": (
        "singularity exec --env SGLANG_X=1 --containall img.sif",
        {"SGLANG_X": ("1", 1, 33)},
    ),
}


@pytest.mark.parametrize("form", ENV_FORMS)
def test_the_environment_a_launcher_gives(form: str) -> None:
    script, env = ENV_FORMS[form]
    text = f"{script} {SGLANG}\n"
    (launch,) = extract_shell(text, "t.sh").launches
    assert [w.text for w in launch.args] == ARGS
    got = {
        name: (word.text, word.span.line, word.span.column)
        for name, word in launch.env.items()
        if name in _env(launch)
    }
    assert got == env
    lines = text.splitlines()
    for value, line, column in env.values():
        assert lines[line - 1][column - 1 :].startswith(value)


def _par001(text: str) -> list[tuple[int, int, int]]:
    return [
        (f.span.line, f.span.column, f.span.end_column)
        for f in lint_text(text, "t.sh").findings
        if f.code == "PAR001"
    ]


LAUNCH_TP4 = "python3 -m sglang.launch_server --model-path /m --tp-size 4"


def test_apptainer_env_before_cleanenv_reaches_the_launch() -> None:
    line = f"apptainer exec --env CUDA_VISIBLE_DEVICES=0 --cleanenv img.sif {LAUNCH_TP4}\n"
    assert _par001(line) == [(1, 43, 44)]


@pytest.mark.parametrize(
    ("export", "env"),
    [
        # Slurm's find_quote_token: a comma inside quotes does not cut the list, and an item
        # wholly in quotes loses them; other quotes stay in the value
        ("--export='ALL,\"SGLANG_X=a,b\"'", {"SGLANG_Y": "0", "SLURM_JOB_ID": "7", "SGLANG_X": "a,b"}),
        ("--export='SGLANG_X=\"a,b\"'", {"SLURM_JOB_ID": "7", "SGLANG_X": '"a,b"'}),
        # an empty list: only the caller's SLURM* variables
        ("--export=", {"SLURM_JOB_ID": "7"}),
        # a name the shell could not assign is not set (as for mpirun -x and apptainer --env)
        ("--export=ÉTAT=1,SGLANG_X=1", {"SGLANG_X": "1", "SLURM_JOB_ID": "7"}),
    ],
)
def test_srun_export_list_items(export: str, env: dict[str, str]) -> None:
    text = f"export SGLANG_Y=0 SLURM_JOB_ID=7\nsrun {export} {SGLANG}\n"
    (launch,) = extract_shell(text, "t.sh").launches
    assert [w.text for w in launch.args] == ARGS
    assert _env(launch) == env


@pytest.mark.parametrize(
    "launcher",
    [
        "screen -r sgl",  # reattaches: no new command starts
        "screen -S sgl -X stuff",  # sends a command to a running session
        "screen -ls",
        "ray job logs raysubmit_1",
        "docker compose up",
        "gdb -p 1234",  # without --args gdb runs no program of these words
    ],
)
def test_a_launcher_that_starts_no_command_gives_no_launch(launcher: str) -> None:
    line = f"{launcher} {SGLANG}\n"
    assert extract_shell(line, "t.sh").launches == []
