"""The attention backend --enable-deterministic-inference falls back to when none is given,
per modelled SGLang release: (Blackwell DeepSeek-family models, other Blackwell models, every
other GPU), empty where the release has no fallback or picks the GPU's default backend
first; whether `_handle_multi_item_scoring` (--enable-mis) runs after it; and what
--rl-on-policy-target sets (handler, (field, value) pairs, the warning it logs). Generated
by tools/gen_deterministic_facts.py from each release's wheel; do not edit."""

from __future__ import annotations

DETERMINISTIC_FALLBACK: dict[str, tuple[str, ...]] = {
    "0.4.0": (),
    "0.4.1": (),
    "0.4.6": (),
    "0.4.6.post5": (),
    "0.4.7": (),
    "0.4.7.post1": (),
    "0.4.8": (),
    "0.4.8.post1": (),
    "0.4.9": (),
    "0.4.9.post1": (),
    "0.4.9.post2": (),
    "0.4.9.post3": (),
    "0.4.9.post4": (),
    "0.4.9.post5": (),
    "0.4.9.post6": (),
    "0.4.10": (),
    "0.4.10.post2": (),
    "0.5.1": (),
    "0.5.1.post1": (),
    "0.5.1.post2": (),
    "0.5.1.post3": (),
    "0.5.2": (),
    "0.5.3": (),
    "0.5.3.post3": (),
    "0.5.4.post3": (),
    "0.5.5": (),
    "0.5.5.post1": (),
    "0.5.5.post2": (),
    "0.5.5.post3": (),
    "0.5.6": (),
    "0.5.6.post1": (),
    "0.5.6.post2": (),
    "0.5.7": (),
    "0.5.8": (),
    "0.5.8.post1": (),
    "0.5.9": (),
    "0.5.10": (),
    "0.5.10.post1": (),
    "0.5.11": (),
    "0.5.12": ("triton", "flashinfer", "fa3"),
    "0.5.12.post1": ("triton", "flashinfer", "fa3"),
    "0.5.13": ("triton", "flashinfer", "fa3"),
    "0.5.13.post1": ("triton", "flashinfer", "fa3"),
    "0.5.14": ("triton", "flashinfer", "fa3"),
    "0.5.15": ("triton", "flashinfer", "fa3"),
    "0.5.15.post1": ("triton", "flashinfer", "fa3"),
    "0.5.16": ("triton", "flashinfer", "fa3"),
    "0.5.17": ("triton", "flashinfer", "fa3"),
    "0.5.18": ("triton", "flashinfer", "fa3"),
    "0.5.19": ("triton", "flashinfer", "fa3"),
    "0.5.20": ("triton", "flashinfer", "fa3"),
    "0.5.21": ("triton", "flashinfer", "fa3"),
    "0.5.22": ("triton", "flashinfer", "fa3"),
    "0.5.23": ("triton", "flashinfer", "fa3"),
}

MIS_SEES_FALLBACK: frozenset[str] = frozenset(
    (
        "0.5.12",
        "0.5.12.post1",
        "0.5.13",
        "0.5.13.post1",
        "0.5.14",
        "0.5.15",
        "0.5.15.post1",
        "0.5.16",
        "0.5.17",
        "0.5.18",
        "0.5.19",
        "0.5.20",
        "0.5.21",
        "0.5.22",
        "0.5.23",
    )
)

RL_ON_POLICY: dict[str, tuple[str, tuple[tuple[str, object], ...], str | None]] = {
    "0.5.4.post3": (
        "_handle_deterministic_inference",
        (("enable_deterministic_inference", True),),
        "Enable deterministic inference because of rl_on_policy_target.",
    ),
    "0.5.5": (
        "_handle_deterministic_inference",
        (("enable_deterministic_inference", True),),
        "Enable deterministic inference because of rl_on_policy_target.",
    ),
    "0.5.5.post1": (
        "_handle_deterministic_inference",
        (("enable_deterministic_inference", True),),
        "Enable deterministic inference because of rl_on_policy_target.",
    ),
    "0.5.5.post2": (
        "_handle_deterministic_inference",
        (("enable_deterministic_inference", True),),
        "Enable deterministic inference because of rl_on_policy_target.",
    ),
    "0.5.5.post3": (
        "_handle_deterministic_inference",
        (("enable_deterministic_inference", True),),
        "Enable deterministic inference because of rl_on_policy_target.",
    ),
    "0.5.6": (
        "_handle_deterministic_inference",
        (("enable_deterministic_inference", True),),
        "Enable deterministic inference because of rl_on_policy_target.",
    ),
    "0.5.6.post1": (
        "_handle_deterministic_inference",
        (("enable_deterministic_inference", True),),
        "Enable deterministic inference because of rl_on_policy_target.",
    ),
    "0.5.6.post2": (
        "_handle_deterministic_inference",
        (("enable_deterministic_inference", True),),
        "Enable deterministic inference because of rl_on_policy_target.",
    ),
    "0.5.7": (
        "_handle_deterministic_inference",
        (("enable_deterministic_inference", True),),
        "Enable deterministic inference because of rl_on_policy_target.",
    ),
    "0.5.8": (
        "_handle_deterministic_inference",
        (("enable_deterministic_inference", True),),
        "Enable deterministic inference because of rl_on_policy_target.",
    ),
    "0.5.8.post1": (
        "_handle_deterministic_inference",
        (("enable_deterministic_inference", True),),
        "Enable deterministic inference because of rl_on_policy_target.",
    ),
    "0.5.9": (
        "_handle_deterministic_inference",
        (("enable_deterministic_inference", True),),
        "Enable deterministic inference because of rl_on_policy_target.",
    ),
    "0.5.10": (
        "_handle_deterministic_inference",
        (("enable_deterministic_inference", True),),
        "Enable deterministic inference because of rl_on_policy_target.",
    ),
    "0.5.10.post1": (
        "_handle_deterministic_inference",
        (("enable_deterministic_inference", True),),
        "Enable deterministic inference because of rl_on_policy_target.",
    ),
    "0.5.11": (
        "_handle_deterministic_inference",
        (("enable_deterministic_inference", True),),
        "Enable deterministic inference because of rl_on_policy_target.",
    ),
    "0.5.12": (
        "_handle_deterministic_inference",
        (("enable_deterministic_inference", True),),
        "Enable deterministic inference because of rl_on_policy_target.",
    ),
    "0.5.12.post1": (
        "_handle_deterministic_inference",
        (("enable_deterministic_inference", True),),
        "Enable deterministic inference because of rl_on_policy_target.",
    ),
    "0.5.13": (
        "_handle_deterministic_inference",
        (("enable_deterministic_inference", True),),
        "Enable deterministic inference because of rl_on_policy_target.",
    ),
    "0.5.13.post1": (
        "_handle_deterministic_inference",
        (("enable_deterministic_inference", True),),
        "Enable deterministic inference because of rl_on_policy_target.",
    ),
    "0.5.14": (
        "_handle_deterministic_inference",
        (("enable_deterministic_inference", True),),
        "Enable deterministic inference because of rl_on_policy_target.",
    ),
    "0.5.15": (
        "_handle_deterministic_inference",
        (("enable_deterministic_inference", True),),
        "Enable deterministic inference because of rl_on_policy_target.",
    ),
    "0.5.15.post1": (
        "_handle_deterministic_inference",
        (("enable_deterministic_inference", True),),
        "Enable deterministic inference because of rl_on_policy_target.",
    ),
    "0.5.16": (
        "_handle_deterministic_inference",
        (("enable_deterministic_inference", True),),
        "Enable deterministic inference because of rl_on_policy_target.",
    ),
    "0.5.17": (
        "_handle_deterministic_inference",
        (("enable_deterministic_inference", True),),
        "Enable deterministic inference because of rl_on_policy_target.",
    ),
    "0.5.18": (
        "_handle_deterministic_inference",
        (("enable_deterministic_inference", True),),
        "Enable deterministic inference because of rl_on_policy_target.",
    ),
    "0.5.19": (
        "_handle_deterministic_inference",
        (("enable_deterministic_inference", True),),
        "Enable deterministic inference because of rl_on_policy_target.",
    ),
    "0.5.20": (
        "_handle_deterministic_inference",
        (("enable_deterministic_inference", True),),
        "Enable deterministic inference because of rl_on_policy_target.",
    ),
    "0.5.21": (
        "_handle_deterministic_inference",
        (("enable_deterministic_inference", True),),
        "Enable deterministic inference because of rl_on_policy_target.",
    ),
    "0.5.22": (
        "_handle_deterministic_inference",
        (("enable_deterministic_inference", True),),
        "Enable deterministic inference because of rl_on_policy_target.",
    ),
    "0.5.23": (
        "_handle_deterministic_inference",
        (("enable_deterministic_inference", True),),
        "Enable deterministic inference because of rl_on_policy_target.",
    ),
}
