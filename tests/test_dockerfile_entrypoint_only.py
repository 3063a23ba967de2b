"""An image whose Dockerfile has an exec-form ENTRYPOINT and no CMD is run as `docker run IMAGE
--model-path ...`: the words given there are unknown, so the launch is partly read (SLM004,
info) and the model is not reported missing (was: FLG011, an error about a model that is
given at `docker run`). The flags the ENTRYPOINT itself writes are still checked."""

from __future__ import annotations

from findings_at import findings_at

from speclint.engine import lint_text

ENTRYPOINT_ONLY = (
    "FROM lmsysorg/sglang:v0.5.5\n"
    'ENTRYPOINT ["python3", "-m", "sglang.launch_server", "--host", "0.0.0.0", "--dtype", "float64"]\n'
)


def _found(text: str) -> list[tuple]:
    return findings_at(text, "Dockerfile")


def test_entrypoint_without_cmd_takes_its_arguments_at_docker_run():
    assert _found(ENTRYPOINT_ONLY) == [
        ("SLM004", 2, 1, "ENTRYPOINT"),
        ("FLG006", 2, 87, "float64"),
    ]
    slm004 = lint_text(ENTRYPOINT_ONLY, "Dockerfile").findings[0]
    assert "the arguments given to `docker run` after the image (the Dockerfile has no CMD)" in slm004.message


def test_a_cmd_gives_the_arguments_so_a_missing_model_is_reported():
    text = (
        ENTRYPOINT_ONLY.replace('"--dtype", "float64"]', '"--dtype", "float16"]')
        + 'CMD ["--port", "30000"]\n'
    )
    assert [code for code, *_ in _found(text)] == ["FLG011"]
