"""A Python launcher (or a notebook's Python) that sets its own environment before it
starts the server: the child inherits `os.environ` unless `env=` replaces it, so the
values reach the rules that read the launch's environment (PAR001 for
CUDA_VISIBLE_DEVICES, DRF009 for SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN), each finding
at the value where the file sets it. Before, only `!cmd` / `%%bash` launches saw them."""

from __future__ import annotations

from pathlib import Path

from fixture_file import FixtureFile

from speclint.engine import lint_text

PY = FixtureFile("python/environ_before_launch.py")
NB = FixtureFile("notebooks/python_launch_env.ipynb")
ROOT = Path(__file__).resolve().parent.parent


def _one_gpu(value: str, tp: int) -> str:
    count = value.count(",") + 1
    last = value.count(",")
    return (
        f"CUDA_VISIBLE_DEVICES={value} leaves {count} GPU{'s' if count > 1 else ''} visible "
        f"(indices 0-{last}), but tp {tp} makes SGLang start {tp} workers on GPU indices up to "
        f"{tp - 1}: the workers on indices {', '.join(str(i) for i in range(count, tp))} fail "
        "when they select their device (CUDA: invalid device ordinal)"
    )


def _par001(text: str, path: str) -> list[tuple[int, int, str]]:
    return [
        (f.span.line, f.span.column, f.message) for f in lint_text(text, path).findings if f.code == "PAR001"
    ]


def test_an_assignment_before_popen_is_the_child_s_environment() -> None:
    assert ("PAR001", 8, 38, '"0"', _one_gpu("0", 2)) in PY.findings()


def test_each_launch_gets_what_was_set_on_its_way_only() -> None:
    # serve_pair's update gives "0,1" (tp 2 fits); serve_wide's "0,1,2,3" is set on one
    # path only (unknown: no finding for tp 2 x dp 2); serve_default deletes it, then
    # setdefault gives "6"
    assert [f[:4] for f in PY.findings() if f[0] == "PAR001"] == [
        ("PAR001", 8, 38, '"0"'),
        ("PAR001", 30, 51, '"6"'),
        ("PAR001", 40, 39, '"4"'),
    ]
    assert ("PAR001", 30, 51, '"6"', _one_gpu("6", 2)) in PY.findings()


def test_an_update_in_the_function_is_what_its_launch_sees() -> None:
    text = PY.text.replace('"0,1"}', '"7"}')
    assert (18, 48, _one_gpu("7", 2)) in _par001(text, "launcher.py")


def _notes(text: str, line: int) -> list[tuple[int, int, str]]:
    """The notes of the PAR001 finding at `line`."""
    (found,) = [
        f for f in lint_text(text, "launcher.py").findings if f.code == "PAR001" and f.span.line == line
    ]
    return [(note.span.line, note.span.column, note.message) for note in found.notes]


def test_an_engine_in_the_same_process_sees_the_environment() -> None:
    engine_only = PY.text.replace(
        'subprocess.run(CMD, env=dict(environ, SGLANG_LOG_LEVEL="info"), check=True)', ""
    )
    assert (40, 39, _one_gpu("4", 2)) in _par001(engine_only, "launcher.py")
    assert _notes(engine_only, 40) == [(41, 52, "tp_size=2 is set here")]


def test_dict_of_os_environ_imported_from_os_keeps_it() -> None:
    popen_only = PY.text.replace('sgl.Engine(model_path="Qwen/Qwen3-8B", tp_size=2)', "pass")
    assert (40, 39, _one_gpu("4", 2)) in _par001(popen_only, "launcher.py")
    assert _notes(popen_only, 40) == [(40, 39, "value assigned here"), (10, 96, "--tp 2 is set here")]


def test_env_given_replaces_the_environment() -> None:
    only_replaced = PY.text.replace("subprocess.Popen(CMD)  #", "#").replace(
        'subprocess.Popen(CMD, env={**os.environ, "SGLANG_LOG_LEVEL"', '("SGLANG_LOG_LEVEL"'
    )
    assert 'env={"PATH"' in only_replaced
    assert (8, 38, _one_gpu("0", 2)) not in _par001(only_replaced, "launcher.py")


def test_env_built_from_os_environ_keeps_it() -> None:
    only_merged = PY.text.replace("subprocess.Popen(CMD)  #", "#")
    assert (8, 38, _one_gpu("0", 2)) in _par001(only_merged, "launcher.py")


def test_a_value_not_known_statically_gives_no_value() -> None:
    text = PY.text.replace(
        'os.environ["CUDA_VISIBLE_DEVICES"] = "0"', 'os.environ["CUDA_VISIBLE_DEVICES"] = sys.argv[1]'
    )
    assert (8, 38, _one_gpu("0", 2)) not in _par001(text, "launcher.py")
    assert [line for line, _, _ in _par001(text, "launcher.py")] == [30, 40]


def test_a_setting_after_the_launch_does_not_reach_it() -> None:
    text = PY.text.replace('os.environ["CUDA_VISIBLE_DEVICES"] = "0"\n', "").replace(
        "starts from it\n", 'starts from it\nos.environ["CUDA_VISIBLE_DEVICES"] = "0"\n'
    )
    assert [line for line, _, _ in _par001(text, "launcher.py")] == [30, 40]


def test_notebook_python_launches_inherit_the_kernel_s_environment() -> None:
    found = [f for f in NB.findings() if f[0] == "PAR001"]
    assert found == [
        # launch_server_cmd(...) in the next cell, after `os.environ[...] = "0"`
        ("PAR001", 23, 45, '\\"0\\"', _one_gpu("0", 2)),
        # subprocess.Popen([...]) after `%env CUDA_VISIBLE_DEVICES=0,1` in the cell before
        ("PAR001", 45, 32, "0,1", _one_gpu("0,1", 4)),
    ]  # the last cell's `%env ...=$gpus` is expanded by IPython from the kernel: not known


def test_an_env_magic_in_the_same_cell_reaches_the_python_launch_after_it() -> None:
    text = NB.text.replace("CUDA_VISIBLE_DEVICES=$gpus", "CUDA_VISIBLE_DEVICES=0")
    assert (67, 32, _one_gpu("0", 4)) in _par001(text, "nb.ipynb")


def test_an_sglang_variable_set_before_the_launch_changes_the_verdict(monkeypatch, tmp_path) -> None:
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "no-cache"))
    launch = (
        'subprocess.run(["python", "-m", "sglang.launch_server", "--model-path",'
        ' "fixtures/models/llama-3.1-8b-instruct", "--speculative-algorithm", "EAGLE3",'
        ' "--speculative-draft-model-path", "fixtures/models/eagle3-llama-2k-context"])\n'
    )
    allowed = 'import os\nimport subprocess\nos.environ["SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN"] = "1"\n'
    found = {
        setting: [
            (f.severity.label, f.span.line, f.span.column, f.message)
            for f in lint_text(prefix + launch, "launcher.py").findings
            if f.code == "DRF009"
        ]
        for setting, prefix in (("on", allowed), ("unset", "import os\nimport subprocess\n"))
    }
    lengths = (
        "the drafter's derived context length is 2048 (max_position_embeddings 2048) but the "
        "target's is 131072 (derived from the target's max_position_embeddings 131072): "
    )
    assert (
        found["on"]
        == [  # at the drafter's path
            (
                "info",
                4,
                186,
                lengths + "SGLang warns and overrides the drafter's max_position_embeddings to 131072 "
                "(SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN is on); positions past 2048 are ones the "
                "drafter was not trained on",
            )
        ]
    )
    assert found["unset"] == [
        (
            "error",
            3,
            186,
            lengths + "SGLang stops with `ValueError: ... Target model's context_length (131072) is "
            "greater than the derived context_length (2048)` while loading the drafter",
        )
    ]


def test_an_env_magic_python_cannot_spell_is_left_out_not_a_syntax_error() -> None:
    fence = (
        "```python\n"
        '%env A"B=1\n'
        "%env CUDA_VISIBLE_DEVICES=0\"'\n"
        "from sglang.utils import launch_server_cmd\n"
        'launch_server_cmd("python -m sglang.launch_server --model-path m --tp-size 2")\n'
        "```\n"
    )
    from speclint.frontends.docs.markdown import extract_markdown

    assert extract_markdown(fence, "doc.md").diagnostics == []  # no syntax error
    # a value holding both quotes is not spelled in Python: unknown, no finding
    assert [f.code for f in lint_text(fence, "doc.md").findings] == []
    plain = fence.replace("=0\"'", "=0")
    found = [(f.code, f.span.line, f.span.column) for f in lint_text(plain, "doc.md").findings]
    assert found == [("PAR001", 3, 27)]  # at the `0`


SETUP = FixtureFile("python/environ_setup_function.py")


def test_a_setup_function_called_before_the_launch_sets_its_environment() -> None:
    (finding,) = SETUP.findings()
    assert finding[:4] == ("PAR001", 10, 42, "ids")  # (`set_visible_gpus("0")`, from setup_env())
    assert finding[4] == _one_gpu("0", 2)
    probe, server = lint_text(SETUP.text, str(SETUP.path)).contexts
    assert probe.launch.env == {}  # (started before setup_env() runs)
    assert {k: w.text for k, w in server.launch.env.items()} == {
        "CUDA_VISIBLE_DEVICES": "0",
        "HF_HOME": "/models/hf",
        "NCCL_DEBUG": "INFO",  # (`os.putenv`: a child started without env= gets it)
    }


def test_a_module_level_setup_call_reaches_a_launch_after_it_and_not_one_before() -> None:
    text = (
        "import os\nimport subprocess\n\n"
        "def pin():\n    os.environ['CUDA_VISIBLE_DEVICES'] = '0'\n\n"
        "subprocess.Popen(['python', '-m', 'sglang.launch_server', '--model-path', 'm', '--tp-size', '2'])\n"
        "pin()\n"
        "subprocess.Popen(['python', '-m', 'sglang.launch_server', '--model-path', 'm', '--tp-size', '4'])\n"
    )
    found = lint_text(text, "app.py")
    assert [(f.code, f.span.line, f.span.column) for f in found.findings] == [("PAR001", 5, 42)]
    assert "tp 4" in found.findings[0].message


def test_a_setup_function_that_calls_itself_leaves_the_environment_unknown() -> None:
    text = (
        "import os\nimport subprocess\n\n"
        "def pin(n):\n    os.environ['CUDA_VISIBLE_DEVICES'] = '0'\n    pin(n - 1)\n\n"
        "def main():\n    pin(3)\n"
        "    subprocess.Popen(['python', '-m', 'sglang.launch_server', '--model-path', 'm', '--tp-size', '2'])\n"
    )
    (ctx,) = lint_text(text, "app.py").contexts
    word = ctx.launch.env["CUDA_VISIBLE_DEVICES"]
    assert word.text is None
    assert "pin() is called within itself; speclint does not follow it" in (word.dynamic_reason or "")


def test_a_big_file_keeps_the_setup_call_and_what_the_function_sets() -> None:
    filler = "".join(f"def helper_{i}(x):\n    return x + {i}\n\n\n" for i in range(1200))
    assert len(filler) > 16 * 1024  # read through `select`
    text = (
        "import os\nimport subprocess\n\n"
        "def pin(ids):\n    os.environ['CUDA_VISIBLE_DEVICES'] = ids\n\n"
        "def setup():\n    pin('0')\n    os.putenv('NCCL_DEBUG', 'INFO')\n\n"
        f"{filler}"
        "def main():\n    setup()\n"
        "    subprocess.Popen(['python', '-m', 'sglang.launch_server', '--model-path', 'm', '--tp-size', '2'])\n"
    )
    found = lint_text(text, "big.py")
    assert [(f.code, f.span.line, f.span.column) for f in found.findings] == [("PAR001", 5, 42)]
    assert {k: w.text for k, w in found.contexts[0].launch.env.items()} == {
        "CUDA_VISIBLE_DEVICES": "0",
        "NCCL_DEBUG": "INFO",
    }


METHOD = FixtureFile("python/environ_setup_method.py")


def test_a_setup_method_and_the_main_block_set_the_environment_of_the_launches_after_them() -> None:
    findings = METHOD.findings()
    assert [f[:4] for f in findings] == [
        ("PAR001", 15, 46, '"0"'),  # self.setup() in run(), before the launch
        ("SLM004", 19, 73, "self.model"),
        ("PAR001", 29, 42, '"0,1"'),  # set in the `__main__` block before main()
    ]
    assert findings[0][4] == _one_gpu("0", 2)
    assert "CUDA_VISIBLE_DEVICES=0,1 leaves 2 GPUs visible" in findings[2][4]
    assert "4 DP replicas" in findings[2][4]


def test_a_self_method_that_sets_nothing_adds_nothing() -> None:
    text = (
        "import os\nimport subprocess\n\n"
        "class R:\n    def setup(self):\n        self.port = 1\n\n"
        "    def run(self):\n        self.setup()\n"
        "        subprocess.Popen(['python', '-m', 'sglang.launch_server', '--model-path', 'm', '--tp-size', '2'])\n"
    )
    (run,) = lint_text(text, "app.py").contexts
    assert run.launch.env == {}


def test_a_main_guard_with_an_else_is_a_branch_as_before() -> None:
    text = (
        "import os\nimport subprocess\n\n"
        "if __name__ == '__main__':\n    os.environ['CUDA_VISIBLE_DEVICES'] = '0'\nelse:\n    pass\n"
        "subprocess.Popen(['python', '-m', 'sglang.launch_server', '--model-path', 'm', '--tp-size', '2'])\n"
    )
    (module,) = lint_text(text, "app.py").contexts
    assert module.launch.env["CUDA_VISIBLE_DEVICES"].text is None  # one path sets it
    found = lint_text(text.replace("\nelse:\n    pass", ""), "app.py").findings
    assert [(f.code, f.span.line, f.span.column) for f in found] == [("PAR001", 5, 42)]
