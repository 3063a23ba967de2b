"""Run launch commands through the REAL SGLang 0.5.23 argument resolution (test oracle).

    from oracle_harness import run_oracle, model
    [res] = run_oracle([{"argv": ["--model-path", model("llama-3.1-8b-instruct")], "gpu": "H100"}])
    res["effective"]["attention_backend"]      # 'fa3'

``run_oracle`` makes sure the cached virtualenv exists (``tools/oracle/setup_env.py``;
the test is skipped when that fails for lack of network), then runs
``tools/oracle/resolve_cases.py`` in it once for the whole batch and returns its JSON
(one dict per case: ok, stage, error_type, error, effective, raw, declared, logs).
A plain helper module, not a test file.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ORACLE_DIR = os.path.join(ROOT, "tools", "oracle")
MODELS_DIR = os.path.join(ROOT, "fixtures", "models")
RESOLVER = os.path.join(ORACLE_DIR, "resolve_cases.py")

_python: str | None = None


def model(name: str) -> str:
    """Absolute path of a model-config fixture folder (fixtures/models/NAME)."""
    path = os.path.join(MODELS_DIR, name)
    if not os.path.isfile(os.path.join(path, "config.json")):
        raise FileNotFoundError(f"no fixture {path}/config.json")
    return path


def _skip(msg: str):
    import pytest

    pytest.skip(msg)


def oracle_python() -> str:
    """Python of the oracle venv, installing it on first use (skips without network)."""
    global _python
    if _python is not None:
        return _python
    sys.path.insert(0, ORACLE_DIR)
    try:
        import setup_env
    finally:
        sys.path.remove(ORACLE_DIR)
    try:
        _python = setup_env.ensure()
    except setup_env.NetworkError as e:
        _skip(f"SGLang oracle unavailable (no network for pip): {str(e)[-500:]}")
    return _python


def run_oracle(cases: list[dict], timeout: float = 900) -> list[dict]:
    """Resolve every case with the real SGLang, in one process. See module docstring."""
    py = oracle_python()
    with tempfile.TemporaryDirectory(prefix="speclint-oracle-") as tmp:
        src = os.path.join(tmp, "cases.json")
        dst = os.path.join(tmp, "results.json")
        with open(src, "w") as f:
            json.dump(cases, f)
        env = dict(os.environ, HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")
        env.pop("PYTHONPATH", None)
        proc = subprocess.run(
            [py, RESOLVER, src, "-o", dst, "--quiet"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        if proc.returncode != 0 or not os.path.exists(dst):
            raise RuntimeError(f"resolve_cases.py failed ({proc.returncode}):\n{proc.stderr[-6000:]}")
        with open(dst) as f:
            results = json.load(f)
    if len(results) != len(cases):
        raise RuntimeError(f"{len(cases)} cases but {len(results)} results")
    return results


def handlers(result: dict) -> list[str]:
    """Names of the handlers that declared values, in order (duplicates kept)."""
    return [name for name, _fields in result["declared"]]


def declared_by(result: dict, field: str) -> list[tuple[str, object]]:
    """(handler, value) for every declaration of ``field``, in order."""
    return [(name, fields[field]) for name, fields in result["declared"] if field in fields]


if __name__ == "__main__":  # python tests/oracle_harness.py CASES.json
    with open(sys.argv[1]) as f:
        print(json.dumps(run_oracle(json.load(f)), indent=1))
