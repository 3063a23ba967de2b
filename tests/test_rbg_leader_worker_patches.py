"""RoleBasedGroup roles in the leader/worker pattern whose leader and workers get their
command from `leaderTemplatePatch` / `workerTemplatePatch` (v1alpha1: `leaderWorkerSet.
patchLeaderTemplate` / `patchWorkerTemplate`): each patch's container is merged into the base
template's container of the same name, as RBG's controller does, so each side is checked with
the base's image (its release) and environment, each finding at the token the patch wrote."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.engine import lint_text
from speclint.frontends import extract_file

FILE = FixtureFile("k8s/rbg_leader_worker_patches.yaml")


def test_the_leaders_and_the_workers_commands_are_checked_against_the_base_image() -> None:
    got = FILE.findings()
    assert [g[:4] for g in got] == [
        ("SLM004", 34, 45, "$(RBG_LWP_LEADER_ADDRESS):20000"),
        ("FLG009", 35, 44, "--attn-dp-size"),  # the leader's patch, checked against the base's 0.5.2
        ("SLM004", 42, 40, "$(RBG_LWP_WORKER_INDEX)"),
        ("FLG005", 43, 85, "0.9x"),  # the workers' patch
    ]
    assert "does not exist yet in SGLang 0.5.2" in got[1][4]


def test_each_side_runs_the_base_containers_image_and_environment() -> None:
    leader, worker = extract_file(str(FILE.path), FILE.text).launches
    for launch in (leader, worker):
        assert launch.image == "lmsysorg/sglang:v0.5.2"
        assert launch.image_span is not None and FILE.at(launch.image_span)[:2] == (18, 24)
        assert launch.env["SGLANG_LOG_LEVEL"].text == "info"
    assert [w.text for w in leader.args][-2:] == ["--attn-dp-size", "2"]
    assert [w.text for w in worker.args][-2:] == ["--mem-fraction-static", "0.9x"]


_HEAD = (
    "apiVersion: workloads.x-k8s.io/v1alpha2\nkind: RoleBasedGroup\nmetadata:\n  name: x\nspec:\n"
    "  roles:\n    - name: backend\n      leaderWorkerPattern:\n        size: 2\n        template:\n"
    "          spec:\n            containers:\n              - name: sglang\n"
    "                image: lmsysorg/sglang:v0.5.2\n"
    '                command: ["python3", "-m", "sglang.launch_server", "--model-path", "m", "--tp-size", "2x"]\n'
)
_WORKER_LABELS = (
    "        workerTemplatePatch:\n          metadata:\n            labels:\n              role: worker\n"
)


def test_a_side_whose_patch_leaves_the_container_runs_the_base_as_written() -> None:
    """Only the leader's patch changes the container: the workers run the base's command."""
    text = (
        _HEAD + "        leaderTemplatePatch:\n          spec:\n            containers:\n"
        "              - name: sglang\n"
        '                command: ["python3", "-m", "sglang.launch_server", "--model-path", "m", "--attn-dp-size", "2"]\n'
        + _WORKER_LABELS
    )
    result = lint_text(text, "lw.yaml")
    found = [(f.code, f.span.line, f.span.column) for f in result.findings]
    assert found == [("FLG005", 15, 103), ("FLG009", 20, 90)]  # the workers' base `2x`, the leader's patch
    assert len(result.contexts) == 2


def test_patches_that_leave_the_containers_leave_one_launch() -> None:
    leader_labels = (
        "        leaderTemplatePatch:\n          metadata:\n            labels:\n              role: leader\n"
    )
    text = _HEAD + leader_labels + _WORKER_LABELS
    result = lint_text(text, "lw.yaml")
    assert [(f.code, f.span.line, f.span.column) for f in result.findings] == [("FLG005", 15, 103)]
    assert len(result.contexts) == 1


def test_the_v1alpha1_patches_are_merged_the_same_way() -> None:
    text = (
        "apiVersion: workloads.x-k8s.io/v1alpha1\nkind: RoleBasedGroup\nmetadata:\n  name: x\nspec:\n"
        "  roles:\n    - name: backend\n      leaderWorkerSet:\n        size: 2\n"
        "        patchLeaderTemplate:\n          spec:\n            containers:\n              - name: sglang\n"
        '                command: ["python3", "-m", "sglang.launch_server", "--model-path", "m", "--attn-dp-size", "2"]\n'
        "        patchWorkerTemplate:\n          spec:\n            containers:\n              - name: sglang\n"
        '                command: ["python3", "-m", "sglang.launch_server", "--model-path", "m", "--node-rank", "1"]\n'
        "      template:\n        spec:\n          containers:\n            - name: sglang\n"
        "              image: lmsysorg/sglang:v0.5.2\n"
    )
    result = lint_text(text, "lw.yaml")
    assert [(f.code, f.span.line, f.span.column) for f in result.findings] == [("FLG009", 14, 90)]
    assert [launch.image for launch in extract_file("lw.yaml", text).launches] == [
        "lmsysorg/sglang:v0.5.2"
    ] * 2
