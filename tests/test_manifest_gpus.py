"""GPU counts from manifests (Kubernetes nvidia.com/gpu, compose device reservations) checked
by the visible-GPU rule (PAR001)."""

from __future__ import annotations

from pathlib import Path

from speclint.engine import lint_text
from speclint.frontends import extract_file

ROOT = Path(__file__).resolve().parent.parent / "fixtures"


def found(result) -> list[tuple[str, str, int, int]]:
    return [(f.code, f.severity.label, f.span.line, f.span.column) for f in result.findings]


def test_k8s_gpu_limit_below_tp_is_an_error_at_the_limit():
    text = (ROOT / "k8s" / "gpu_limit_tp_mismatch.yaml").read_text()
    [launch] = extract_file("d.yaml", text).launches
    assert launch.gpu_count.text == "4" and launch.gpu_count.span.line == 16
    result = lint_text(text, "d.yaml")
    assert found(result) == [("PAR001", "error", 16, 31)]
    message = result.findings[0].message
    assert "leaves 4 GPUs visible" in message and "indices 4, 5, 6, 7 fail" in message
    assert "at least 8 GPUs in the container's GPU count" in result.findings[0].fix_hint


def test_compose_device_ids_and_count_all():
    text = (ROOT / "compose" / "gpu_reservation.yml").read_text()
    first, second = extract_file("c.yml", text).launches
    assert first.gpu_count.text == "2"
    assert second.gpu_count.dynamic and "every GPU of the host" in second.gpu_count.dynamic_reason
    result = lint_text(text, "c.yml")
    assert found(result) == [("PAR001", "info", 11, 27)]
    assert "1 GPU stays idle" in result.findings[0].message


def test_cuda_visible_devices_wins_over_the_manifest_count():
    text = (
        (ROOT / "k8s" / "gpu_limit_tp_mismatch.yaml")
        .read_text()
        .replace(
            "          resources:",
            '          env: [{name: CUDA_VISIBLE_DEVICES, value: "0,1,2,3,4,5,6,7"}]\n          resources:',
        )
    )
    assert found(lint_text(text, "d.yaml")) == []


def test_compose_count_matching_tp_is_clean():
    text = (
        "services:\n  s:\n    command: python3 -m sglang.launch_server --model-path m --tp-size 2\n"
        "    deploy: {resources: {reservations: {devices: [{driver: nvidia, count: 2}]}}}\n"
    )
    assert found(lint_text(text, "c.yml")) == []
    assert found(lint_text(text.replace("count: 2", "count: 1"), "c.yml")) == [("PAR001", "error", 4, 75)]
