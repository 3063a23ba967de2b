"""The GPU preflight, with the GPU layer faked at its boundary: recorded nvidia-smi CSV
output (fixtures/nvidia-smi/) served by a stub on PATH, and a fake `pynvml` module."""

from __future__ import annotations

import os
import sys
import types

import pytest

from speclint.preflight import check
from speclint.preflight.gpus import pick, resolve_visible
from speclint.preflight.report import render_text
from speclint.preflight.smi import parse_apps
from speclint.preflight.snapshot import PhysicalGpu

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SMI = os.path.join(ROOT, "fixtures", "nvidia-smi")
UUIDS = [line.split(", ")[1] for line in open(os.path.join(SMI, "clean-8x", "query-gpu.csv"))]


def smi_env(*scenarios: str, state: str | None = None, **extra) -> dict[str, str]:
    """An environment whose PATH finds the stub nvidia-smi first, serving `scenarios`."""
    env = {
        "PATH": SMI + os.pathsep + os.environ.get("PATH", ""),
        "NVIDIA_SMI_FIXTURE": ":".join(os.path.join(SMI, s) for s in scenarios),
        "SPECLINT_GPU_BACKEND": "nvidia-smi",
        "SPECLINT_PROC_ROOT": "/nonexistent",
    }
    if state:
        env["NVIDIA_SMI_STATE"] = state
    env.update(extra)
    return env


@pytest.fixture(autouse=True)
def _stub_env(monkeypatch):
    # the stub reads its scenario from the process environment
    for name in ("NVIDIA_SMI_FIXTURE", "NVIDIA_SMI_STATE", "NVIDIA_SMI_HANG", "NVIDIA_SMI_FAIL"):
        monkeypatch.delenv(name, raising=False)


def run_check(monkeypatch, env: dict, **kwargs):
    for name in ("NVIDIA_SMI_FIXTURE", "NVIDIA_SMI_STATE", "NVIDIA_SMI_HANG", "NVIDIA_SMI_FAIL"):
        if name in env:
            monkeypatch.setenv(name, env[name])
    return check(env=env, **kwargs)


# --- nvidia-smi backend -------------------------------------------------------------------


def test_clean_eight_gpus_like_the_seed(monkeypatch):
    result = run_check(monkeypatch, smi_env("clean-8x"))
    assert result.status == "clean" and result.exit_code == 0
    assert result.backend == "nvidia-smi"
    assert [(g.index, g.used_mib, g.total_mib) for g in result.gpus] == [(i, 0, 97887) for i in range(8)]
    assert render_text(result).startswith("clean: 8 GPUs free")


def test_busy_gpu_names_gpu_memory_pid_and_process(monkeypatch):
    result = run_check(monkeypatch, smi_env("busy-gpu3"))
    assert result.status == "busy" and result.exit_code == 1
    [busy] = result.busy_gpus
    assert (busy.index, busy.uuid, busy.used_mib) == (3, UUIDS[3], 71234)
    assert [(p.pid, p.name, p.used_mib) for p in busy.processes] == [(1843211, "python3", 71230)]
    text = render_text(result)
    assert "GPU 3" in text and "71234 / 97887 MiB" in text and "pid 1843211  python3" in text


def test_memory_held_with_no_process_is_not_clean(monkeypatch):
    result = run_check(monkeypatch, smi_env("held-no-process"))
    assert result.status == "busy"
    [busy] = result.busy_gpus
    assert busy.index == 5 and busy.processes == []
    assert "no listed process" in busy.reason
    assert result.kill_command is None


def test_threshold_is_configurable(monkeypatch):
    assert run_check(monkeypatch, smi_env("held-no-process"), max_used_mib=4096).status == "clean"


def test_only_the_gpus_the_launch_uses(monkeypatch):
    env = smi_env("busy-gpu3", CUDA_VISIBLE_DEVICES="4,5,6,7")
    result = run_check(monkeypatch, env, needed=2)
    assert result.status == "clean"
    assert [(g.cuda_ordinal, g.index) for g in result.gpus] == [(0, 4), (1, 5)]
    # physical GPU 3 is CUDA device 1 here
    result = run_check(monkeypatch, smi_env("busy-gpu3", CUDA_VISIBLE_DEVICES="7,3"), needed=2)
    assert result.status == "busy" and result.busy_gpus[0].cuda_ordinal == 1


def test_too_few_visible_gpus_is_a_failure(monkeypatch):
    result = run_check(monkeypatch, smi_env("clean-8x", CUDA_VISIBLE_DEVICES="0,1"), needed=4)
    assert result.status == "insufficient" and result.exit_code == 1
    assert result.missing_ordinals == [2, 3]
    assert "needs 4 GPUs" in result.messages[0]
    result = run_check(monkeypatch, smi_env("clean-8x", CUDA_VISIBLE_DEVICES=""))
    assert result.status == "insufficient"


def test_invalid_entry_hides_everything_after_it(monkeypatch):
    result = run_check(monkeypatch, smi_env("clean-8x", CUDA_VISIBLE_DEVICES="0,2,-1,1"))
    assert [g.index for g in result.gpus] == [0, 2]
    assert any("'-1'" in m for m in result.messages)


def test_explicit_gpus_override_cuda_visible_devices(monkeypatch):
    result = run_check(monkeypatch, smi_env("busy-gpu3", CUDA_VISIBLE_DEVICES="0"), gpus="3")
    assert result.status == "busy" and result.visible == "--gpus 3"


def test_hung_nvidia_smi_is_timed_out(monkeypatch):
    env = smi_env("clean-8x", NVIDIA_SMI_HANG="1", SPECLINT_NVIDIA_SMI_TIMEOUT="0.5")
    result = run_check(monkeypatch, env)
    assert result.status == "unknown" and result.exit_code == 2
    assert any("did not answer within 0.5 s" in m for m in result.messages)


def test_failing_nvidia_smi_is_unknown(monkeypatch):
    result = run_check(monkeypatch, smi_env("clean-8x", NVIDIA_SMI_FAIL="1"))
    assert result.status == "unknown"
    assert any("couldn't communicate with the NVIDIA driver" in m for m in result.messages)


def test_no_tool_at_all_is_unknown_not_clean(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "pynvml", None)  # import pynvml fails
    result = check(env={"PATH": str(tmp_path)})
    assert result.status == "unknown" and result.exit_code == 2
    assert "nvidia-smi is not on PATH" in " ".join(result.messages)


def test_wait_polls_until_memory_is_freed(monkeypatch, tmp_path):
    env = smi_env("busy-gpu3", "busy-gpu3", "clean-8x", state=str(tmp_path / "calls"))
    now = [0.0]
    progress = []
    result = run_check(
        monkeypatch,
        env,
        wait_s=30,
        sleep=lambda s: now.__setitem__(0, now[0] + s),
        clock=lambda: now[0],
        on_progress=lambda r, left: progress.append(left),
    )
    assert result.status == "clean"
    assert progress == [30, 28] and result.waited_s == 4


def test_wait_gives_up_when_time_runs_out(monkeypatch, tmp_path):
    env = smi_env("busy-gpu3", state=str(tmp_path / "calls"))
    now = [0.0]
    result = run_check(
        monkeypatch, env, wait_s=5, sleep=lambda s: now.__setitem__(0, now[0] + s), clock=lambda: now[0]
    )
    assert result.status == "busy" and result.waited_s == 5


def test_kill_command_names_only_local_pids(monkeypatch, tmp_path):
    proc = tmp_path / "proc"
    (proc / "1843211").mkdir(parents=True)
    (proc / "1843211" / "comm").write_text("python3\n")
    env = smi_env("busy-gpu3", SPECLINT_PROC_ROOT=str(proc))
    result = run_check(monkeypatch, env)
    assert result.kill_command == "kill 1843211"
    text = render_text(result)
    assert "kill 1843211" in text
    for forbidden in ("pkill", "fuser", "killall"):
        assert forbidden not in text
    # the same pid running another program here is someone else's process
    (proc / "1843211" / "comm").write_text("postgres\n")
    result = run_check(monkeypatch, env)
    assert result.kill_command is None
    assert any("1843211 is not visible here" in m for m in result.messages)


def test_kill_command_for_a_whole_server(monkeypatch, tmp_path):
    proc = tmp_path / "proc"
    for i in range(8):
        (proc / str(1843200 + i)).mkdir(parents=True)
        (proc / str(1843200 + i) / "comm").write_text("sglang::schedul\n")  # 15 characters
    result = run_check(monkeypatch, smi_env("busy-all-sglang", SPECLINT_PROC_ROOT=str(proc)), needed=2)
    assert len(result.busy_gpus) == 2
    assert result.kill_command == "kill 1843200 1843201"


def test_process_name_with_commas_is_kept():
    [(uuid, process)] = parse_apps("GPU-1, 42, python3 -c x,y, 12\n")
    assert (uuid, process.pid, process.name, process.used_mib) == ("GPU-1", 42, "python3 -c x,y", 12)


# --- CUDA_VISIBLE_DEVICES mapping ------------------------------------------------------------

GPUS = [PhysicalGpu(i, u, 0, 97887) for i, u in enumerate(UUIDS)]


@pytest.mark.parametrize(
    "value, indices",
    [
        (None, list(range(8))),
        ("", []),
        ("3,1", [3, 1]),
        (UUIDS[6], [6]),
        ("GPU-5e6f,GPU-0b6c", [5, 0]),
        ("0,GPU-ffff,1", [0]),
        ("0,8,1", [0]),
        ("1,1,2", [1]),
        (f"MIG-{UUIDS[2]}/1/0", [2]),
    ],
)
def test_visible_devices(value, indices):
    assert [g.index for g in resolve_visible(value, GPUS).gpus] == indices


def test_ambiguous_uuid_prefix_hides_the_rest():
    gpus = [PhysicalGpu(0, "GPU-aaaa-1", 0, 1), PhysicalGpu(1, "GPU-aaaa-2", 0, 1)]
    visible = resolve_visible("GPU-aaaa,1", gpus)
    assert visible.gpus == [] and "ambiguous" in visible.notes[0]


def test_mig_uuid_cannot_be_mapped():
    assert resolve_visible("MIG-0123-4567", GPUS).unknown


def test_mixed_gpus_without_pci_bus_order_checks_every_gpu(monkeypatch):
    gpus = [PhysicalGpu(0, "GPU-a", 0, 97887), PhysicalGpu(1, "GPU-b", 9000, 24576)]
    # CUDA's device 0 may be nvidia-smi's GPU 1 (fastest first): both are checked
    visible = resolve_visible("0", gpus)
    assert visible.order_ambiguous
    assert [(o, g.index) for o, g in pick(visible, [0])[0]] == [(None, 0), (None, 1)]
    assert resolve_visible("0", gpus, device_order="PCI_BUS_ID").order_ambiguous is False
    assert resolve_visible("GPU-b", gpus).order_ambiguous is False


# --- NVML backend (a fake pynvml module) -------------------------------------------------------


class FakeNVMLError(Exception):
    def __init__(self, value):
        super().__init__(f"NVML error {value}")
        self.value = value


def fake_pynvml(
    used_mib: list[int],
    processes: dict[int, list[tuple[int, int | None]]],
    init_error: int | None = None,
    names: dict[int, str] | None = None,
):
    """A stand-in for nvidia-ml-py: NVML enumerates GPUs in its own (here: reversed) order."""
    module = types.ModuleType("pynvml")
    module.NVMLError = FakeNVMLError
    module.nvmlMemory_v2 = object()
    order = list(reversed(range(len(used_mib))))
    calls = []

    def init():
        calls.append("init")
        if init_error is not None:
            raise FakeNVMLError(init_error)

    module.nvmlInit = init
    module.nvmlShutdown = lambda: calls.append("shutdown")
    module.nvmlSystemGetDriverVersion = lambda: b"580.65.06"
    module.nvmlDeviceGetCount = lambda: len(used_mib)
    module.nvmlDeviceGetHandleByIndex = lambda i: ("handle", order[i])
    module.nvmlDeviceGetUUID = lambda h: UUIDS[h[1]].encode()

    def memory(handle, version=None):
        assert version is module.nvmlMemory_v2
        mib = 1024 * 1024
        return types.SimpleNamespace(
            total=97887 * mib, used=used_mib[handle[1]] * mib, free=(97887 - used_mib[handle[1]]) * mib
        )

    module.nvmlDeviceGetMemoryInfo = memory
    module.nvmlDeviceGetComputeRunningProcesses = lambda h: [
        types.SimpleNamespace(pid=pid, usedGpuMemory=None if used is None else used * 1024 * 1024)
        for pid, used in processes.get(h[1], [])
    ]

    def name(pid):
        if names and pid in names:
            return names[pid].encode()
        raise FakeNVMLError(3)

    module.nvmlSystemGetProcessName = name
    module.calls = calls
    return module


def test_nvml_matches_gpus_by_uuid_not_enumeration_order(monkeypatch):
    module = fake_pynvml([0, 0, 0, 71234, 0, 0, 0, 0], {3: [(1843211, 71230)]}, names={1843211: "python3"})
    monkeypatch.setitem(sys.modules, "pynvml", module)
    result = check(env={"CUDA_VISIBLE_DEVICES": f"{UUIDS[3]},{UUIDS[0]}", "PATH": ""})
    assert result.backend == "nvml" and result.status == "busy"
    assert [(g.cuda_ordinal, g.uuid) for g in result.gpus] == [(0, UUIDS[3]), (1, UUIDS[0])]
    [busy] = result.busy_gpus
    assert busy.processes[0].name == "python3" and busy.processes[0].used_mib == 71230
    assert module.calls == ["init", "shutdown"]


def test_nvml_clean_and_unreported_process_memory(monkeypatch):
    monkeypatch.setitem(sys.modules, "pynvml", fake_pynvml([0] * 8, {}))
    assert check(env={"PATH": ""}).status == "clean"
    monkeypatch.setitem(sys.modules, "pynvml", fake_pynvml([3] * 8, {2: [(77, None)]}))
    result = check(env={"PATH": ""})
    assert result.status == "busy"
    assert result.busy_gpus[0].processes[0].used_mib is None
    assert result.busy_gpus[0].processes[0].name is None


def test_no_driver_library_falls_back_to_nvidia_smi(monkeypatch):
    monkeypatch.setitem(sys.modules, "pynvml", fake_pynvml([0] * 8, {}, init_error=12))
    env = smi_env("busy-gpu3")
    env.pop("SPECLINT_GPU_BACKEND")
    result = run_check(monkeypatch, env)
    assert result.backend == "nvidia-smi" and result.status == "busy"
    assert any("libnvidia-ml.so was not found; trying nvidia-smi" in m for m in result.messages)


def test_nvml_only_backend_without_driver_is_unknown(monkeypatch):
    monkeypatch.setitem(sys.modules, "pynvml", fake_pynvml([0] * 8, {}, init_error=9))
    result = check(env={"PATH": ""}, backend="nvml")
    assert result.status == "unknown" and "driver is not loaded" in result.messages[-1]


def test_nvml_lost_gpu_is_unknown(monkeypatch):
    module = fake_pynvml([0] * 8, {})

    def lost(handle, version=None):
        if handle[1] == 1:
            raise FakeNVMLError(15)
        return types.SimpleNamespace(total=1, used=0, free=1)

    module.nvmlDeviceGetMemoryInfo = lost
    monkeypatch.setitem(sys.modules, "pynvml", module)
    result = check(env={"PATH": ""})
    assert result.status == "unknown"
    assert [g.uuid for g in result.gpus if g.clean is None] == [UUIDS[1]]


def test_json_result_is_typed(monkeypatch):
    monkeypatch.setitem(sys.modules, "pynvml", fake_pynvml([0] * 8, {}))
    data = check(env={"PATH": ""}, needed=[0, 1]).to_dict()
    assert data["status"] == "clean" and data["exit_code"] == 0 and data["needed"] == 2
    assert set(data["gpus"][0]) >= {
        "index",
        "uuid",
        "cuda_ordinal",
        "used_mib",
        "total_mib",
        "processes",
        "clean",
    }


def test_the_visible_gpu_becomes_the_profile_explain_resolves_for():
    from speclint.preflight.profile import visible_profile

    module = fake_pynvml([0, 0], {})
    module.nvmlDeviceGetName = lambda h: b"NVIDIA H20"
    module.nvmlDeviceGetCudaComputeCapability = lambda h: (9, 0)
    gpu = visible_profile({"CUDA_VISIBLE_DEVICES": "1"}, module)
    assert (gpu.name, gpu.memory_mib, gpu.capability, gpu.count) == ("NVIDIA H20", 97887, (9, 0), 2)
    assert visible_profile({"CUDA_VISIBLE_DEVICES": "7"}, module) is None  # not present
    assert visible_profile({}, fake_pynvml([0], {}, init_error=9)) is None  # no driver
    by_uuid = visible_profile({"CUDA_VISIBLE_DEVICES": UUIDS[1][:12]}, module)  # a UUID prefix
    assert by_uuid is not None and by_uuid.name == "NVIDIA H20"
    assert visible_profile({"CUDA_VISIBLE_DEVICES": "GPU-ffffffff"}, module) is None  # no such GPU
