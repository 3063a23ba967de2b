"""A bare `HttpServerEngineAdapter(model_path=..., ...)` (a snippet that omits its import, as RL
rollout code excerpts do): read as SGLang's class, whose `__init__` builds `ServerArgs(**kwargs)`
in every release read (speclint.sglang.launch_classes); not when the file imports or defines a
class of that name itself (verl's own adapter)."""

from __future__ import annotations

import pytest
from findings_at import findings_at

from speclint.frontends import extract_file
from speclint.settings.options import LintOptions


@pytest.fixture(autouse=True)
def _no_model_cache(monkeypatch, tmp_path):
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "no-cache"))


BARE = (
    "# rollout worker excerpt\n"
    "engine = HttpServerEngineAdapter(\n"
    '    model_path="Qwen/Qwen3-8B",\n'
    "    tp_size=2,\n"
    '    speculative_algorithm="EAGLE",\n'
    "    speculative_eagle_topk=1,\n"
    "    speculative_num_steps=3,\n"
    "    speculative_num_draft_tokens=16,\n"
    "    max_running_requests=64,\n"
    ")\n"
)


def located(text: str, version: str | None = None) -> list[tuple]:
    # (DRF011, DRF012: the model's config.json is not on disk here)
    options = LintOptions(sglang_version=version)
    return findings_at(text, "rollout.py", options, skip={"DRF011", "DRF012"}, message=True)


def test_a_bare_adapter_call_is_read_as_sglangs_server_args():
    found = located(BARE)
    assert [f[:4] for f in found] == [("SPD001", 8, 34, "16")]
    assert "runs with 4, not 16" in found[0][4]
    (launch,) = extract_file("rollout.py", BARE).launches
    assert launch.entry == "HttpServerEngineAdapter"
    assert [k.text for k, _ in launch.kwargs][:2] == ["model_path", "tp_size"]


def test_before_the_class_existed_the_bare_call_is_reported_missing():
    found = located(BARE, version="0.4.5")
    [missing] = [f for f in found if f[0] == "FLG009"]
    assert missing[1:3] == (2, 10)
    assert missing[4].startswith(
        "`HttpServerEngineAdapter` does not exist in SGLang 0.4.5 (SGLang 0.4.5.post1 to"
    )


@pytest.mark.parametrize(
    "head",
    [
        "from verl.workers.rollout.sglang_rollout.http_server_engine import HttpServerEngineAdapter\n",
        "class HttpServerEngineAdapter:\n    def __init__(self, **kwargs):\n        self.kwargs = kwargs\n",
    ],
)
def test_an_adapter_the_file_imports_from_elsewhere_or_defines_is_not_sglangs(head):
    text = head + BARE
    assert extract_file("rollout.py", text).launches == []
    [(code, line, column, token, message)] = located(text)
    assert (code, token) == ("SLM005", "HttpServerEngineAdapter")
    assert (
        message
        == "this file names `HttpServerEngineAdapter` but speclint found no launch in it: nothing here was checked"
    )


def test_without_model_path_a_bare_name_is_not_taken_for_sglangs():
    text = "engine = HttpServerEngineAdapter(**config)\n"
    assert extract_file("rollout.py", text).launches == []


def test_a_bare_runtime_with_model_path_in_a_file_naming_sglang_is_sglangs_runtime():
    text = '# sglang frontend excerpt\nruntime = Runtime(model_path="m", tp_size=2, tp_szie=2)\n'
    [(code, line, column, token, message)] = located(text)
    assert (code, line, column, token) == ("FLG001", 2, 46, "tp_szie")
    assert message.startswith("`tp_szie` is not a ServerArgs field of SGLang 0.5.23")
