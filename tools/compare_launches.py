"""Generated launches for tools/compare_outputs.py: seeded, deterministic, written as files.

The draws come from the oracle's generators (``tools/oracle/battery.py::draws`` and
``tests/oracle_wide.py::make_launch``), which import nothing of speclint, so the same
launches can be linted by any checkout whatever its package layout. On top of them this
module varies how a launch is written (entry point, ``--flag=value``, an environment
prefix, a model that is not on disk, a misspelt flag) and groups them into batch files,
each checked against one SGLang release and explained with one GPU profile.
"""

from __future__ import annotations

import os
import random
import shlex
import shutil
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)

# Releases the batches are checked against (None: the default, the newest supported one).
VERSIONS = (
    None,
    "0.5.23",
    "0.5.10.post1",
    "0.5.6.post2",
    "0.5.2",
    "0.4.10",
    "0.4.6",
    "0.4.0",
    "0.5.14",
    "0.5.18",
)
GPUS = (None, "h100", "b200", "a100", "mi300x")
ENTRIES = ("python -m sglang.launch_server", "python3 -m sglang.launch_server", "sglang serve")
TYPOS = ("--tp-szie", "--speculative-num-step", "--mem-fraction", "--enable-dp-attn")


@dataclass
class Batch:
    """One generated file: its launches, the release to check against, the GPU to explain on."""

    index: int
    name: str
    text: str
    version: str | None
    gpu: str | None
    count: int


def _import_generators() -> tuple[Callable[..., Any], Callable[..., Any]]:
    """battery.draws and oracle_wide.make_launch, from this repository's tools/ and tests/."""
    for folder in (os.path.join(HERE, "oracle"), os.path.join(REPO, "tests")):
        if folder not in sys.path:
            sys.path.insert(0, folder)
    # plain generator modules: they import nothing of speclint
    from battery import draws  # type: ignore[import-not-found]
    from oracle_wide import make_launch  # type: ignore[import-not-found]

    return draws, make_launch


def _argv_of_draw(launch: list[tuple[str, str | None]]) -> list[str]:
    argv: list[str] = []
    for flag, value in launch:
        argv.append(flag)
        if value is not None:
            argv.append(value)
    return argv


def _relocate(argv: list[str], models: str) -> list[str]:
    """Model paths of the fixtures (relative or absolute) -> the copy under `models`."""
    src_abs = os.path.join(REPO, "fixtures", "models")
    out = []
    for word in argv:
        if word.startswith(src_abs + os.sep):
            word = os.path.join(models, word[len(src_abs) + 1 :])
        elif word.startswith("fixtures/models/"):
            word = os.path.join(models, word[len("fixtures/models/") :])
        out.append(word)
    return out


def _vary(rng: random.Random, argv: list[str], env: dict[str, str]) -> str:
    """One launch line: the same request written one of the ways READMEs write it."""
    argv = list(argv)
    if rng.random() < 0.1:  # a model that is not on disk (drafter checks skipped)
        for i, word in enumerate(argv[:-1]):
            if word == "--model-path":
                argv[i + 1] = rng.choice(("/models/absent", "meta-llama/Llama-3.1-8B-Instruct"))
    if rng.random() < 0.1:  # --flag=value
        words: list[str] = []
        i = 0
        while i < len(argv):
            if (
                argv[i].startswith("--")
                and i + 1 < len(argv)
                and not argv[i + 1].startswith("--")
                and rng.random() < 0.5
            ):
                words.append(f"{argv[i]}={argv[i + 1]}")
                i += 2
            else:
                words.append(argv[i])
                i += 1
        argv = words
    if rng.random() < 0.05:
        argv.insert(rng.randrange(len(argv) + 1), rng.choice(TYPOS))
    if rng.random() < 0.05 and len(argv) > 2:  # a duplicated flag
        argv += argv[:2]
    env = dict(env)
    if rng.random() < 0.05:
        env["CUDA_VISIBLE_DEVICES"] = rng.choice(("0", "0,1", "0,1,2,3"))
    prefix = "".join(f"{k}={shlex.quote(v)} " for k, v in sorted(env.items()))
    entry = rng.choice(ENTRIES)
    line = " ".join(shlex.quote(w) for w in argv)
    if rng.random() < 0.2:  # continuation lines, as in docs
        line = line.replace(" --", " \\\n    --")
    return f"{prefix}{entry} {line}\n"


def generate(n: int, seed: int, per_file: int, models: str) -> list[Batch]:
    """`n` launches in batches of `per_file`; `models` is where the model configs were copied."""
    draws, make_launch = _import_generators()
    rng = random.Random(seed)
    wide_rng = random.Random(seed + 1)
    pool = draws(seed, max(1, n // 2))
    lines: list[str] = []
    for i in range(n):
        if i % 2 == 0 and pool:
            launch, _gpu, env = pool[(i // 2) % len(pool)]
            argv = _argv_of_draw(launch)
        else:
            argv, env = make_launch(wide_rng)
        lines.append(_vary(rng, _relocate(argv, models), env))
    batches = []
    for b, start in enumerate(range(0, n, per_file)):
        chunk = lines[start : start + per_file]
        batches.append(
            Batch(
                index=b,
                name=f"gen_{b:03d}.sh",
                text="#!/bin/sh\n" + "".join(chunk),
                version=VERSIONS[b % len(VERSIONS)],
                gpu=GPUS[b % len(GPUS)],
                count=len(chunk),
            )
        )
    return batches


def write(batches: list[Batch], folder: str) -> None:
    os.makedirs(folder, exist_ok=True)
    for batch in batches:
        with open(os.path.join(folder, batch.name), "w", encoding="utf-8") as f:
            f.write(batch.text)


def copy_models(dest: str) -> None:
    """The fixture model configs (config.json, safetensors headers) into `dest`."""
    shutil.copytree(os.path.join(REPO, "fixtures", "models"), dest)
