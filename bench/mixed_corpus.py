"""A mixed corpus of launch files like a real repository's, for `bench_mixed.py`.

    python bench/mixed_corpus.py DIR [--files 1000]

Every launch reads model configs from disk: the corpus has its own `models/` (config.json
files copied from fixtures/models: targets and their EAGLE/EAGLE-3 drafters) and a
`speclint.toml` mapping the `/models/...` paths that docker launches and docs use onto them.
The mix: shell scripts with variables and arrays (45%), `docker run` scripts (20%), Python
wrappers that build the argv in a list (15%), Markdown with bash fences (20%). Some launches
carry mistakes (a topk-1 draft-token count, a wrong drafter, an abbreviated flag).
"""

from __future__ import annotations

import argparse
import os
import random
import shutil

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PAIRS = [  # (target, drafter, algorithm)
    ("llama-3.1-8b-instruct", "eagle3-llama-3.1-8b-instruct", "EAGLE3"),
    ("llama-3.1-8b-instruct", "eagle-llama-3.1-8b-instruct", "EAGLE"),
    ("llama-3.1-8b-instruct", "eagle3-llama-3.1-8b-instruct", "EAGLE"),  # a mismatch
    ("kimi-k2.5", "eagle3-kimi-k2.5", "EAGLE3"),
    ("qwen3-8b", None, None),
    ("deepseek-v3", None, "NEXTN"),
]
EXTRAS = [
    "",
    " --cuda-graph-max-bs 64",
    " --mem-fraction-static 0.85",
    " --enable-mixed-chunk",
    " --chunked-prefill-size 8192",
    " --trust-remote-code",
    " --context-length 32768",
    " --max-running-requests 64",
    " --speculative-eagle-top-k 2",
]
IMAGES = ["lmsysorg/sglang:v0.5.6.post2", "lmsysorg/sglang:v0.5.3", "lmsysorg/sglang:latest"]

SHELL = """#!/bin/bash
set -euo pipefail
MODEL_DIR={models}/{target}
PORT=${{PORT:-{port}}}
TP={tp}
ARGS=(--model-path "$MODEL_DIR" --tp-size "$TP" --host 0.0.0.0 --port "$PORT")
{spec_array}
export CUDA_VISIBLE_DEVICES={gpus}
nohup python3 -m sglang.launch_server "${{ARGS[@]}}"{spec_use}{extra} > "/tmp/sglang-{i}.log" 2>&1 &
echo "started on $PORT"
"""
SHELL_SPEC = """SPEC=(--speculative-algorithm {algo} --speculative-draft-model-path {models}/{draft}
      --speculative-num-steps {steps} --speculative-eagle-topk {topk}
      --speculative-num-draft-tokens {tokens})"""

DOCKER = """#!/usr/bin/env bash
IMAGE={image}
docker run --gpus all --shm-size 32g --ipc=host -p {port}:30000 \\
  -v "$HOME/models:/models" -e HF_TOKEN="$HF_TOKEN" \\
  "$IMAGE" \\
  python3 -m sglang.launch_server --model-path /models/{target} --tp {tp} \\
    --host 0.0.0.0 --port 30000{spec_flags}{extra}
"""

PYTHON = '''"""Start an SGLang server for {target}."""
import os
import subprocess
import sys

MODEL = "{models}/{target}"
PORT = int(os.environ.get("PORT", "{port}"))


def main() -> None:
    cmd = [sys.executable, "-m", "sglang.launch_server", "--model-path", MODEL,
           "--tp-size", "{tp}", "--port", str(PORT)]
{spec_list}    cmd += {extra_list}
    subprocess.run(cmd, check=True)


if __name__ == "__main__":
    main()
'''

MARKDOWN = """# Serving {target}

Start the server with {how}:

```bash
python -m sglang.launch_server \\
  --model-path /models/{target} \\
  --tp {tp} --port {port}{spec_flags_md}{extra}
```

Then send requests to `http://localhost:{port}/v1/chat/completions`.
"""


def _spec(rng: random.Random, pair) -> dict | None:
    _target, draft, algo = pair
    if algo is None:
        return None
    topk = rng.choice([1, 1, 4])
    steps = rng.choice([1, 3, 5])
    tokens = rng.choice([steps + 1, 8, 16]) if topk == 1 else rng.choice([8, 16])
    return {"algo": algo, "draft": draft, "topk": topk, "steps": steps, "tokens": tokens}


def _flags(spec: dict | None, prefix: str, sep: str) -> str:
    if spec is None:
        return ""
    parts = [f"--speculative-algorithm {spec['algo']}"]
    if spec["draft"]:
        parts.append(f"--speculative-draft-model-path {prefix}/{spec['draft']}")
    parts += [
        f"--speculative-num-steps {spec['steps']}",
        f"--speculative-eagle-topk {spec['topk']}",
        f"--speculative-num-draft-tokens {spec['tokens']}",
    ]
    return "".join(sep + part for part in parts)


def write_corpus(folder: str, count: int, seed: int = 0) -> list[str]:
    """Write `count` launch files (and models/, speclint.toml) under `folder`; their paths."""
    rng = random.Random(seed)
    models = os.path.join(folder, "models")
    for name in {name for pair in PAIRS for name in pair[:2] if name}:
        os.makedirs(os.path.join(models, name), exist_ok=True)
        shutil.copy(
            os.path.join(ROOT, "fixtures", "models", name, "config.json"),
            os.path.join(models, name, "config.json"),
        )
    with open(os.path.join(folder, "speclint.toml"), "w") as handle:
        handle.write(
            "[models]\n"
            + "".join(f'"/models/{name}" = "models/{name}"\n' for name in sorted(os.listdir(models)))
        )
    kinds = ["shell"] * 45 + ["docker"] * 20 + ["python"] * 15 + ["markdown"] * 20
    paths = []
    for i in range(count):
        kind = rng.choice(kinds)
        pair = rng.choice(PAIRS)
        spec = _spec(rng, pair)
        extra = rng.choice(EXTRAS)
        values = {
            "i": i,
            "target": pair[0],
            "tp": rng.choice([1, 2, 4, 8]),
            "port": 30000 + i,
            "models": models,
            "extra": extra,
        }
        sub = os.path.join(folder, f"team{i % 10}", kind)
        os.makedirs(sub, exist_ok=True)
        if kind == "shell":
            spec_array = "" if spec is None else SHELL_SPEC.format(models=models, **spec)
            text = SHELL.format(
                spec_array=spec_array,
                spec_use="" if spec is None else ' "${SPEC[@]}"',
                gpus=rng.choice(["0,1", "0,1,2,3"]),
                **values,
            )
            name = f"serve_{i:05d}.sh"
        elif kind == "docker":
            text = DOCKER.format(
                image=rng.choice(IMAGES), spec_flags=_flags(spec, "/models", " \\\n    "), **values
            )
            name = f"docker_{i:05d}.sh"
        elif kind == "python":
            spec_list = (
                ""
                if spec is None
                else "".join(
                    f'    cmd += ["{flag}", "{value}"]\n'
                    for flag, value in (
                        part.split(" ", 1) for part in _flags(spec, models, "\n").split("\n")[1:]
                    )
                )
            )
            extra_list = repr(extra.split()) if extra else "[]"
            text = PYTHON.format(spec_list=spec_list, extra_list=extra_list, **values)
            name = f"launch_{i:05d}.py"
        else:
            text = MARKDOWN.format(
                how="speculative decoding" if spec else "the defaults",
                spec_flags_md=_flags(spec, "/models", " \\\n  "),
                **values,
            )
            name = f"README_{i:05d}.md"
        path = os.path.join(sub, name)
        with open(path, "w") as handle:
            handle.write(text)
        paths.append(path)
    return paths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder")
    parser.add_argument("--files", type=int, default=1000)
    args = parser.parse_args()
    os.makedirs(args.folder, exist_ok=True)
    print(len(write_corpus(args.folder, args.files)), "files in", args.folder)


if __name__ == "__main__":
    main()
