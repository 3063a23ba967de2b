"""`sglang serve` runs SGLang's diffusion server for a diffusion model (0.5.5+) and with
`--model-type diffusion` (0.5.12+), as each release's `sglang/cli/serve.py` says
(tools/gen_sglang_diffusion_serve.py): such a launch is said not read (SLM004 at the word that
shows it), not checked against the language-model server's flags (a false FLG001 before)."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.engine import lint_text
from speclint.settings.options import LintOptions
from speclint.sglang.diffusion_serve import diffusion_serve

SERVE = FixtureFile("shell/diffusion_serve.sh")


def test_diffusion_launches_are_said_not_read_and_a_language_model_typo_stays_an_error() -> None:
    findings = SERVE.findings()
    assert [f[:4] for f in findings] == [
        ("SLM004", 4, 56, "--num-gpus"),
        ("SLM004", 5, 27, "diffusion"),
        ("FLG001", 6, 41, "--tp-szie"),
    ]
    assert findings[0][4] == (
        "launch not read: `--num-gpus` is not a flag of SGLang 0.5.23's language-model server but "
        "of its diffusion server, which `sglang serve` runs when the model is a diffusion model "
        "(`model_index.json`); speclint does not model that server, so nothing in this launch was checked"
    )
    assert findings[1][4].startswith(
        "launch not read: `--model-type diffusion` makes `sglang serve` of SGLang 0.5.23 run its diffusion server"
    )


def _codes(text: str, version: str, tmp_path) -> list[str]:
    found = lint_text(text, str(tmp_path / "serve.sh"), LintOptions(sglang_version=version)).findings
    return [f.code for f in found]


def test_per_release(tmp_path) -> None:
    flux = "sglang serve --model-path black-forest-labs/FLUX.1-dev --num-gpus 2\n"
    assert _codes(flux, "0.5.4", tmp_path) == ["FLG001"]  # its serve has no diffusion server
    assert _codes(flux, "0.5.5", tmp_path) == ["SLM004"]
    forced = "sglang serve --model-type diffusion --model-path m --tp-size 2\n"
    assert _codes(forced, "0.5.6", tmp_path) == ["FLG001"]  # no --model-type before 0.5.12
    assert _codes(forced, "0.5.12", tmp_path) == ["SLM004"]
    assert diffusion_serve("0.5.4") is None
    reads_model_type, flags = diffusion_serve("0.5.23") or (False, frozenset())
    assert reads_model_type and {"--num-gpus", "--ulysses-degree"} <= flags


def test_a_language_model_on_disk_keeps_the_error(tmp_path) -> None:
    model = tmp_path / "qwen"
    model.mkdir()
    (model / "config.json").write_text('{"architectures": ["Qwen3ForCausalLM"], "model_type": "qwen3"}')
    text = f"sglang serve --model-path {model} --num-gpus 2\n"
    assert _codes(text, "0.5.23", tmp_path) == ["FLG001"]
    assert _codes("sglang serve --model-type llm --model-path m --num-gpus 2\n", "0.5.23", tmp_path) == [
        "FLG001"
    ]


def test_every_release_was_read_and_regenerating_reproduces_the_data() -> None:
    from regenerated import assert_regenerates, use_tools

    from speclint.sglang.diffusion_serve import _FILE
    from speclint.sglang.flags.schema import supported_versions

    assert set(_FILE.versions()) == set(supported_versions())
    use_tools()
    from gen_sglang_diffusion_serve import build, dump

    assert_regenerates(_FILE.path, list(_FILE.versions()), lambda: dump(build(list(_FILE.versions()))))


def test_explain_says_a_diffusion_launch_is_not_read_not_that_argparse_stops_it() -> None:
    from speclint.engine import explain_facts
    from speclint.report.explain import render_explain_text

    flux, model_type, language = lint_text(SERVE.text, str(SERVE.path)).contexts
    text = render_explain_text([(ctx, explain_facts(ctx)) for ctx in (flux, model_type, language)])
    blocks = text.split("\n\n")
    assert "argument parser stops" not in blocks[0] and "argument parser stops" not in blocks[1]
    assert (
        "  not read: `--num-gpus` is not a flag of SGLang 0.5.23's language-model server but of its "
        "diffusion server, which `sglang serve` runs when the model is a diffusion model "
        "(`model_index.json`); speclint does not model that server: what follows is the "
        "language-model server's reading of the flags, not what runs"
    ) in blocks[0].splitlines()
    assert "  not read: `--model-type diffusion` makes" in blocks[1]
    assert (  # the language model's typo: argparse stops it, as before
        "SGLang's argument parser stops this launch before any resolution: error: unrecognized "
        "arguments: --tp-szie (line 6, column 41)"
    ) in blocks[2]


def _pipeline(folder, index: str = "model_index.json", body: str = '{"_diffusers_version": "0.35.1"}'):
    folder.mkdir(parents=True)
    (folder / index).write_text(body)
    return folder


def test_a_diffusers_pipeline_on_disk_with_only_shared_flags_is_not_read(tmp_path) -> None:
    model = _pipeline(tmp_path / "flux")
    text = f"sglang serve --model-path {model} --port 30000 --tp-size 2\n"
    found = lint_text(text, str(tmp_path / "serve.sh"), LintOptions(sglang_version="0.5.23")).findings
    assert [(f.code, f.span.line, f.span.column) for f in found] == [("SLM004", 1, 27)]
    assert found[0].message.startswith(
        f"launch not read: the model's folder holds `model_index.json` ({model}/model_index.json), "
        "a diffusers pipeline: `sglang serve` of SGLang 0.5.23 runs its diffusion server for it"
    )
    assert _codes(text, "0.5.4", tmp_path) == []  # no diffusion server in its serve: read as before


def test_per_release_index_files_and_key(tmp_path) -> None:
    modular = _pipeline(tmp_path / "modular", "modular_model_index.json")
    text = f"sglang serve --model-path {modular} --tp-size 2\n"
    assert _codes(text, "0.5.23", tmp_path) == ["SLM004"]  # 0.5.22+ read the modular index too
    assert _codes(text, "0.5.20", tmp_path) == []
    keyless = _pipeline(tmp_path / "keyless", body='{"_class_name": "FluxPipeline"}')
    assert _codes(f"sglang serve --model-path {keyless} --tp-size 2\n", "0.5.23", tmp_path) == []


def test_a_pipeline_in_the_hub_cache(tmp_path, monkeypatch) -> None:
    repo = tmp_path / "hub" / "models--acme--tiny-flux"
    (repo / "refs").mkdir(parents=True)
    (repo / "refs" / "main").write_text("a" * 40)
    _pipeline(repo / "snapshots" / ("a" * 40))
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    assert _codes("sglang serve --model-path acme/tiny-flux --tp-size 2\n", "0.5.23", tmp_path) == ["SLM004"]
    assert _codes("sglang serve --model-path acme/other --tp-size 2\n", "0.5.23", tmp_path) == []
