"""The result cache (`.speclint_cache`): a re-run over unchanged files reuses the stored
findings; every input a result depends on invalidates it; damaged or foreign entries are
never trusted; unreadable files are never cached."""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from lints_counted import count_lints

import speclint.engine
from speclint.runner import cache as cache_module
from speclint.runner import code_used, inputs_check, workers
from speclint.runner import index as index_module
from speclint.runner.results import CheckedFile, LaunchSummary
from speclint.settings.files import Settings
from speclint.settings.merge import CommandLine, options_for
from speclint.sglang.flags.versions import _pin_in_folder

ROOT = Path(__file__).resolve().parent.parent
MODELS = ROOT / "fixtures" / "models"
BUILT = (CheckedFile, LaunchSummary)
TOPK1 = (ROOT / "fixtures" / "shell" / "eagle_topk1_draft_tokens.sh").read_text()


def _index(folder: Path) -> Path:
    """The index folder of this speclint (an entry file per file and settings)."""
    return folder / f"v{inputs_check.FORMAT}" / f"index-{inputs_check.code_fingerprint()}"


def _entries(folder: Path) -> list[str]:
    """The keys of the index's entries (one per file and settings)."""
    if not _index(folder).exists():
        return []
    return sorted(p.name for p in _index(folder).iterdir() if not p.name.startswith((".", "code-")))


def _edit_entry(folder: Path, change, head=None) -> None:
    """`change(entry)` on the index's only entry, written back (with `head(first line)` as its
    first line, when given)."""
    (key,) = _entries(folder)
    path = _index(folder) / key
    first, text = path.read_bytes().split(b"\n", 1)
    entry = json.loads(text)
    change(entry)
    first = first if head is None else head(first)
    path.write_bytes(first + b"\n" + json.dumps(entry).encode())


def lint_job(job):
    """One file through the cache as `check` runs it: lookup, lint on a miss, index written
    (as a new process: speclint's files that ran are listed again)."""
    code_used.forget()
    (answer,) = index_module.ResultCache(job[3], BUILT).through([job], workers.lint_all, workers.lint_job)
    return answer


def _job(path: Path, cache_dir: Path, cli: CommandLine = CommandLine()):
    if not cli.select:  # every rule, the opt-in ones (DRF011, FLG003) too
        cli = dataclasses.replace(cli, select=("ALL",))
    return (str(path), options_for(str(path), cli, Settings()), False, str(cache_dir))


@pytest.fixture
def lints(monkeypatch) -> list[str]:
    """The paths linted for real (not answered from the cache)."""
    linted = count_lints(monkeypatch)
    return linted


@pytest.fixture
def no_lint(monkeypatch):
    """Make any real lint fail: a result must then come from the cache."""

    def refuse(*args, **kwargs):
        raise AssertionError("linted again instead of using the cache")

    monkeypatch.setattr(speclint.engine, "lint_text", refuse)


def _codes(result) -> list[str]:
    return [f"{f.code}@{f.span.line}:{f.span.column}" for f in result.findings]


def test_unchanged_file_comes_from_the_cache(tmp_path, monkeypatch):
    script, folder = tmp_path / "launch.sh", tmp_path / "cache"
    script.write_text(TOPK1)
    first, error = lint_job(_job(script, folder))
    assert error is None and len(_entries(folder)) == 1
    monkeypatch.setattr(speclint.engine, "lint_text", lambda *a, **k: pytest.fail("linted again"))
    again, error = lint_job(_job(script, folder))
    assert error is None
    assert _codes(again) == _codes(first) and "SPD001@9:87" in _codes(again)
    assert [f.message for f in again.findings] == [f.message for f in first.findings]
    assert again.lines == first.lines
    assert [s.version.version for s in again.contexts] == [s.version.version for s in first.contexts]


def test_changed_content_is_linted_again(tmp_path):
    script, folder = tmp_path / "launch.sh", tmp_path / "cache"
    script.write_text(TOPK1)
    lint_job(_job(script, folder))
    script.write_text(TOPK1.replace("--speculative-num-draft-tokens 16", "--speculative-num-draft-tokens 2"))
    result, _ = lint_job(_job(script, folder))
    assert not any(code.startswith("SPD001") for code in _codes(result))
    assert len(_entries(folder)) == 1  # the file's entry, replaced


@pytest.mark.parametrize(
    "other",
    [
        CommandLine(ignore=("SPD001",)),  # the settings that apply to the file
        CommandLine(sglang_version="0.5.6.post2"),  # the SGLang release
        CommandLine(model_configs=(("/models/Kimi-K2.5", str(MODELS / "kimi-k2.5")),)),
    ],
)
def test_other_settings_are_other_entries(tmp_path, other):
    script, folder = tmp_path / "launch.sh", tmp_path / "cache"
    script.write_text(TOPK1)
    before, _ = lint_job(_job(script, folder))
    after, _ = lint_job(_job(script, folder, other))
    assert len(_entries(folder)) == 2
    assert _codes(after) != _codes(before) or [f.message for f in after.findings] != [
        f.message for f in before.findings
    ]


def test_speclint_version_is_part_of_the_key(tmp_path, monkeypatch, lints):
    script, folder = tmp_path / "launch.sh", tmp_path / "cache"
    script.write_text(TOPK1)
    lint_job(_job(script, folder))
    monkeypatch.setattr("speclint.__version__", "999.0")
    inputs_check._FINGERPRINT.clear()
    try:
        lint_job(_job(script, folder))
    finally:
        inputs_check._FINGERPRINT.clear()
    assert lints == [str(script)] * 2


def test_where_the_hugging_face_cache_is_is_part_of_the_key(tmp_path, monkeypatch, lints):
    script, folder = tmp_path / "launch.sh", tmp_path / "cache"
    script.write_text(TOPK1)
    lint_job(_job(script, folder))
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    inputs_check._FINGERPRINT.clear()
    try:
        lint_job(_job(script, folder))
    finally:
        inputs_check._FINGERPRINT.clear()
    assert lints == [str(script)] * 2


def test_an_installed_sglang_is_part_of_the_key(tmp_path, monkeypatch, lints):
    script, folder = tmp_path / "launch.sh", tmp_path / "cache"
    script.write_text(TOPK1)
    site = tmp_path / "site"
    site.mkdir()
    monkeypatch.setattr(sys, "path", [*sys.path, str(site)])
    inputs_check._FINGERPRINT.clear()
    try:
        lint_job(_job(script, folder))
        (site / "sglang-0.5.20.dist-info").mkdir()
        inputs_check._FINGERPRINT.clear()
        lint_job(_job(script, folder))
    finally:
        inputs_check._FINGERPRINT.clear()
    assert lints == [str(script)] * 2


def _drafter_launch(tmp_path: Path) -> tuple[Path, Path]:
    target, draft = tmp_path / "target", tmp_path / "draft"
    shutil.copytree(MODELS / "llama-3.1-8b-instruct", target)
    shutil.copytree(MODELS / "eagle3-llama-3.1-8b-instruct", draft)
    script = tmp_path / "launch.sh"
    script.write_text(
        f"python -m sglang.launch_server --model-path {target} "
        f"--speculative-algorithm EAGLE --speculative-draft-model-path {draft} "
        "--speculative-num-steps 3 --speculative-eagle-topk 1 "
        "--speculative-num-draft-tokens 4 --max-running-requests 8\n"
    )
    return script, draft


def test_a_changed_model_config_invalidates(tmp_path, no_lint, monkeypatch):
    script, draft = _drafter_launch(tmp_path)
    folder = tmp_path / "cache"
    monkeypatch.undo()  # lint for real the first time
    first, _ = lint_job(_job(script, folder))
    assert "DRF001" in {f.code for f in first.findings}  # EAGLE with an EAGLE-3 drafter
    config = json.loads((draft / "config.json").read_text())
    config["architectures"] = ["LlamaForCausalLMEagle"]
    (draft / "config.json").write_text(json.dumps(config))
    second, _ = lint_job(_job(script, folder))
    assert "DRF001" not in {f.code for f in second.findings}


def test_a_model_config_that_appears_invalidates(tmp_path):
    script, draft = _drafter_launch(tmp_path)
    folder = tmp_path / "cache"
    saved = (draft / "config.json").read_text()
    (draft / "config.json").unlink()
    first, _ = lint_job(_job(script, folder))
    assert "DRF011" in {f.code for f in first.findings}  # configs not on disk
    (draft / "config.json").write_text(saved)
    second, _ = lint_job(_job(script, folder))
    assert "DRF011" not in {f.code for f in second.findings}
    assert "DRF001" in {f.code for f in second.findings}


@pytest.mark.parametrize(
    "damage",
    [
        "not an entry",
        "another speclint",  # an entry written by another version: not trusted
        "another key",  # an entry copied over another file's name
        "no first line",  # JSON alone, as another format would hold it
        "entry",  # a well-formed entry that asks for a class speclint never builds from a file
        "fields",  # an entry whose parts have the wrong shape
    ],
)
def test_damaged_or_foreign_index_is_not_trusted(tmp_path, damage, lints):
    script, folder = tmp_path / "launch.sh", tmp_path / "cache"
    script.write_text(TOPK1)
    first, _ = lint_job(_job(script, folder))
    (key,) = _entries(folder)
    if damage == "not an entry":
        (_index(folder) / key).write_bytes(b"\x00\xffnot an entry" * 100)
    elif damage == "another speclint":
        code = inputs_check.code_fingerprint().encode()
        _edit_entry(folder, lambda entry: None, head=lambda first: first.replace(code, b"someone-else"))
    elif damage == "another key":
        _edit_entry(folder, lambda entry: None, head=lambda first: first.replace(key.encode(), b"0" * 40))
    elif damage == "no first line":
        _edit_entry(folder, lambda entry: None, head=lambda first: b"")
    elif damage == "entry":
        _edit_entry(folder, lambda entry: entry["result"]["findings"][1].__setitem__(1, "Popen"))
    else:
        _edit_entry(folder, lambda entry: entry.update(stat="x", depends=[1]))
    again, error = lint_job(_job(script, folder))
    assert error is None and _codes(again) == _codes(first)
    assert lints == [str(script)] * 2  # linted again, not answered from what was stored
    assert len(_entries(folder)) == 1  # and stored again


def test_an_unchanged_file_is_not_read_again(tmp_path, monkeypatch):
    """Same size, mtime, ctime and inode, and quiet for two seconds: trusted without reading
    (as git and ruff do)."""
    script, folder = tmp_path / "launch.sh", tmp_path / "cache"
    script.write_text(TOPK1)
    monkeypatch.setattr(inputs_check, "_RACY_NS", 1)  # a test cannot wait for quiet
    lint_job(_job(script, folder))
    monkeypatch.setattr(
        index_module, "_same_content", lambda *a: pytest.fail("read again although its stat is unchanged")
    )
    monkeypatch.setattr(speclint.engine, "lint_text", lambda *a, **k: pytest.fail("linted again"))
    again, error = lint_job(_job(script, folder))
    assert error is None and "SPD001@9:87" in _codes(again)


@pytest.mark.parametrize("quiet", [True, False])
def test_a_change_that_keeps_size_and_mtime_is_seen(tmp_path, monkeypatch, quiet):
    """A rewrite of the same size, its mtime put back (`touch -r`, a copy keeping times):
    the ctime changed, so the content is compared; within two seconds of a change (a second
    write in the same clock tick) the content is compared whatever the stat says."""
    script, folder = tmp_path / "launch.sh", tmp_path / "cache"
    script.write_text(TOPK1)
    if quiet:
        monkeypatch.setattr(inputs_check, "_RACY_NS", 1)  # a test cannot wait for quiet
    before = os.stat(script)
    lint_job(_job(script, folder))
    changed = TOPK1.replace("--speculative-num-draft-tokens 16", "--speculative-num-draft-tokens 02")
    assert len(changed) == len(TOPK1)
    script.write_text(changed)
    os.utime(script, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert os.stat(script).st_size == before.st_size
    result, _ = lint_job(_job(script, folder))
    assert not any(code.startswith("SPD001") for code in _codes(result))


def test_a_requirements_pin_that_appears_invalidates(tmp_path):
    script, folder = tmp_path / "launch.sh", tmp_path / "cache"
    script.write_text("python -m sglang.launch_server --model-path m --speculative-eagle-topk 1\n")
    first, _ = lint_job(_job(script, folder))
    (tmp_path / "requirements.txt").write_text("sglang==0.5.6.post2\n")
    second, _ = lint_job(_job(script, folder))
    assert [s.version.version for s in first.contexts] != ["0.5.6.post2"]
    assert [s.version.version for s in second.contexts] == ["0.5.6.post2"]
    (tmp_path / "requirements.txt").write_text("sglang==0.5.3\n")  # the same name, edited
    _pin_in_folder.cache_clear()  # a new process (a long-lived one keeps pins per folder mtime)
    third, _ = lint_job(_job(script, folder))
    assert [s.version.version for s in third.contexts] == ["0.5.3"]


def test_the_index_is_one_folder_an_entry_per_file(tmp_path):
    folder = tmp_path / "cache"
    for number in range(3):
        (tmp_path / f"launch{number}.sh").write_text(TOPK1)
    jobs = [_job(tmp_path / f"launch{number}.sh", folder) for number in range(3)]
    answers = list(
        index_module.ResultCache(str(folder), BUILT).through(jobs, workers.lint_all, workers.lint_job)
    )
    assert [result.path for result, _ in answers] == [job[0] for job in jobs]
    assert len(_entries(folder)) == 3
    assert [p.name for p in (folder / "v2").iterdir()] == [_index(folder).name]
    assert sorted(p.name for p in _index(folder).iterdir() if p.name.startswith(".")) == [".pruned"]


def test_another_speclints_index_is_removed(tmp_path, lints):
    """The first run of this speclint removes the indexes of others (a folder of another
    speclint's entries, the SQLite index of the format before) and lints again."""
    script, folder = tmp_path / "launch.sh", tmp_path / "cache"
    script.write_text(TOPK1)
    lint_job(_job(script, folder))
    other = folder / "v2" / "index-0123456789abcdef"
    shutil.copytree(_index(folder), other)
    shutil.rmtree(_index(folder))
    (folder / "v2" / "index.sqlite").write_bytes(b"SQLite format 3\x00")
    lint_job(_job(script, folder))
    assert lints == [str(script)] * 2
    assert [p.name for p in (folder / "v2").iterdir()] == [_index(folder).name]
    assert len(_entries(folder)) == 1


def test_entries_unused_for_30_days_are_dropped_once_a_day(tmp_path):
    script, folder = tmp_path / "launch.sh", tmp_path / "cache"
    script.write_text(TOPK1)
    lint_job(_job(script, folder))
    stale = _index(folder) / ("f" * 40)
    stale.write_bytes(b"an entry of a file not linted for 31 days")
    month = time.time() - 31 * 86400
    os.utime(stale, (month, month))
    (tmp_path / "other.sh").write_text(TOPK1)
    lint_job(_job(tmp_path / "other.sh", folder))  # pruned today already: kept
    assert stale.exists()
    os.utime(_index(folder) / ".pruned", (month, month))
    (tmp_path / "third.sh").write_text(TOPK1)
    lint_job(_job(tmp_path / "third.sh", folder))
    assert not stale.exists() and len(_entries(folder)) == 3


def test_a_file_that_cannot_be_read_is_never_cached(tmp_path):
    folder = tmp_path / "cache"
    not_a_file = tmp_path / "folder.sh"
    not_a_file.mkdir()
    result, error = lint_job(_job(not_a_file, folder))
    assert result is not None and result.error == "not a regular file"
    assert _entries(folder) == []


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "speclint", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        env={k: v for k, v in os.environ.items() if k != "SPECLINT_CACHE_DIR"},
    )


def test_cli_cache_folder_options(tmp_path):
    (tmp_path / "launch.sh").write_text(TOPK1)
    first = _cli("launch.sh", cwd=tmp_path)
    default = tmp_path / ".speclint_cache"
    assert len(_entries(default)) == 1
    assert (default / ".gitignore").read_text().splitlines()[-1] == "*"
    again = _cli("launch.sh", cwd=tmp_path)
    assert again.stdout == first.stdout and again.returncode == first.returncode == 1
    shutil.rmtree(default)
    _cli("--no-cache", "launch.sh", cwd=tmp_path)
    assert not default.exists()
    _cli("--cache-dir", "elsewhere", "launch.sh", cwd=tmp_path)
    assert len(_entries(tmp_path / "elsewhere")) == 1 and not default.exists()
    (tmp_path / "speclint.toml").write_text('cache-dir = "configured"\n')
    _cli("launch.sh", cwd=tmp_path)
    assert len(_entries(tmp_path / "configured")) == 1 and not default.exists()


def test_the_same_file_named_two_ways_prints_the_name_given(tmp_path, monkeypatch):
    script, folder = tmp_path / "launch.sh", tmp_path / "cache"
    script.write_text(TOPK1)
    monkeypatch.chdir(tmp_path)
    relative, _ = lint_job(_job(Path("launch.sh"), folder))
    absolute, _ = lint_job(_job(script, folder))
    assert {f.path for f in relative.findings} == {"launch.sh"}
    assert {f.path for f in absolute.findings} == {str(script)}


def _write_safetensors(path: Path, tensors: dict[str, list[int]]) -> None:
    import struct

    header = json.dumps(
        {name: {"dtype": "BF16", "shape": shape, "data_offsets": [0, 0]} for name, shape in tensors.items()}
    ).encode()
    path.write_bytes(struct.pack("<Q", len(header)) + header)


def test_changed_drafter_weights_invalidate_every_file_that_read_them(tmp_path):
    """Weights headers are parsed once per process, yet each file's entry depends on them: a
    second file naming the same drafter is linted again when they change, like the first."""
    target, draft = tmp_path / "target", tmp_path / "draft"
    shutil.copytree(MODELS / "llama-3.1-8b-instruct", target)
    shutil.copytree(MODELS / "eagle3-llama-no-d2t", draft)
    folder = tmp_path / "cache"
    scripts = [tmp_path / "a.sh", tmp_path / "b.sh"]
    for script in scripts:
        script.write_text(
            f"python -m sglang.launch_server --model-path {target} --speculative-algorithm EAGLE3 "
            f"--max-running-requests 64 --speculative-draft-model-path {draft}\n"
        )
    before = [lint_job(_job(script, folder))[0] for script in scripts]
    assert all("DRF007" in {f.code for f in result.findings} for result in before)
    _write_safetensors(draft / "model.safetensors", {"fc.weight": [4096, 12288], "d2t": [32000]})
    after = [lint_job(_job(script, folder))[0] for script in scripts]
    assert [sorted({f.code for f in result.findings} & {"DRF007"}) for result in after] == [[], []]


def test_folder_listings_match_what_glob_finds(tmp_path):
    """The pin lookup and the cache's record of it list a folder once, without glob: the same
    names glob.glob gives (hidden ones left out, case kept, a folder with glob's own
    characters in its name, a missing folder)."""
    import glob

    from speclint.runner.depends import matching_names

    odd = tmp_path / "team [a]*?"
    for folder in (tmp_path, odd):
        folder.mkdir(exist_ok=True)
        for name in (
            "requirements.txt",
            "requirements-dev.txt",
            ".requirements-old.txt",
            "Requirements.txt",
            "requirements.txt.bak",
            "constraints.txt",
        ):
            (folder / name).write_text("sglang==0.5.6\n")
        (folder / "requirements-dir.txt").mkdir()
        for pattern in ("requirements*.txt", ".requirements*.txt", "*"):
            found = sorted(
                os.path.basename(p) for p in glob.glob(os.path.join(glob.escape(str(folder)), pattern))
            )
            assert matching_names(str(folder), pattern) == found, (folder, pattern)
    assert matching_names(str(tmp_path / "missing"), "requirements*.txt") == []


def test_a_prefix_and_suffix_glob_matches_as_fnmatch_does():
    """`glob_filter` reads a pattern with one `*` as a prefix and a suffix: the same names as
    fnmatch, including ones where they would overlap, case, newlines and escapes."""
    import fnmatch

    from speclint.runner.depends import glob_filter

    names = [
        "requirements.txt",
        "requirementstxt",
        "requirements.TXT",
        "Requirements-a.txt",
        "reqs",
        "reqss",
        "requirements\n.txt",
        "a\\b.txt",
        "a.b",
        "ab",
        "",
        ".txt",
        "x]y.txt",
        "x!y",
    ]
    patterns = ["requirements*.txt", "reqs*s", "*", "*.txt", "a\\*.txt", "x]*", "x!*", "*[ab]", "a?*", "*.b*"]
    for pattern in patterns:
        assert glob_filter(names, pattern) == fnmatch.filter(names, pattern), pattern


def test_one_check_run_looks_at_a_shared_drafter_once_yet_each_file_depends_on_it(tmp_path, monkeypatch):
    """`check` looks at a model's folder once per run (`depends.settled_tree`), yet the cache
    entry of every file naming it records what was read: edited, both files are linted again."""
    from click.testing import CliRunner

    from speclint.cli import main

    script, draft = _drafter_launch(tmp_path)
    other = tmp_path / "other.sh"
    other.write_text(script.read_text())
    monkeypatch.chdir(tmp_path)  # the cache folder: .speclint_cache here

    def drf001_per_file() -> dict[str, int]:
        result = CliRunner().invoke(main, ["check", "--output-format", "json", "launch.sh", "other.sh"])
        codes = [(f["path"], f["code"]) for f in json.loads(result.output)]
        return {name: codes.count((name, "DRF001")) for name in ("launch.sh", "other.sh")}

    assert drf001_per_file() == {"launch.sh": 1, "other.sh": 1}  # EAGLE with an EAGLE-3 drafter
    assert (tmp_path / ".speclint_cache").is_dir()
    config = json.loads((draft / "config.json").read_text())
    config["architectures"] = ["LlamaForCausalLMEagle"]
    (draft / "config.json").write_text(json.dumps(config))
    assert drf001_per_file() == {"launch.sh": 0, "other.sh": 0}


def test_each_folder_a_pin_is_looked_for_in_is_listed_once(tmp_path, monkeypatch):
    """The entry records the listing the lint itself made (the same folder mtime): the
    requirements*.txt looked for in each folder above the file are not listed again."""
    from speclint.runner import depends

    script, folder = tmp_path / "launch.sh", tmp_path / "cache"
    script.write_text(TOPK1)
    (tmp_path / "requirements-dev.txt").write_text("pytest\n")
    listed: list[str] = []
    real = os.scandir

    def counting(where="."):
        listed.append(str(where))
        return real(where)

    monkeypatch.setattr(os, "scandir", counting)
    monkeypatch.setattr(depends, "_listed", {}, raising=False)
    cache_module._dependencies_now.clear()
    _pin_in_folder.cache_clear()
    lint_job(_job(script, folder))
    assert listed.count(str(tmp_path)) == 1
    (entry_file,) = _entries(folder)
    entry = json.loads((_index(folder) / entry_file).read_bytes().split(b"\n", 1)[1])
    (names,) = [
        seen for dep, _, seen, _ in entry["depends"] if dep == f"{depends.GLOB}{tmp_path}\0requirements*.txt"
    ]
    assert names == "names:requirements-dev.txt"


def test_a_file_with_a_bom_is_linted_through_the_cache_as_without(tmp_path):
    """The BOM is dropped before linting, as the uncached path reads files: same codes and
    positions, and the stored result comes back the same."""
    script, folder = tmp_path / "launch.sh", tmp_path / "cache"
    launch = TOPK1[TOPK1.index("python") :]  # the launch on line 1, right after the BOM
    script.write_bytes(b"\xef\xbb\xbf" + launch.encode())
    first, error = lint_job(_job(script, folder))
    again, _ = lint_job(_job(script, folder))
    plain, _ = workers.lint_job((str(script), _job(script, folder)[1], False, None))
    assert error is None and not first.launch_not_found and _codes(first)
    assert _codes(first) == _codes(again) == _codes(plain)
