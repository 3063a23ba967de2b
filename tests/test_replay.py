"""A whole `check` run replayed from the cache (`speclint.runner.replay`): the same command
line over unchanged inputs prints the same report without linting; any input that changed
(a linted file, a walked folder, a configuration file, a model config, the environment)
means a real run; runs that cannot be replayed are never recorded."""

from __future__ import annotations

import json
import marshal
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from lints_counted import count_lints

from speclint.__main__ import main as speclint_main
from speclint.runner import cache as cache_module
from speclint.runner import code_used, inputs_check, replay

ROOT = Path(__file__).resolve().parent.parent
MODELS = ROOT / "fixtures" / "models"
TOPK1 = (ROOT / "fixtures" / "shell" / "eagle_topk1_draft_tokens.sh").read_text()


@pytest.fixture
def run(monkeypatch, capsys, tmp_path):
    """`speclint ARGS` in this process, as the console script runs it, in tmp_path: (exit
    code, standard output, how many files were linted for real)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(inputs_check, "_RACY_NS", 1)  # a test cannot wait two seconds
    for name in list(os.environ):
        if name.startswith("SPECLINT_"):
            monkeypatch.delenv(name)
    linted = count_lints(monkeypatch)

    def speclint_(*args: str, errors: bool = False) -> tuple[int, str, int]:
        monkeypatch.setattr(sys, "argv", ["speclint", *args])
        monkeypatch.setattr(replay, "ARGV", None)
        cache_module._dependencies_now.clear()
        code_used.forget()  # (a new process: what it imports is listed again)
        before = len(linted)
        with pytest.raises(SystemExit) as stop:
            speclint_main()
        out, err = capsys.readouterr()
        assert bool(err) == errors, err
        return stop.value.code or 0, out, len(linted) - before

    return speclint_


def _records(tmp_path: Path) -> list[Path]:
    folder = tmp_path / ".speclint_cache" / "v2" / "runs"
    return sorted(folder.glob("*.run")) if folder.exists() else []


def _tree(tmp_path: Path) -> Path:
    scripts = tmp_path / "scripts"
    (scripts / "deep").mkdir(parents=True)
    (scripts / "a.sh").write_text(TOPK1)
    (scripts / "deep" / "b.sh").write_text("python -m sglang.launch_server --model-path m --tp 2\n")
    return scripts


def test_an_unchanged_run_is_replayed_without_linting(run, tmp_path):
    _tree(tmp_path)
    first = run("scripts")
    assert first[0] == 1 and first[2] == 2 and "SPD001" in first[1]
    assert len(_records(tmp_path)) == 1
    assert run("scripts") == (1, first[1], 0)
    assert run("--exit-zero", "scripts") == (0, first[1], 0)  # another command line: entries
    assert run("--exit-zero", "scripts") == (0, first[1], 0)


def _speclint_twice(tmp_path: Path, shown: str, **env: str) -> list[subprocess.CompletedProcess[bytes]]:
    """`speclint scripts` run twice in fresh processes in tmp_path, as the console script runs
    it; each prints the Python expression `shown` (what it imported) on standard error."""
    environment = {k: v for k, v in os.environ.items() if not k.startswith("SPECLINT_")}
    environment.update(env)
    probe = (
        "import sys\nfrom speclint.runner import inputs_check\nfrom speclint.__main__ import main\n"
        "inputs_check._RACY_NS = 1\nsys.argv = ['speclint', 'scripts']\ntry:\n    main()\n"
        f"except SystemExit:\n    pass\nprint({shown}, file=sys.stderr)\n"
    )
    return [
        subprocess.run(
            [sys.executable, "-c", probe],
            cwd=tmp_path,
            capture_output=True,
            timeout=120,
            env=environment,
            check=False,
        )
        for _ in range(2)
    ]


def test_a_replay_imports_no_linter(tmp_path):
    """The console script's path: a replay loads neither click nor any front-end or rule,
    nor any JSON reader (its record is in marshal)."""
    _tree(tmp_path)
    shown = "sorted(m for m in sys.modules if m.startswith(('speclint', 'click', 'tree_sitter', 'json')))"
    first, second = _speclint_twice(tmp_path, shown)
    assert first.stdout == second.stdout and b"SPD001" in second.stdout
    loaded = second.stderr.decode()
    # the first run lints (a plain `speclint PATH` is read without click: `cli.plain`)
    assert "'speclint.engine'" in first.stderr.decode() and "'click'" not in first.stderr.decode()
    for module in (
        "click",
        "speclint.engine",
        "speclint.rules",
        "speclint.frontends",
        "tree_sitter",
        "speclint.sglang.resolve",
        "speclint.report",
        "json",
        "speclint.core.json_read",
        "speclint.runner.cache",
        "speclint.runner.code_used",
        "speclint.runner.replay_record",
    ):
        assert f"'{module}'" not in loaded, module


@pytest.mark.parametrize(
    ("config", "folder", "toml"),
    [
        ('ignore = ["SPD003"]\n', ".speclint_cache", False),  # no cache-dir: TOML not read
        ('cache-dir = "elsewhere"\n', "elsewhere", True),
        ("[tool.black]\nline-length = 99\n", ".speclint_cache", False),  # another tool's pyproject
    ],
)
def test_a_replay_reads_the_configuration_only_for_its_cache_dir(tmp_path, config, folder, toml):
    """Without --cache-dir a replay looks for the configuration's `cache-dir`; a file in which
    no key can be `cache-dir` sets none, and TOML is not imported to learn it."""
    _tree(tmp_path)
    name = "pyproject.toml" if "tool.black" in config else "speclint.toml"
    (tmp_path / name).write_text(config)
    runs = _speclint_twice(
        tmp_path, "'speclint.engine' in sys.modules, 'tomllib' in sys.modules or 'tomli' in sys.modules"
    )
    assert runs[1].stdout == runs[0].stdout and b"SPD001" in runs[1].stdout
    assert runs[1].stderr == f"False {toml}\n".encode()  # replayed
    assert list((tmp_path / folder / "v2" / "runs").glob("*.run"))


def test_a_changed_file_is_linted_again_and_only_it(run, tmp_path):
    scripts = _tree(tmp_path)
    first = run("scripts")
    (scripts / "a.sh").write_text(
        TOPK1.replace("--speculative-num-draft-tokens 16", "--speculative-num-draft-tokens 2")
    )
    _, out, linted = run("scripts")
    assert linted == 1 and out != first[1] and "SPD001" not in out


def test_a_touched_file_is_not_replayed_and_not_linted_again(run, tmp_path, monkeypatch):
    """A file whose stat changed with the same content: the run is done again (a replay
    trusts stats alone), and the file's own cache entry answers it by its content."""
    scripts = _tree(tmp_path)
    first = run("scripts")
    recorded = _records(tmp_path)[0].read_bytes()
    os.utime(scripts / "a.sh", ns=(1_000_000_000, 1_000_000_000))
    assert run("scripts") == first[:2] + (0,)
    assert _records(tmp_path)[0].read_bytes() != recorded  # recorded again, with the new stat


def test_a_new_file_in_a_walked_folder_is_linted(run, tmp_path):
    scripts = _tree(tmp_path)
    run("scripts")
    (scripts / "deep" / "c.sh").write_text(TOPK1)
    _, out, linted = run("scripts")
    assert linted == 1 and "scripts/deep/c.sh:" in out
    (scripts / "deep" / "c.sh").unlink()
    _, out, linted = run("scripts")
    assert "c.sh" not in out


def test_a_configuration_file_that_appears_is_read(run, tmp_path):
    _tree(tmp_path)
    first = run("scripts")
    (tmp_path / "speclint.toml").write_text('ignore = ["SPD001"]\n')
    _, out, _ = run("scripts")
    assert "SPD001" in first[1] and "SPD001" not in out


def test_a_model_config_that_changes_is_read(run, tmp_path):
    target, draft = tmp_path / "target", tmp_path / "draft"
    shutil.copytree(MODELS / "llama-3.1-8b-instruct", target)
    shutil.copytree(MODELS / "eagle3-llama-3.1-8b-instruct", draft)
    (tmp_path / "launch.sh").write_text(
        f"python -m sglang.launch_server --model-path {target} --speculative-algorithm EAGLE "
        f"--speculative-draft-model-path {draft} --speculative-num-steps 3 "
        "--speculative-eagle-topk 1 --speculative-num-draft-tokens 4\n"
    )
    first = run("launch.sh")
    assert "DRF001" in first[1] and run("launch.sh")[2] == 0
    config = json.loads((draft / "config.json").read_text())
    config["architectures"] = ["LlamaForCausalLMEagle"]
    (draft / "config.json").write_text(json.dumps(config))
    _, out, linted = run("launch.sh")
    assert linted == 1 and "DRF001" not in out


def test_the_environment_a_report_reads_is_part_of_the_key(run, tmp_path, monkeypatch):
    _tree(tmp_path)
    text = run("scripts")[1]
    monkeypatch.setenv("SPECLINT_OUTPUT_FORMAT", "concise")
    concise = run("scripts")[1]
    assert concise != text and "scripts/a.sh:9:87: SPD001" in concise
    monkeypatch.setenv("OLDPWD", "/elsewhere")  # read by no report: still replayed
    assert run("scripts") == (1, concise, 0)


def _damaged(record: bytes, damage: str) -> bytes:
    """`record` (magic line, header length, header, the list of speclint's files, report; both
    in marshal) damaged one way."""
    magic, length, rest = record.split(b"\n", 2)
    header, report = rest[: int(length)], rest[int(length) :]
    values = marshal.loads(header)
    if damage == "not a record":
        return b"\x00not a record"
    if damage == "another format":
        return b"speclint-run 1\n" + record.split(b"\n", 1)[1]
    if damage == "truncated":
        return record[:-1]
    if damage == "header cut":
        return b"%s\n%d\n%s" % (magic, int(length) - 2, rest)
    if damage == "inputs of another shape":  # nothing to check would mean "unchanged"
        values.update(quiet={}, missing="", other=[])
    elif damage == "stats":
        values["stats"] = str(values["stats"])
    elif damage == "exit code":
        values["exit"] = True
    elif damage == "list of files":  # a file of speclint's left out: the hash of the stats tells
        listed = marshal.loads(report[: values["code"]])
        files = marshal.dumps(listed[1:])
        report, values["code"] = files + report[values["code"] :], len(files)
    elif damage == "length of the list":
        values["code"] = -1
    head = marshal.dumps(values)
    return b"%s\n%d\n%s%s" % (magic, len(head), head, report)


@pytest.mark.parametrize(
    "damage",
    [
        "not a record",
        "another format",
        "truncated",
        "header cut",
        "inputs of another shape",
        "stats",
        "exit code",
        "list of files",
        "length of the list",
    ],
)
def test_a_damaged_record_is_not_trusted(run, tmp_path, damage):
    _tree(tmp_path)
    first = run("scripts")
    (record,) = _records(tmp_path)
    original = record.read_bytes()
    assert original.endswith(first[1].encode())
    record.write_bytes(_damaged(original, damage))
    linted = run("scripts")
    assert linted[:2] == first[:2] and linted[2] == 0  # answered by the index, not replayed
    assert record.read_bytes() == original  # recorded again


@pytest.mark.parametrize("encoding", ["utf-8", "latin-1"])
def test_a_replay_prints_the_report_byte_for_byte(tmp_path, encoding):
    """The report is written out as it was printed, characters outside ASCII included, to a
    UTF-8 stream as its bytes and to any other as text in the stream's encoding."""
    scripts = _tree(tmp_path)
    (scripts / "a.sh").rename(scripts / "ünï×.sh")
    runs = _speclint_twice(tmp_path, "'speclint.engine' in sys.modules", PYTHONIOENCODING=encoding)
    assert "ünï×.sh:9:87: SPD001".encode(encoding) in runs[0].stdout
    assert runs[1].stdout == runs[0].stdout
    assert (runs[0].stderr, runs[1].stderr) == (b"True\n", b"False\n")  # the second replayed


@pytest.mark.parametrize(
    "args", [("--no-cache",), ("-o", "report.txt"), ("--isolated",), ("--statistics", "--diff")]
)
def test_runs_that_cannot_be_replayed_are_not_recorded(run, tmp_path, args):
    _tree(tmp_path)
    run(*args, "scripts", errors="--diff" in args)
    assert _records(tmp_path) == []


def test_a_run_with_inputs_changed_just_before_it_is_not_recorded(run, tmp_path, monkeypatch):
    """Files changed within two seconds of the run's start may be changing while it reads
    them: such a run is done again next time (the files' own cache entries still serve)."""
    _tree(tmp_path)
    monkeypatch.setattr(inputs_check, "_RACY_NS", 2_000_000_000)
    run("scripts")
    assert _records(tmp_path) == []


@pytest.mark.parametrize("changed", [False, True])
def test_a_run_whose_configuration_changed_just_before_it_is_not_recorded(
    run, tmp_path, monkeypatch, changed
):
    """What the run itself read counts as its linted files do: a configuration file saved
    within two seconds of the run's start (the linted files long quiet) means no record."""
    _tree(tmp_path)
    config = tmp_path / "speclint.toml"
    config.write_text('ignore = ["SPD001"]\n')
    inode = config.stat().st_ino
    quiet = inputs_check._quiet

    def config_just_saved(signature: list[int], taken: int) -> bool:
        return not (changed and signature[3] == inode) and quiet(signature, taken)

    monkeypatch.setattr(inputs_check, "_quiet", config_just_saved)
    _, out, _ = run("scripts")
    assert "SPD001" not in out
    assert len(_records(tmp_path)) == (0 if changed else 1)


def test_files_with_errors_are_never_recorded(run, tmp_path):
    _tree(tmp_path)
    os.mkfifo(tmp_path / "fifo.sh")  # named explicitly: "not a regular file"
    assert run("scripts", "fifo.sh", errors=True)[0] == 2
    assert _records(tmp_path) == []
