"""The pairs an SGLang release's `override_quantization_method` hooks rewrite, as
tools/gen_sglang_model_config.py stores them (`quantization_overrides`): every user method
against every checkpoint method the hooks compare with, each hook run by
tools/sglang_quant_hooks.py."""

from __future__ import annotations

from sglang_quant_hooks import OTHER, Hooks
from sglang_quant_values import SENTINEL, Cfg


def overrides_reading(hooks: Hooks, users: list[str]) -> dict[str, object]:
    """{"methods": the checkpoint methods the hooks compare with, "users": user method ->
    {"override": [checkpoint methods], "maybe": {checkpoint method: {"keys": the other keys of
    its quantization_config the hooks read, "absent": the answer when none of them is there,
    and "unread": the statements not read that the pair reaches, where there are}}, "raise":
    {checkpoint method: the raising statements of hooks that never rewrite the pair but may
    raise on it, no hook answering a value}}}, for every
    user method named in `users` or compared with by a hook; `OTHER` stands for every method
    (user or checkpoint) not listed."""
    reading: dict[str, dict[str, object]] = {}
    for user in [SENTINEL + "user", *users]:  # first: the methods the hooks compare with
        for name in hooks.hook_classes():
            hooks.outcome(name, SENTINEL + "method", user)
    for user in sorted(hooks.literals):  # and those compared once a user method is named
        for name in hooks.hook_classes():
            hooks.outcome(name, SENTINEL + "method", user)
    methods = sorted(hooks.literals | {OTHER})
    for user in sorted(set(users) | hooks.literals | {OTHER}):
        found: dict[str, object] = {}
        asked = SENTINEL + "user" if user == OTHER else user
        for method in methods:
            given = SENTINEL + "method" if method == OTHER else method
            keys: set[str] = set()
            unread: set[str] = set()
            raises: set[str] = set()
            outcomes = set()
            for name in hooks.hook_classes():
                cfg = Cfg(given)
                outcome = hooks.outcome(name, cfg, asked)
                outcomes.add(outcome)
                if outcome == "maybe":
                    keys |= cfg.keys  # the keys a hook that may rewrite the pair reads
                    unread |= hooks.unread
                raises |= hooks.raises if outcome == "raise" else set()
            kind = _kind(outcomes)
            if kind == "raise":
                raising = found.setdefault("raise", {})
                assert isinstance(raising, dict)
                raising[method] = sorted(raises)
            elif kind == "override":
                overridden = found.setdefault("override", [])
                assert isinstance(overridden, list)
                overridden.append(method)
            elif kind == "maybe":
                bare = Cfg(given, absent=True)
                absent = _kind({hooks.outcome(name, bare, asked) for name in hooks.hook_classes()})
                doubts = found.setdefault("maybe", {})
                assert isinstance(doubts, dict)
                doubt: dict[str, object] = {"absent": absent, "keys": sorted(keys)}
                if unread:
                    doubt["unread"] = sorted(unread)
                doubts[method] = doubt
        reading[user] = found
    return {"methods": [m for m in methods if m != OTHER], "users": reading}


def _kind(outcomes: set[str]) -> str:
    """A hook that may raise where none rewrites the pair: refused on every branch ("raise")."""
    for kind in ("override", "maybe", "raise"):
        if kind in outcomes:
            return kind
    return "none"
