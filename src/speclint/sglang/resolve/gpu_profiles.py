"""GPU profiles: the hardware facts SGLang's resolution reads (vendor, memory, compute
capability or ROCm arch), for `speclint explain --gpu NAME` and `[tool.speclint] gpu`.

These are hardware data, not SGLang facts: memory is what the driver reports as the
device's total memory (nvidia-smi `memory.total`, MiB; SGLang's
`get_nvgpu_memory_capacity` reads the same number), compute capability is CUDA's.
`speclint run` and the plugin build a profile from what NVML reports instead.
"""

from __future__ import annotations

import re

from speclint.core.records import dataclass


@dataclass(frozen=True, slots=True)
class GpuProfile:
    """What SGLang's GPU-dependent defaults read of one GPU model."""

    key: str
    """The name `--gpu` takes (lower case)."""
    name: str
    """The device name the driver reports."""
    vendor: str
    """"nvidia" (CUDA) or "amd" (ROCm/HIP)."""
    memory_mib: int
    capability: tuple[int, int] | None = None
    """CUDA compute capability (NVIDIA); None for AMD."""
    arch: str | None = None
    """ROCm gfx architecture (AMD); None for NVIDIA."""
    count: int = 8
    """GPUs per node (`--gpus N`)."""

    @property
    def sm(self) -> int | None:
        return self.capability[0] * 10 + self.capability[1] if self.capability else None

    def describe(self) -> str:
        chip = (
            f"compute capability {self.capability[0]}.{self.capability[1]}"
            if self.capability
            else f"{self.arch}"
        )
        return f"{self.count}× {self.name} ({self.vendor.upper()}, {self.memory_mib} MiB, {chip})"


PROFILES: dict[str, GpuProfile] = {
    p.key: p
    for p in (
        GpuProfile("h100", "NVIDIA H100 80GB HBM3", "nvidia", 81559, (9, 0)),
        GpuProfile("h800", "NVIDIA H800", "nvidia", 81559, (9, 0)),
        GpuProfile("h200", "NVIDIA H200", "nvidia", 143771, (9, 0)),
        GpuProfile("h20", "NVIDIA H20", "nvidia", 97871, (9, 0)),
        GpuProfile("b200", "NVIDIA B200", "nvidia", 183359, (10, 0)),
        GpuProfile("gb200", "NVIDIA GB200", "nvidia", 189471, (10, 0)),
        GpuProfile("a100", "NVIDIA A100-SXM4-80GB", "nvidia", 81920, (8, 0)),
        GpuProfile("a100-40g", "NVIDIA A100-SXM4-40GB", "nvidia", 40960, (8, 0)),
        GpuProfile("l40s", "NVIDIA L40S", "nvidia", 46068, (8, 9)),
        GpuProfile("rtx6000-ada", "NVIDIA RTX 6000 Ada Generation", "nvidia", 49140, (8, 9)),
        GpuProfile("rtx5090", "NVIDIA GeForce RTX 5090", "nvidia", 32607, (12, 0)),
        GpuProfile("mi300x", "AMD Instinct MI300X", "amd", 196592, arch="gfx942"),
        GpuProfile("mi355x", "AMD Instinct MI355X", "amd", 294896, arch="gfx950"),
    )
}

_ALIASES = {
    "rtx-6000-ada": "rtx6000-ada",
    "rtx6000ada": "rtx6000-ada",
    "a100-80g": "a100",
    "h100-80g": "h100",
    "a100-80gb": "a100",
    "a100-40gb": "a100-40g",
}


def _key(name: str) -> str:
    return re.sub(r"[\s_]+", "-", name.strip().lower())


def profile(name: str, count: int | None = None) -> GpuProfile | None:
    """The profile `--gpu NAME` means (case and spaces ignored), with `count` GPUs."""
    key = _key(name)
    found = PROFILES.get(_ALIASES.get(key, key)) or PROFILES.get(key.replace("-", ""))
    if found is None:
        return None
    if count is None:
        return found
    return GpuProfile(
        found.key, found.name, found.vendor, found.memory_mib, found.capability, found.arch, count
    )


def profile_names() -> list[str]:
    return list(PROFILES)


def from_device(name: str, memory_mib: int, capability: tuple[int, int] | None, count: int) -> GpuProfile:
    """A profile for a GPU the driver reports (NVML: name, total memory, compute capability)."""
    return GpuProfile(_key(name), name, "nvidia", memory_mib, capability, None, count)


def parse_gpu_setting(text: str, count: int | None = None) -> GpuProfile | None:
    """`h100`, `H100`, `8xh100` / `8×H100` (a count first); None when no profile matches."""
    match = re.fullmatch(r"\s*(?:(\d+)\s*[x×*]\s*)?(.+?)\s*", text, re.IGNORECASE)
    if match is None:
        return None
    written = int(match.group(1)) if match.group(1) else None
    if written is not None and written < 1:
        return None
    return profile(match.group(2), count if count is not None else written)
