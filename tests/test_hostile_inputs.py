"""Hostile files: every one ends in a finding with a location or a one-line message, exit
0/1/2, no traceback, in bounded time, and the other files are still linted."""

from __future__ import annotations

import os
import subprocess

import pytest
from speclint_runs import run_speclint

from speclint.engine import MAX_LAUNCHES, lint_path, lint_text
from speclint.frontends.reading import MAX_FILE_BYTES
from speclint.frontends.shell.script import extract_shell
from speclint.settings.options import LintOptions
from speclint.sglang.checkpoints.model_config import read_model_config
from speclint.sglang.checkpoints.weights import read_header

LAUNCH = "python -m sglang.launch_server --model-path m --tp-size 2"
CLEAN = "#!/bin/bash\npython -m sglang.launch_server --model-path /models/llama --tp-size 2\n"


def speclint(*args: str, stdin: str | None = None, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """`speclint --output-format concise ARGS`, as a user runs it."""
    return run_speclint("--output-format", "concise", *args, stdin=stdin, timeout=timeout)


def test_command_substitution_nested_thousands_deep_is_a_finding():
    text = LAUNCH + " " + "$(" * 5000 + "x" + ")" * 5000 + "\n"
    result = lint_text(text, "deep.sh")
    messages = [f.message for f in result.findings if f.code == "SLM001"]
    assert any("nested too deeply" in m for m in messages), messages


@pytest.mark.parametrize(
    "text",
    [
        "if true; then\n" * 2000 + LAUNCH + "\n" + "fi\n" * 2000,
        LAUNCH + " ${a:-" * 3000 + "x" + "}" * 3000 + "\n",
        "(" * 5000 + LAUNCH + ")" * 5000 + "\n",
        LAUNCH + " $((" + "(" * 5000 + "1" + ")" * 5000 + "))\n",
    ],
)
def test_deep_nesting_never_raises(text):
    result = lint_text(text, "deep.sh")
    assert all(f.span.line >= 1 and f.span.column >= 1 for f in result.findings)


def test_a_value_doubling_each_line_stays_small():
    """`A=$A$A` forty times would be a terabyte: past 64 KiB the value is unknown."""
    text = "A=x\n" + "A=$A$A\n" * 40 + LAUNCH + " --port $A\n"
    launch = extract_shell(text, "x.sh").launches[0]
    port = [w for w in launch.args if w.text is None or "x" in (w.text or "")]
    assert port and port[0].dynamic and "KiB" in port[0].dynamic_reason


def test_an_array_doubling_each_line_stays_small():
    text = "A=(--x)\n" + 'A=("${A[@]}" "${A[@]}")\n' * 40 + LAUNCH + ' "${A[@]}"\n'
    launch = extract_shell(text, "x.sh").launches[0]
    assert len(launch.args) < 5000


def test_many_references_in_one_word_stay_small():
    text = "A=" + "y" * 60000 + "\n" + LAUNCH + " --x " + "$A" * 2000 + "\n"
    launch = extract_shell(text, "x.sh").launches[0]
    assert any(w.dynamic for w in launch.args)


def test_wide_broken_file_with_a_comment_is_linear():
    """A tree-sitter `(comment)` query was quadratic on the one wide ERROR node (8 s here)."""
    text = "(" * 200_000 + "\n# speclint: disable=FLG001\n"
    result = extract_shell(text, "x.sh")
    assert len(result.comments) == 1


@pytest.mark.parametrize(
    "data",
    [
        (LAUNCH + "\n").replace(" ", "\0 ").encode(),
        (LAUNCH + " \xff\xfe").encode("latin-1") + b"\xc3(\n",
        b"\xef\xbb\xbf" + LAUNCH.encode() + b"\r\n",
        LAUNCH.replace(" --tp", " \\\r\n --tp").encode() + b"\r\n",
        LAUNCH.encode() + b' "\'"' * 3000 + b"\n",
        LAUNCH.encode() + b" `" * 1001,
        b"cat <<EOF\n" + LAUNCH.encode(),
    ],
)
def test_odd_bytes_give_findings_not_crashes(tmp_path, data):
    path = tmp_path / "odd.sh"
    path.write_bytes(data)
    result = lint_path(str(path))
    assert result.error is None


def test_oversized_file_is_a_finding_and_other_files_are_linted(tmp_path):
    (tmp_path / "big.sh").write_bytes(b"#" + b"a" * MAX_FILE_BYTES + b"\n")
    (tmp_path / "ok.sh").write_text(CLEAN)
    done = speclint(str(tmp_path))
    out = done.stdout
    assert done.returncode == 1, done.stderr
    assert f"{tmp_path / 'big.sh'}:1:1: SLM001" in out and "larger than the 1024 KiB" in out
    assert "Traceback" not in done.stderr and "ok.sh" not in out


def test_oversized_standard_input_is_a_finding():
    done = speclint("-", stdin="x" * (MAX_FILE_BYTES + 10))
    assert done.returncode == 1 and "<stdin>:1:1: SLM001" in done.stdout


def test_oversized_file_is_not_fixed(tmp_path):
    big = tmp_path / "big.sh"
    data = (LAUNCH.replace("--tp-size", "--tp") + "\n").encode() * (MAX_FILE_BYTES // 50)
    big.write_bytes(data)
    done = speclint("--fix", str(big))
    assert done.returncode == 1 and "SLM001" in done.stdout
    assert big.read_bytes() == data


def test_launches_past_the_cap_are_one_finding():
    text = "".join(f"{LAUNCH} --port {i}\n" for i in range(MAX_LAUNCHES + 5))
    result = lint_text(text, "many.sh", LintOptions())
    capped = [f for f in result.findings if f.code == "SLM001"]
    assert [(f.span.line, f.span.column) for f in capped] == [(MAX_LAUNCHES + 1, 1)]
    assert "the 5 from here on are not checked" in capped[0].message
    assert len(result.contexts) == MAX_LAUNCHES


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_fifos_never_block(tmp_path):
    os.mkfifo(tmp_path / "launch")  # no suffix: a scan would read its shebang
    os.mkfifo(tmp_path / "server.sh")
    (tmp_path / "ok.sh").write_text(CLEAN)
    done = speclint(str(tmp_path), timeout=30)
    assert done.returncode == 0, done.stdout + done.stderr
    done = speclint(str(tmp_path / "server.sh"), str(tmp_path / "ok.sh"), timeout=30)
    assert done.returncode == 2 and "server.sh: not a regular file" in done.stderr
    for flag in ("--fix", "--diff"):
        done = speclint(flag, str(tmp_path / "server.sh"), timeout=30)
        assert done.returncode == 2 and "not a regular file" in done.stderr


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_fifo_config_json_never_blocks(tmp_path):
    os.mkfifo(tmp_path / "config.json")
    assert "not a regular file" in read_model_config(str(tmp_path / "config.json"))[1]
    assert "not a regular file" in read_header(str(tmp_path / "config.json"))[1]


def test_symlink_loops_and_dangling_links_in_a_folder(tmp_path):
    os.symlink("b.sh", tmp_path / "a.sh")
    os.symlink("a.sh", tmp_path / "b.sh")
    os.symlink("missing.sh", tmp_path / "c.sh")
    os.mkdir(tmp_path / "sub")
    os.symlink("..", tmp_path / "sub" / "up")
    (tmp_path / "sub" / "ok.sh").write_text(CLEAN)
    done = speclint("--output-format", "text", str(tmp_path), timeout=30)
    assert done.returncode == 0 and "in 1 file" in done.stdout, done.stdout + done.stderr
    done = speclint(str(tmp_path / "a.sh"), str(tmp_path / "sub" / "ok.sh"))
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "symbolic links" in done.stderr


def test_unreadable_file_is_one_line_and_others_are_linted(tmp_path, monkeypatch):
    (tmp_path / "ok.sh").write_text(CLEAN)
    (tmp_path / "secret.sh").write_text(CLEAN)
    real_open = os.open

    def refusing(path, *args, **kwargs):
        if str(path).endswith("secret.sh"):
            raise PermissionError(13, "Permission denied")
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", refusing)
    from speclint.runner.checking import check_paths
    from speclint.settings.files import SettingsFinder
    from speclint.settings.merge import CommandLine

    outcome = check_paths([str(tmp_path)], CommandLine(), SettingsFinder(None, True))
    assert outcome.errors == [f"{tmp_path / 'secret.sh'}: permission denied"]
    assert [r.path for r in outcome.results] == [str(tmp_path / "ok.sh")]


@pytest.mark.parametrize(
    "content,why",
    [
        (b"{not json", "not valid JSON"),
        (b"[1, 2]", "not an object"),
        (b"null", "not an object"),
        (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
        (b'{"a": "' + b"x" * (5 * 1024 * 1024) + b'"}', "larger than"),
    ],
)
def test_hostile_config_json(tmp_path, content, why):
    path = tmp_path / "config.json"
    path.write_bytes(content)
    config, problem = read_model_config(str(path))
    assert config is None and why in problem


def test_config_json_with_wrong_types_lints(tmp_path):
    model = tmp_path / "m"
    model.mkdir()
    (model / "config.json").write_text(
        '{"architectures": null, "hidden_size": "big", "num_hidden_layers": [1],'
        ' "max_position_embeddings": {"a": 1}, "rope_scaling": "x", "text_config": 3,'
        ' "num_attention_heads": true, "vocab_size": -1}'
    )
    script = tmp_path / "run.sh"
    script.write_text(
        f"python -m sglang.launch_server --model-path {model} --tp-size 2 "
        f"--speculative-algorithm EAGLE3 --speculative-draft-model-path {model}\n"
    )
    done = speclint(str(script))
    assert done.returncode in (0, 1) and "Traceback" not in done.stderr, done.stderr


def test_big_batches_in_worker_processes_match_one_process(tmp_path, monkeypatch):
    from speclint.runner.checking import check_paths
    from speclint.runner.workers import PARALLEL_MIN_FILES
    from speclint.settings.files import SettingsFinder
    from speclint.settings.merge import CommandLine

    paths = []
    for i in range(2 * PARALLEL_MIN_FILES + 3):
        path = tmp_path / f"l{i:03d}.sh"
        extra = " --tp 2" if i % 3 else " --speculative-eagle-top-k 2"
        path.write_text(f"{LAUNCH} --port {i}{extra}\n" + ("$(\n" if i % 17 == 0 else ""))
        paths.append(str(path))
    paths.insert(40, str(tmp_path / "missing.sh"))

    def run(workers: str):
        monkeypatch.setenv("SPECLINT_WORKERS", workers)
        outcome = check_paths(paths, CommandLine(), SettingsFinder(None, True), keep_contexts=False)
        return (
            [
                (
                    r.path,
                    [(f.code, f.span, f.message) for f in r.findings],
                    r.text,
                    [c.version.version for c in r.contexts],
                )
                for r in outcome.results
            ],
            outcome.errors,
        )

    serial, parallel = run("1"), run("2")
    assert parallel == serial
    assert [r[0] for r in serial[0]] == [p for p in paths if "missing" not in p]
    assert serial[1] == [f"{tmp_path / 'missing.sh'}: no such file or directory"]
