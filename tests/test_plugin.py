"""The SGLang plugin: acts only in the launching process, hooks prepare_server_args, stops a
launch on error findings or busy GPUs (strict), only logs (warn), never crashes SGLang."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import types

import pytest

from speclint.gate import plugin

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SMI = os.path.join(ROOT, "fixtures", "nvidia-smi")


@pytest.fixture()
def fake_registry(monkeypatch):
    """sglang.srt.plugins.hook_registry as far as the plugin uses it."""
    registered = []
    module = types.ModuleType("sglang.srt.plugins.hook_registry")
    module.HookType = types.SimpleNamespace(AFTER="after", BEFORE="before")
    module.HookRegistry = types.SimpleNamespace(
        register=lambda target, hook, kind: registered.append((target, hook, kind))
    )
    for name in ("sglang", "sglang.srt", "sglang.srt.plugins"):
        monkeypatch.setitem(sys.modules, name, types.ModuleType(name))
    monkeypatch.setitem(sys.modules, "sglang.srt.plugins.hook_registry", module)
    monkeypatch.delenv(plugin.LAUNCHER_VAR, raising=False)
    monkeypatch.delenv(plugin.MODE_VAR, raising=False)
    return registered


def test_registers_the_hook_in_the_launching_process(fake_registry, monkeypatch):
    plugin.register()
    assert fake_registry == [(plugin.HOOK_TARGET, plugin.after_prepare_server_args, "after")]
    assert os.environ[plugin.LAUNCHER_VAR] == str(os.getpid())


def test_not_in_a_multiprocessing_child(fake_registry, monkeypatch):
    import multiprocessing

    monkeypatch.setattr(multiprocessing, "parent_process", lambda: object())
    plugin.register()
    assert fake_registry == []


def test_not_in_a_process_a_launcher_started(fake_registry, monkeypatch):
    monkeypatch.setenv(plugin.LAUNCHER_VAR, "1")  # inherited from another pid
    plugin.register()
    assert fake_registry == []


def test_off_registers_nothing(fake_registry, monkeypatch):
    monkeypatch.setenv(plugin.MODE_VAR, "off")
    plugin.register()
    assert fake_registry == []


def test_registration_failure_is_logged_not_raised(monkeypatch, caplog):
    monkeypatch.delenv(plugin.LAUNCHER_VAR, raising=False)
    monkeypatch.setitem(sys.modules, "sglang.srt.plugins.hook_registry", None)
    with caplog.at_level(logging.WARNING, "speclint.plugin"):
        plugin.register()
    assert "could not register" in caplog.text


def server_args(*argv: str, **fields):
    values = {"tp_size": 1, "pp_size": 1, "nnodes": 1, "device": None}
    values.update(fields)
    return types.SimpleNamespace(_launch_command=list(argv), **values)


@pytest.fixture()
def hook_env(monkeypatch):
    """A fresh hook with the stub nvidia-smi as the GPU layer."""
    monkeypatch.setattr(plugin, "_checked", False)
    monkeypatch.setenv("PATH", SMI + os.pathsep + os.environ["PATH"])
    monkeypatch.setenv("SPECLINT_GPU_BACKEND", "nvidia-smi")
    monkeypatch.setenv("NVIDIA_SMI_FIXTURE", os.path.join(SMI, "clean-8x"))
    for name in (plugin.MODE_VAR, plugin.RUN_CHECKED_VAR, "CUDA_VISIBLE_DEVICES"):
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def test_clean_launch_passes(hook_env, capsys):
    args = server_args("--model-path", "m", "--tp-size", "2", tp_size=2)
    assert plugin.after_prepare_server_args(args, ["--model-path", "m"]) is None
    assert "stopping" not in capsys.readouterr().err


def test_error_finding_stops_in_strict_mode(hook_env, capsys):
    args = server_args("--model-path", "m", "--no-such-flag", "1")
    with pytest.raises(SystemExit) as stop:
        plugin.after_prepare_server_args(args, [])
    assert stop.value.code == 1
    err = capsys.readouterr().err
    assert "speclint: stopping this SGLang launch before it loads the model" in err
    assert "[error]" in err and "SPECLINT_PLUGIN=warn" in err


def test_busy_gpu_stops_and_uses_sglangs_own_sizes(hook_env, capsys):
    hook_env.setenv("NVIDIA_SMI_FIXTURE", os.path.join(SMI, "busy-gpu3"))
    # SGLang parsed tp 4 (e.g. from a --config file the argv does not show)
    args = server_args("--model-path", "m", tp_size=4)
    with pytest.raises(SystemExit):
        plugin.after_prepare_server_args(args, [])
    assert "GPU 3" in capsys.readouterr().err
    hook_env.setattr(plugin, "_checked", False)
    assert plugin.after_prepare_server_args(server_args("--model-path", "m", tp_size=2), []) is None


def test_warn_mode_only_logs(hook_env, caplog):
    hook_env.setenv(plugin.MODE_VAR, "warn")
    hook_env.setenv("NVIDIA_SMI_FIXTURE", os.path.join(SMI, "busy-gpu3"))
    with caplog.at_level(logging.INFO, "speclint.plugin"):
        plugin.after_prepare_server_args(server_args("--model-path", "m", tp_size=8), [])
    assert "BUSY" in caplog.text


def test_internal_error_never_stops_sglang(hook_env, caplog):
    hook_env.setattr(plugin, "check_launch", lambda *a: 1 / 0)
    with caplog.at_level(logging.WARNING, "speclint.plugin"):
        assert plugin.after_prepare_server_args(server_args("--model-path", "m"), []) is None
    assert "internal error" in caplog.text


def test_checks_once_and_skips_what_speclint_run_checked(hook_env, capsys):
    hook_env.setenv(plugin.RUN_CHECKED_VAR, str(os.getpid()))
    args = server_args("--model-path", "m", "--no-such-flag", "1")
    assert plugin.after_prepare_server_args(args, []) is None
    hook_env.delenv(plugin.RUN_CHECKED_VAR)
    assert plugin.after_prepare_server_args(args, []) is None  # already ran once


def test_the_declared_entry_points_name_what_they_load():
    """pyproject's SGLang plugin entry point and console script resolve to the functions an
    install runs (a move that forgets pyproject breaks every fresh install)."""
    import importlib

    if sys.version_info >= (3, 11):
        import tomllib
    else:
        import tomli as tomllib
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as handle:
        project = tomllib.load(handle)["project"]
    targets = {
        "plugin": project["entry-points"]["sglang.srt.plugins"]["speclint"],
        "script": project["scripts"]["speclint"],
    }
    loaded = {}
    for kind, target in targets.items():
        module, _, attribute = target.partition(":")
        loaded[kind] = getattr(importlib.import_module(module), attribute)
    assert loaded["plugin"] is plugin.register
    # `main` run as the program: a recorded run replayed, else speclint.cli's click group
    from speclint.__main__ import command

    assert loaded["script"] is command


def test_plugin_module_imports_nothing_heavy():
    code = (
        "import sys, speclint.gate.plugin; heavy = [m for m in ('speclint.engine', 'pynvml', "
        "'speclint.rules', 'pydantic', 'tree_sitter', 'click') if m in sys.modules]; "
        "print(heavy)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.strip() == "[]", done.stderr


# --- the real SGLang ----------------------------------------------------------------------------


def _sglang_with_plugin(tmp_path):
    """The oracle venv's python, seeing speclint and its entry point through PYTHONPATH: a
    dist-info folder in a temporary directory. Installing into the shared oracle venv would
    load the plugin in every oracle run (resolve_cases.py calls load_plugins())."""
    from oracle_harness import oracle_python

    python = oracle_python()
    site = tmp_path / "site"
    info = site / "speclint-0.1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: speclint\nVersion: 0.1.0\n")
    (info / "entry_points.txt").write_text("[sglang.srt.plugins]\nspeclint = speclint.gate.plugin:register\n")
    return python, os.pathsep.join([str(site), os.path.join(ROOT, "src")])


def _launch(python, pythonpath, args, scenario, timeout=240, **extra):
    env = {
        k: v for k, v in os.environ.items() if not k.startswith(("SPECLINT_", "NVIDIA_SMI_", "CUDA_VISIBLE"))
    }
    env.update(
        PYTHONPATH=pythonpath,
        PATH=SMI + os.pathsep + env.get("PATH", ""),
        NVIDIA_SMI_FIXTURE=os.path.join(SMI, scenario),
        SGLANG_PLUGINS="speclint",
        **extra,
    )
    return subprocess.run(
        [python, "-m", "sglang.launch_server", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
        cwd=ROOT,
    )


@pytest.mark.oracle
def test_plugin_stops_a_real_sglang_launch_before_the_model_loads(tmp_path):
    from oracle_harness import model

    python, pythonpath = _sglang_with_plugin(tmp_path)
    target = model("llama-3.1-8b-instruct")
    # an error finding: EAGLE3 named, no draft model
    done = _launch(
        python,
        pythonpath,
        ["--model-path", target, "--speculative-algorithm", "EAGLE3", "--port", "39991"],
        "clean-8x",
    )
    out = done.stdout + done.stderr
    assert done.returncode == 1, out[-3000:]
    assert "speclint: stopping this SGLang launch before it loads the model" in out
    assert "[error]" in out
    assert "Load weight" not in out and "No accelerator" not in out  # before run_server

    # busy GPUs: a clean config on a machine whose GPU 3 is still held
    done = _launch(
        python, pythonpath, ["--model-path", target, "--tp-size", "4", "--port", "39992"], "busy-gpu3"
    )
    out = done.stdout + done.stderr
    assert done.returncode == 1, out[-3000:]
    assert "GPU 3 (GPU-3c4d5e6f" in out and "pid 1843211  python3" in out
    assert "Load weight" not in out and "No accelerator" not in out

    # SPECLINT_PLUGIN=off: SGLang goes on (and, on a CPU-only machine, fails in resolution)
    done = _launch(
        python,
        pythonpath,
        ["--model-path", target, "--tp-size", "4", "--port", "39993"],
        "busy-gpu3",
        SPECLINT_PLUGIN="off",
    )
    assert "speclint: stopping" not in done.stdout + done.stderr
