"""KServe InferenceService models that add `args:` to their ServingRuntime's container: with
the runtime in the same file the launch is the runtime's command with its args then the
model's (KServe's MergeRuntimeContainers), in the runtime's image; with the runtime elsewhere
the model's args are said unread at their place, not described as a Helm values file."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.frontends import extract_file


def test_the_models_args_follow_the_runtimes_in_the_runtimes_image():
    fixture = FixtureFile("k8s/kserve_model_with_runtime.yaml")
    got = fixture.findings()
    assert [g[:4] for g in got] == [("FLG005", 28, 21, "2x")]
    assert got[0][4].startswith("`2x` is not a valid value for `--tp-size`")
    launches = extract_file(str(fixture.path), fixture.text).launches
    merged = launches[-1]
    assert [w.text for w in merged.args] == [
        "--model-path",
        "/mnt/models",
        "--port",
        "8080",
        "--tp-size=2x",
        "--mem-fraction-static=0.9",
    ]
    assert merged.image == "lmsysorg/sglang:v0.5.2"


def test_a_runtime_in_another_file_leaves_the_models_args_unread_at_their_place():
    fixture = FixtureFile("k8s/kserve_alone/inference_service.yaml")
    ((code, line, column, _, message),) = fixture.findings()
    assert (code, line, column) == ("SLM005", 14, 11)  # (the whole `args:` list, lines 14-15)
    assert message.startswith(
        "KServe adds these `args:` after those of the ServingRuntime `sglang-runtime`'s"
    )
    assert "which is not in this file: the launch they join was not checked" in message
    assert "Helm" not in message
