"""`sglang.multimodal_gen` is SGLang's diffusion runtime, with a ServerArgs and a
prepare_server_args of its own: its settings are not checked against the language-model
server's flags (they were: `num_gpus` "is not a ServerArgs field"), and the file says which
call it did not read."""

from __future__ import annotations

from fixture_file import FixtureFile

DIFFUSION = FixtureFile("python/diffusion_server_args.py")


def test_diffusion_settings_are_not_checked_as_the_server_s() -> None:
    findings = DIFFUSION.findings()
    assert [f[:4] for f in findings] == [("SLM005", 20, 33, "prepare_server_args")]
    assert (
        "this file names `prepare_server_args` but speclint found no launch in it (`ServerArgs(...)` "
        "at line 10 makes the settings of SGLang's diffusion runtime (`sglang.multimodal_gen`), which "
        "speclint does not model)"
    ) == findings[0][4]


def test_the_language_model_server_args_are_still_read(tmp_path) -> None:
    from speclint.engine import lint_text

    text = "from sglang.srt.server_args import ServerArgs\nargs = ServerArgs(model_path='m', num_gpus=1)\n"
    findings = lint_text(text, str(tmp_path / "args.py")).findings
    assert [(f.code, f.span.line, f.span.column) for f in findings] == [("FLG001", 2, 35)]
