"""A KServe InferenceService whose model names a ServingRuntime written in another YAML file of
the same folder (`runtime.yaml` beside `isvc.yaml`): the model's `args:` follow the runtime's
container (KServe's MergeRuntimeContainers), each runtime word said at the model's `runtime:`
name with a note where it is written; the result depends on the folder's files, which the
result cache re-checks; a name two files define, or none, stays unread (SLM005)."""

from __future__ import annotations

import os

from speclint_runs import run_speclint

_RUNTIME = """apiVersion: serving.kserve.io/v1alpha1
kind: ServingRuntime
metadata:
  name: sglang-runtime
spec:
  supportedModelFormats:
    - name: huggingface
  containers:
    - name: kserve-container
      image: lmsysorg/sglang:v0.5.2
      command: ["python3", "-m", "sglang.launch_server"]
      args: ["--model-path", "/mnt/models", "--port", "{port}"]
"""
_ISVC = """apiVersion: serving.kserve.io/v1beta1
kind: InferenceService
metadata:
  name: qwen
spec:
  predictor:
    model:
      modelFormat:
        name: huggingface
      runtime: sglang-runtime
      args:
        - --tp-size=2x
"""


def _folder(tmp_path, port: str = "80x"):
    (tmp_path / "runtime.yaml").write_text(_RUNTIME.replace("{port}", port))
    (tmp_path / "isvc.yaml").write_text(_ISVC)
    return tmp_path


def _heads(done) -> list[str]:
    return [line.split(" [")[0] for line in done.stdout.splitlines() if line.startswith("isvc.yaml:")]


def test_the_models_args_follow_a_runtime_written_beside_it(tmp_path):
    done = run_speclint("--no-cache", "isvc.yaml", cwd=_folder(tmp_path))
    lines = done.stdout.splitlines()
    assert _heads(done) == ["isvc.yaml:10:16: FLG005", "isvc.yaml:12:21: FLG005"]
    assert lines[0] == (
        "isvc.yaml:10:16: FLG005 [error] `80x` is not a valid value for `--port`: argparse stops the "
        "launch with 'argument --port: invalid int value: '80x''"
    )
    assert (
        "   = note: runtime.yaml, line 12, column 55: written in `runtime.yaml`, the file of the "
        "ServingRuntime `sglang-runtime` this model names"
    ) in lines
    assert (
        "checked against SGLang 0.5.2 (from the image lmsysorg/sglang:v0.5.2 at runtime.yaml:10)"
        in done.stdout  # (where written)
    )


def test_a_runtime_two_files_define_stays_unread(tmp_path):
    folder = _folder(tmp_path)
    (folder / "runtime-copy.yaml").write_text(_RUNTIME.replace("{port}", "8080"))
    done = run_speclint("--no-cache", "isvc.yaml", cwd=folder)
    assert _heads(done) == ["isvc.yaml:12:11: SLM005"]
    assert "the ServingRuntime `sglang-runtime`'s container" in done.stdout


def test_the_cache_sees_the_runtime_file_change_and_appear(tmp_path):
    folder = _folder(tmp_path)
    assert _heads(run_speclint("isvc.yaml", cwd=folder)) == [
        "isvc.yaml:10:16: FLG005",
        "isvc.yaml:12:21: FLG005",
    ]
    runtime = folder / "runtime.yaml"
    runtime.write_text(_RUNTIME.replace("{port}", "8080"))
    os.utime(runtime, ns=(runtime.stat().st_atime_ns, runtime.stat().st_mtime_ns + 10**9))
    assert _heads(run_speclint("isvc.yaml", cwd=folder)) == ["isvc.yaml:12:21: FLG005"]
    runtime.unlink()
    assert _heads(run_speclint("isvc.yaml", cwd=folder)) == ["isvc.yaml:12:11: SLM005"]
    runtime.write_text(_RUNTIME.replace("{port}", "80x"))
    assert _heads(run_speclint("isvc.yaml", cwd=folder)) == [
        "isvc.yaml:10:16: FLG005",
        "isvc.yaml:12:21: FLG005",
    ]


def test_a_model_with_no_args_says_which_file_its_runtime_is_in(tmp_path):
    folder = _folder(tmp_path)
    (folder / "isvc.yaml").write_text(_ISVC.split("      args:")[0])
    done = run_speclint("--no-cache", "isvc.yaml", cwd=folder)
    assert done.stdout.splitlines()[0] == (
        "isvc.yaml:10:16: SLM005 [info] KServe runs this model in the ServingRuntime `sglang-runtime` of "
        "`runtime.yaml`: the SGLang launch it starts is checked where that file is linted, not in this one"
    )


_FORMAT_RUNTIME = """apiVersion: serving.kserve.io/v1alpha1
kind: ServingRuntime
metadata:
  name: {name}
spec:
  supportedModelFormats:
    - name: sglang
      autoSelect: true
      priority: {priority}
  containers:
    - name: kserve-container
      image: lmsysorg/sglang:v0.5.2
      command: ["python3", "-m", "sglang.launch_server"]
      args: ["--model-path", "/mnt/models", "--port", "{port}"]
"""
_FORMAT_ISVC = """apiVersion: serving.kserve.io/v1beta1
kind: InferenceService
metadata:
  name: qwen
spec:
  predictor:
    model:
      modelFormat:
        name: sglang
      args:
        - --tp-size=2x
"""


def _format_folder(tmp_path, *runtimes: tuple[str, int, str]):
    for name, priority, port in runtimes:
        text = _FORMAT_RUNTIME.format(name=name, priority=priority, port=port)
        (tmp_path / f"{name}.yaml").write_text(text)
    (tmp_path / "isvc.yaml").write_text(_FORMAT_ISVC)
    return tmp_path


def test_a_model_naming_only_its_format_runs_in_the_runtime_picked_from_the_folder(tmp_path):
    # (before: only a runtime named by `runtime:` was looked for beside the file)
    folder = _format_folder(tmp_path, ("sglang-low", 1, "80x"), ("sglang-high", 2, "81x"))
    done = run_speclint("--no-cache", "isvc.yaml", cwd=folder)
    assert _heads(done) == ["isvc.yaml:9:15: FLG005", "isvc.yaml:11:21: FLG005"]
    assert "`81x` is not a valid value for `--port`" in done.stdout  # the highest priority
    assert (
        "  = note: sglang-high.yaml, line 14, column 55: written in `sglang-high.yaml`, the file of the "
        "ServingRuntime `sglang-high` KServe picks for this model's format"
    ) in done.stdout.splitlines()


def test_runtimes_tied_for_the_format_leave_the_args_unread(tmp_path):
    folder = _format_folder(tmp_path, ("sglang-a", 1, "80x"), ("sglang-b", 1, "81x"))
    done = run_speclint("--no-cache", "isvc.yaml", cwd=folder)
    assert _heads(done) == ["isvc.yaml:11:11: SLM005"]


def test_a_format_model_with_no_args_says_which_file_its_runtime_is_in(tmp_path):
    folder = _format_folder(tmp_path, ("kserve-sglang", 1, "8080"))
    (folder / "isvc.yaml").write_text(_FORMAT_ISVC.split("      args:")[0])
    done = run_speclint("--no-cache", "isvc.yaml", cwd=folder)
    assert done.stdout.splitlines()[0] == (
        "isvc.yaml:9:15: SLM005 [info] KServe runs this model in the ServingRuntime `kserve-sglang` of "
        "`kserve-sglang.yaml`, which it picks for the model format `sglang`: the SGLang launch it starts "
        "is checked where that file is linted, not in this one"
    )
