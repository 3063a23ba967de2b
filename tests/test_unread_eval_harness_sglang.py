"""Evaluation harnesses that start SGLang from settings of their own: lighteval's `lighteval
sglang MODEL_ARGS TASKS` (SGLang's engine started in-process from `model_args`) and a NeMo
Evaluator launcher config's `deployment:` of `type: sglang` (the launcher fills its own
`command:` template with these values). Neither is read, so each file gets `no-launch-found`
(SLM005) at what names SGLang, not "All checks passed: 0 launches" (survey11: both were
passed over silently)."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.engine import lint_text

NEMO = FixtureFile("unread/nemo_eval_sglang_deployment.yaml")
LIGHTEVAL = FixtureFile("unread/lighteval_sglang.sh")
NOTHING = "but speclint found no launch in it: nothing here was checked"


def test_a_nemo_evaluator_sglang_deployment_is_said_not_read() -> None:
    (finding,) = NEMO.findings()
    assert finding[:4] == ("SLM005", 11, 3, "type: sglang")
    assert finding[4] == f"this file names `type: sglang` {NOTHING}"


def test_lighteval_s_sglang_backend_is_said_not_read() -> None:
    (finding,) = LIGHTEVAL.findings()
    assert finding[:4] == ("SLM005", 4, 1, "lighteval sglang")
    assert finding[4] == f"this file names `lighteval sglang` {NOTHING}"


def test_a_type_sglang_outside_a_deployment_block_or_a_client_is_no_mention() -> None:
    assert lint_text("client:\n  type: sglang\n  url: http://localhost:30000\n", "eval.yaml").findings == []
    assert lint_text("deployment:\n  type: vllm\nother:\n  type: sglang\n", "eval.yaml").findings == []
    assert lint_text("echo mylighteval sglang\n", "run.sh").findings == []
