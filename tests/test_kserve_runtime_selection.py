"""KServe InferenceServices that name only their `modelFormat` (no `runtime:`): the model's
`args:` join the container of the runtime KServe picks (GetSupportingRuntimes): an autoSelect
runtime for that format, not disabled, the highest priority first, a namespace ServingRuntime
before a ClusterServingRuntime; where the file leaves the choice open (a tie, no runtime of the
file fits) the args are said unread at their place, never checked against a guessed runtime."""

from __future__ import annotations

from fixture_file import FixtureFile
from speclint_runs import run_speclint

from speclint.engine import lint_text
from speclint.frontends import extract_file

FIXTURE = FixtureFile("k8s/kserve_model_autoselect.yaml")


def test_the_cli_checks_the_models_args_in_the_highest_priority_autoselect_runtime():
    done = run_speclint("--no-cache", str(FIXTURE.path))
    lines = [line for line in done.stdout.splitlines() if line.startswith(str(FIXTURE.path))]
    assert lines == [
        f"{FIXTURE.path}:76:21: FLG005 [error] `2x` is not a valid value for `--tp-size`: argparse "
        "stops the launch with 'argument --tp-size: invalid int value: '2x''",
        f"{FIXTURE.path}:77:11: FLG009 [error] `--attn-dp-size` does not exist yet in SGLang 0.5.2 "
        "(it exists in 0.5.22, 0.5.23): argparse stops the launch with 'unrecognized arguments'",
    ]


def test_the_merged_launch_runs_the_picked_runtimes_command_and_image():
    merged = extract_file(str(FIXTURE.path), FIXTURE.text).launches[2]
    assert merged.image == "lmsysorg/sglang:v0.5.2"  # `sglang-new` (priority 2), not 0.4.6 / 0.4.0 / latest
    assert [w.text for w in merged.args] == [
        "--model-path",
        "/mnt/models",
        "--port",
        "8080",
        "--tp-size=2x",
        "--attn-dp-size=2",
    ]


def _runtime(name: str, image: str, fmt: str, *, kind: str = "ServingRuntime", extra: str = "") -> str:
    return (
        f"apiVersion: serving.kserve.io/v1alpha1\nkind: {kind}\nmetadata:\n  name: {name}\nspec:\n"
        f"  supportedModelFormats:\n    - name: huggingface\n{fmt}{extra}"
        "  containers:\n    - name: kserve-container\n"
        f"      image: {image}\n"
        '      command: ["python3", "-m", "sglang.launch_server", "--model-path", "/mnt/models"]\n---\n'
    )


_MODEL = (
    "apiVersion: serving.kserve.io/v1beta1\nkind: InferenceService\nmetadata:\n  name: m\nspec:\n"
    "  predictor:\n    model:\n      modelFormat:\n        name: huggingface\n"
    "      args:\n        - --tp-size=2\n        - --attn-dp-size=2\n"
)


def _findings(text: str) -> list[tuple[str, int, int, str]]:
    return [(f.code, f.span.line, f.span.column, f.message) for f in lint_text(text, "isvc.yaml").findings]


def test_runtimes_tied_at_the_top_leave_the_choice_unread_at_the_args():
    auto = "      autoSelect: true\n"
    text = (
        _runtime("sglang-a", "lmsysorg/sglang:v0.5.2", auto)
        + _runtime("sglang-b", "lmsysorg/sglang:v0.5.23", auto)
        + _MODEL
    )
    line = text.splitlines().index("        - --tp-size=2") + 1  # (the whole `args:` list)
    ((code, at_line, column, message),) = _findings(text)
    assert (code, at_line, column) == ("SLM005", line, 11)
    assert "the ServingRuntimes `sglang-a`, `sglang-b` of this file all support the model format" in message
    assert "picks by their creation time, which the file does not show" in message
    assert "the launch they join was not checked (name the one it runs in with `runtime:`" in message


def test_a_format_no_runtime_of_the_file_autoselects_is_said_unread():
    text = _runtime("sglang-a", "lmsysorg/sglang:v0.5.2", "") + _MODEL  # no `autoSelect: true`
    ((code, _, column, message),) = _findings(text)
    assert (code, column) == ("SLM005", 11)
    assert (
        "no ServingRuntime in this file supports the model format `huggingface` with `autoSelect: true`"
        in (message)
    )
    assert "takes one from the cluster, which is not in this file" in message


def test_a_namespace_runtime_comes_before_a_cluster_runtime_of_higher_priority():
    text = (
        _runtime(
            "cluster",
            "lmsysorg/sglang:v0.5.23",
            "      autoSelect: true\n      priority: 9\n",
            kind="ClusterServingRuntime",
        )
        + _runtime("local", "lmsysorg/sglang:v0.5.2", "      autoSelect: true\n      priority: 1\n")
        + _MODEL
    )
    found = _findings(text)
    assert [(code, column) for code, _, column, _ in found] == [("FLG009", 11)]
    assert "does not exist yet in SGLang 0.5.2" in found[0][3]


def test_a_model_format_version_needs_a_runtime_format_of_that_version():
    text = (
        _runtime(
            "v1", "lmsysorg/sglang:v0.5.2", "      version: '1'\n      autoSelect: true\n      priority: 5\n"
        )
        + _runtime(
            "v2", "lmsysorg/sglang:v0.5.23", "      version: '2'\n      autoSelect: true\n      priority: 1\n"
        )
        + _MODEL.replace("        name: huggingface\n", "        name: huggingface\n        version: '2'\n")
    )
    assert _findings(text) == []  # `v2` (0.5.23, where --attn-dp-size exists), not the higher `v1`
    images = [launch.image for launch in extract_file("isvc.yaml", text).launches]
    assert images[-1] == "lmsysorg/sglang:v0.5.23"


_NO_ARGS = (
    "apiVersion: serving.kserve.io/v1beta1\nkind: InferenceService\nmetadata:\n  name: m\nspec:\n"
    "  predictor:\n    model:\n      modelFormat:\n        name: {fmt}\n{runtime}"
    "      storageUri: hf://Qwen/Qwen2.5-7B-Instruct\n"
)


def test_a_model_without_args_in_an_sglang_runtime_kept_elsewhere_is_not_passed_in_silence():
    named = _NO_ARGS.format(fmt="huggingface", runtime="      runtime: kserve-sglang\n")
    ((code, line, column, message),) = _findings(named)
    assert (code, line, column) == ("SLM005", 10, 16)
    assert message.startswith(
        "KServe runs this model in the ServingRuntime `kserve-sglang`, which is not in this file"
    )
    assert "the SGLang launch it starts was not checked" in message
    picked = _NO_ARGS.format(fmt="sglang", runtime="")
    ((code, line, column, message),) = _findings(picked)
    assert (code, line, column) == ("SLM005", 9, 15)
    assert "no ServingRuntime in this file supports the model format `sglang`" in message


def test_a_model_without_args_whose_runtime_is_in_the_file_runs_that_runtimes_launch():
    runtime = _runtime("kserve-sglang", "lmsysorg/sglang:v0.5.2", "      autoSelect: true\n")
    text = runtime.replace('"/mnt/models"]', '"/mnt/models", "--tp-size", "2x"]') + _NO_ARGS.format(
        fmt="huggingface", runtime="      runtime: kserve-sglang\n"
    )
    assert [(code, line) for code, line, _, _ in _findings(text)] == [
        ("FLG005", 12)
    ]  # (the runtime's command)
    assert lint_text(_NO_ARGS.format(fmt="huggingface", runtime=""), "isvc.yaml").findings == []  # not SGLang


def test_every_runtime_of_the_file_is_read_each_time():
    # Each document is read and then freed: a node's id was kept as "seen", and the next
    # document's nodes, given the freed ids, were skipped (4 or 5 launches from run to run)
    lines = {
        tuple(launch.span.line for launch in extract_file(str(FIXTURE.path), FIXTURE.text).launches)
        for _ in range(20)
    }
    assert lines == {(17, 32, 32, 48, 62)}
