"""`docker run --gpus` read as docker/cli reads it (a count, `all`, `"device=..."` lists): the
GPUs the container gets, checked by the visible-GPU rule (PAR001) at the option's value."""

from __future__ import annotations

import pytest
from findings_at import findings_at

IMAGE = "lmsysorg/sglang:v0.5.3"


def _launch(gpus: str, flags: str = "--tp-size 4", before: str = "") -> str:
    return f"docker run {before}--gpus {gpus} --ipc=host {IMAGE} python3 -m sglang.launch_server --model-path m {flags}\n"


@pytest.mark.parametrize(
    ("gpus", "token", "shown", "visible"),
    [
        ("2", "2", "docker run --gpus 2", 2),
        ("""'"device=0,1"'""", """'"device=0,1"'""", """docker run --gpus '"device=0,1"'""", 2),
        ("device=0", "device=0", "docker run --gpus device=0", 1),
        ("count=3", "count=3", "docker run --gpus count=3", 3),
        (  # neither count nor devices: one GPU
            """'"capabilities=compute,utility"'""",
            """'"capabilities=compute,utility"'""",
            """docker run --gpus '"capabilities=compute,utility"'""",
            1,
        ),
    ],
)
def test_fewer_gpus_than_the_launch_opens_is_an_error_at_the_value(gpus, token, shown, visible):
    text = _launch(gpus)
    [(code, line, column, severity, at, message)] = findings_at(text, "serve.sh", severity=True, message=True)
    assert (code, line, column, severity, at) == ("PAR001", 1, 19, "error", token)
    assert shown in message
    assert f"leaves {visible} GPU{'s' if visible > 1 else ''} visible" in message
    assert "tp 4 makes SGLang start 4 workers" in message


def test_the_fix_names_the_option_to_change():
    from speclint.engine import lint_text

    [finding] = lint_text(_launch("2"), "serve.sh").findings
    assert finding.fix_hint == "request at least 4 GPUs in --gpus, or lower the parallel sizes to fit 2"


def test_the_equals_form_and_idle_gpus():
    assert findings_at(
        _launch("=4", "--tp-size 2").replace("--gpus =4", "--gpus=4"), "serve.sh", severity=True, message=True
    ) == [
        (
            "PAR001",
            1,
            19,
            "info",
            "4",
            "docker run --gpus 4 leaves 4 GPUs visible, but tp 2 uses 2 on this node: 2 GPUs stay idle",
        )
    ]


def test_count_zero_hides_every_gpu():
    [(code, *_, message)] = findings_at(_launch("0", ""), "serve.sh", message=True)
    assert code == "PAR001" and message.startswith("docker run --gpus 0 hides every GPU from CUDA")


@pytest.mark.parametrize(
    "gpus",
    [
        "all",  # every GPU of the host
        "count=all",
        "4",  # as many as the launch opens
        "device=0,1",  # CSV: `device=0` and a count 1, which the daemon refuses with devices
        "2,count=3",  # a key twice: docker refuses it
        "capabilities=compute,utility",  # CSV: `utility` is read as a count, which docker refuses
        "bogus=1",
        "9" * 5000,  # past Go's int (and Python's digit limit for int())
        "'\"device=0,1'",  # an unterminated quote
        "$GPUS",
    ],
)
def test_unknown_or_matching_requests_say_nothing(gpus):
    assert findings_at(_launch(gpus), "serve.sh") == []


def test_cuda_visible_devices_in_the_container_wins():
    text = _launch("4", "--tp-size 4", before="-e CUDA_VISIBLE_DEVICES=0,1 ")
    [(code, line, column, at)] = findings_at(text, "serve.sh")
    assert (code, at) == ("PAR001", "CUDA_VISIBLE_DEVICES=0,1"[len("CUDA_VISIBLE_DEVICES=") :])


def test_two_requests_and_other_programs_are_not_counted():
    two = _launch("1", before="--gpus 1 ")
    assert findings_at(two, "serve.sh") == []
    assert findings_at(_launch("2").replace("docker run", "podman run"), "serve.sh") == []


def test_in_a_markdown_code_block():
    text = "# Serve\n\n```bash\n" + _launch("2") + "```\n"
    [(code, line, column, at)] = findings_at(text, "README.md")
    assert (code, line, column, at) == ("PAR001", 4, 19, "2")
