"""RoleBasedGroup leader/worker roles whose base pod comes from a role template
(`leaderWorkerPattern.templateRef`) while the leader's and the workers' patches give the
commands: RBG builds each side from the role template, then the reference's `patch`, then that
side's patch, so each side runs the template's image (its SGLang release) with the environment
of the reference's patch; a template from another file leaves the release unknown, said at the
template's name. Also RBG v1alpha1's `templateRef: {name}` + `templatePatch` beside it."""

from __future__ import annotations

from fixture_file import FixtureFile
from speclint_runs import run_speclint

from speclint.engine import lint_text
from speclint.frontends import extract_file
from speclint.sglang.flags.versions import choose_version

FIXTURE = FixtureFile("k8s/rbg_template_ref_leader_worker.yaml")


def test_the_cli_checks_each_side_against_the_role_templates_image():
    done = run_speclint("--no-cache", str(FIXTURE.path))
    errors = [line for line in done.stdout.splitlines() if "[error]" in line]
    assert errors == [
        f"{FIXTURE.path}:39:80: FLG009 [error] `--attn-dp-size` does not exist yet in SGLang 0.5.2 (it "
        "exists in 0.5.22, 0.5.23): argparse stops the launch with 'unrecognized arguments'",
        f"{FIXTURE.path}:47:50: FLG005 [error] `0.9x` is not a valid value for `--mem-fraction-static`: "
        "argparse stops the launch with 'argument --mem-fraction-static: invalid float value: '0.9x''",
    ]
    assert "checked against SGLang 0.5.2 (from the image lmsysorg/sglang:v0.5.2" in done.stdout


def test_each_side_keeps_the_template_image_and_the_reference_patchs_environment():
    leader, worker = extract_file(str(FIXTURE.path), FIXTURE.text).launches
    for launch in (leader, worker):
        assert launch.image == "lmsysorg/sglang:v0.5.2"
        assert launch.image_span is not None and FIXTURE.at(launch.image_span)[:2] == (15, 22)
        assert launch.env["MODEL_PATH"].text == "/models/qwen"
        assert [w.text for w in launch.args][:2] == ["--model-path", "/models/qwen"]
    assert [w.text for w in leader.args][-2:] == ["--attn-dp-size", "2"]
    assert [w.text for w in worker.args][-2:] == ["--mem-fraction-static", "0.9x"]


def test_a_role_template_from_another_file_leaves_each_sides_release_unknown():
    text = FIXTURE.text.replace(
        "name: engine-base\n          patch:", "name: shared-engine\n          patch:"
    )
    assert text != FIXTURE.text
    launches = extract_file("rbg.yaml", text).launches
    assert len(launches) == 2
    for launch in launches:
        assert launch.image_span is not None and (launch.image_span.line, launch.image_span.column) == (
            25,
            17,
        )
        reason = choose_version(None, launch.image).reason
        assert "role template `shared-engine`, which is not in this file" in reason
    found = [(f.code, f.span.line, f.span.column) for f in lint_text(text, "rbg.yaml").findings]
    assert ("FLG009", 39, 80) not in found  # (0.5.23 has --attn-dp-size: not said against a guess)
    assert ("FLG005", 47, 50) in found


def test_a_v1alpha1_template_reference_with_its_patch_beside_it():
    text = (
        "apiVersion: workloads.x-k8s.io/v1alpha1\nkind: RoleBasedGroup\nmetadata:\n  name: x\nspec:\n"
        "  roleTemplates:\n    - name: base\n      template:\n        spec:\n          containers:\n"
        "            - name: sglang\n              image: lmsysorg/sglang:v0.5.2\n"
        "  roles:\n    - name: prefill\n      templateRef:\n        name: base\n      templatePatch:\n"
        "        spec:\n          containers:\n            - name: sglang\n"
        '              command: ["python3", "-m", "sglang.launch_server", "--model-path", "m", "--attn-dp-size", "2"]\n'
    )
    found = lint_text(text, "rbg.yaml").findings
    assert [(f.code, f.span.line, f.span.column) for f in found] == [("FLG009", 21, 88)]
    assert "does not exist yet in SGLang 0.5.2" in found[0].message
    (launch,) = extract_file("rbg.yaml", text).launches
    assert launch.image == "lmsysorg/sglang:v0.5.2"
