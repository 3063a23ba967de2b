"""`check` writes each format while files are linted (issue #8): the bytes must be what rendering
all results at once wrote, in input order, whether files are linted here or in workers."""

from __future__ import annotations

import io
import json
import os
import re
import stat
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from speclint_runs import run_speclint

from speclint.engine import FileResult, lint_path
from speclint.report import junit
from speclint.report.output import OutputError, ReportFile
from speclint.report.stream import render
from speclint.report.text import render_findings, render_summary
from speclint.runner.results import CheckedFile
from speclint.runner.workers import lint_job
from speclint.settings.options import LintOptions

ROOT = Path(__file__).resolve().parent.parent
FORMATS = ["text", "concise", "json", "json-lines", "sarif", "github", "gitlab", "junit"]
LAUNCH = "python -m sglang.launch_server --model-path m"
ODD = (
    f"X=1\n\t{LAUNCH} \\\n\t\t--tp-size x  --bogus 1\n\u2028{LAUNCH} --speculative-eagle-top-k 2"
    " # \x0c tail\r\n"
)


def run(*args: str, cwd: Path = ROOT, **env: str) -> subprocess.CompletedProcess:
    return run_speclint(*args, cwd=cwd, env=env)


@pytest.fixture(scope="module")
def batch(tmp_path_factory) -> Path:
    """120 files (enough for worker processes): clean ones, mistakes, tabs, odd line breaks."""
    folder = tmp_path_factory.mktemp("batch")
    for i in range(120):
        kind = i % 4
        text = (
            ODD
            if kind == 0
            else f"{LAUNCH} --tp-size {i % 3 + 1}\n"
            if kind == 1
            else f"docker run lmsysorg/sglang:v0.5.6.post2 {LAUNCH} --cuda-graph-max-bs 8 "
            f"--speculative-eagle-top-k 2 --port {i}\n"
            if kind == 2
            else f"#!/bin/sh\n{LAUNCH} --bogus-{i}\n"
        )
        (folder / f"launch_{i:03d}.sh").write_text(text)
    return folder


def test_excerpts_cut_in_the_worker_show_what_the_whole_text_shows(tmp_path):
    path = tmp_path / "odd.sh"
    path.write_text(ODD)
    whole = lint_path(str(path))
    checked, error = lint_job((str(path), LintOptions(), False, None))
    assert error is None and isinstance(checked, CheckedFile)
    assert checked.text == "" and checked.lines and whole.findings
    assert set(checked.lines) == {f.span.line for f in whole.findings}
    for output_format in FORMATS:
        assert render(output_format, [checked]) == render(output_format, [whole]), output_format
    assert render_findings([checked]) == render_findings([whole])
    assert render("text", [whole]).startswith(render_findings([whole]))
    assert render("text", [whole]).endswith("\n" + render_summary([whole]))


def test_json_formats_are_what_json_dumps_writes(tmp_path):
    results = [lint_path(str(p)) for p in sorted((ROOT / "fixtures" / "shell").glob("*.sh"))]
    for output_format in ("json", "gitlab", "sarif"):
        text = render(output_format, results)
        assert text == json.dumps(json.loads(text), indent=2), output_format
        nothing = render(output_format, [FileResult("a.sh")])
        assert nothing == json.dumps(json.loads(nothing), indent=2), output_format
    assert render("json", []) == "[]"
    lines = [json.loads(line) for line in render("json-lines", results).splitlines()]
    assert json.loads(render("json", results)) == lines


def test_junit_totals_come_first_even_when_the_suites_spill_to_disk():
    many = [FileResult(f"some/rather/long/path/to/launch_{i:05d}.sh") for i in range(9000)]
    text = render("junit", many)
    assert len(text) > 1 << 20  # past the in-memory part of the spool
    assert text == "\n".join(
        [*junit.junit_head(0), *(line for r in many for line in junit.junit_suite(r)), "</testsuites>"]
    )


def test_workers_write_the_same_bytes_as_one_process(batch):
    for output_format in ("text", "json", "sarif", "junit"):
        serial = run("--output-format", output_format, str(batch), SPECLINT_WORKERS="1")
        parallel = run("--output-format", output_format, str(batch), SPECLINT_WORKERS="2")
        assert serial.returncode == parallel.returncode == 1
        assert serial.stdout == parallel.stdout, output_format
        assert serial.stderr == parallel.stderr == ""


def test_files_come_in_input_order_and_formats_agree(batch):
    files = sorted(str(p) for p in batch.iterdir())
    records = [
        json.loads(line) for line in run("--output-format", "json-lines", str(batch)).stdout.splitlines()
    ]
    seen = list(dict.fromkeys(r["path"] for r in records))
    assert seen == [f for f in files if f in seen] and len(seen) == 90  # 30 files are clean
    assert run("--output-format", "json", str(batch)).stdout == json.dumps(records, indent=2) + "\n"
    text = run(str(batch)).stdout
    heads = [line for line in text.splitlines() if re.match(r"/.*:\d+:\d+: [A-Z]+\d+ \[", line)]
    concise = run("--output-format", "concise", str(batch)).stdout.splitlines()
    summary_line = next(line for line in text.splitlines() if line.startswith("Found "))
    assert heads == concise[: len(heads)] and concise[len(heads)] == summary_line
    summary = re.fullmatch(
        r"Found (\d+) findings \((.*)\): 120 launches in 120 files, checked "
        r"against SGLang 0.5.23 \(the newest supported release: no "
        r"--sglang-version and no image tag\) and SGLang 0.5.6.post2 \(from "
        r"the image lmsysorg/sglang:v0.5.6.post2 at /\S+/launch_002.sh:1 and "
        r"29 more\).",
        summary_line,
    )
    assert summary and int(summary[1]) == len(records)
    counts = {label: sum(r["severity"] == label for r in records) for label in ("error", "warning", "info")}
    assert summary[2] == ", ".join(
        f"{n} {label}{'s' if n != 1 and label != 'info' else ''}" for label, n in counts.items() if n
    )
    suites = ET.fromstring(run("--output-format", "junit", str(batch)).stdout)
    assert [s.get("name") for s in suites] == files
    assert int(suites.get("failures")) == len(records) == len(suites.findall(".//failure"))


def test_unreadable_files_are_reported_in_place_and_the_rest_linted(batch, tmp_path):
    files = sorted(str(p) for p in batch.iterdir())
    fifo = tmp_path / "pipe.sh"
    os.mkfifo(fifo)
    paths = [*files[:60], str(tmp_path / "missing.sh"), *files[60:], str(fifo)]
    done = run("--output-format", "json-lines", *paths, SPECLINT_WORKERS="2")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.splitlines() == [
        f"speclint: error: {tmp_path / 'missing.sh'}: no such file or directory",
        f"speclint: error: {fifo}: not a regular file",
    ]
    assert len({json.loads(line)["path"] for line in done.stdout.splitlines()}) == 90
    text = run(*paths, "--exit-zero")
    assert text.returncode == 2  # --exit-zero forgives findings, not files left unlinted
    assert (
        "launches in 120 files, checked against SGLang 0.5.23 (the newest supported "
        "release: no --sglang-version and no image tag) and SGLang 0.5.6.post2 (from the "
        f"image lmsysorg/sglang:v0.5.6.post2 at {batch}/launch_002.sh:1 and 29 more); 2 "
        "files could not be linted.\n"
    ) in text.stdout
    clean = tmp_path / "clean.sh"
    clean.write_text(f"{LAUNCH} --tp-size 2\n")
    nothing = run(str(clean), str(tmp_path / "missing.sh"))
    assert nothing.returncode == 2 and nothing.stdout.startswith("No findings: 1 launch in 1 file")
    assert run(str(clean)).returncode == 0


def test_output_file_is_the_report_and_keeps_its_mode(batch, tmp_path):
    report = tmp_path / "report.txt"
    report.write_text("old")
    report.chmod(0o640)
    done = run("--output-format", "junit", "-o", str(report), str(batch))
    assert done.returncode == 1 and done.stdout == "" and done.stderr == ""
    assert report.read_text() == run("--output-format", "junit", str(batch)).stdout
    assert stat.S_IMODE(report.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.txt"]  # no temporary left
    fresh = tmp_path / "sub" / "new.json"
    fresh.parent.mkdir()
    assert run("--output-format", "json", "-o", str(fresh), str(batch)).returncode == 1
    mask = os.umask(0)
    os.umask(mask)
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o666 & ~mask
    assert json.loads(fresh.read_text())


def test_a_broken_output_path_is_exit_2_without_a_traceback(tmp_path):
    done = run("-o", str(tmp_path / "no" / "such" / "dir" / "r.txt"), "fixtures/shell")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(f"speclint: error: cannot write {tmp_path / 'no'}")
    assert "Traceback" not in done.stderr


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_full_disk_on_standard_output_is_exit_2_without_a_traceback():
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "speclint", "fixtures/shell"],
            cwd=ROOT,
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
        )
    assert done.returncode == 2
    assert done.stderr == "speclint: error: cannot write the report: No space left on device\n"


def test_an_unfinished_report_file_leaves_the_old_one(tmp_path):
    report = tmp_path / "r.txt"
    report.write_text("old report\n")
    out = ReportFile(str(report))
    out.write("half a rep")
    out.discard()
    assert report.read_text() == "old report\n"
    assert [p.name for p in tmp_path.iterdir()] == ["r.txt"]
    out = ReportFile(str(report))
    out.write("new report\n")
    out.commit()
    assert report.read_text() == "new report\n"
    with pytest.raises(OutputError, match="cannot write"):
        ReportFile(str(tmp_path / "missing" / "r.txt"))


def test_output_file_on_a_device_is_written_in_place():
    out = ReportFile(os.devnull)
    out.write("x")
    out.commit()
    assert out.temp is None


def test_render_matches_the_stream_for_an_empty_run():
    assert render("text", []) == "All checks passed: 0 launches in 0 files."
    assert render("text", [], 1) == "No findings: 0 launches in 0 files; 1 file could not be linted."
    assert render("concise", [FileResult("a.sh")]) == "All checks passed: 0 launches in 1 file."
    for output_format in ("json-lines", "github"):
        assert render(output_format, [FileResult("a.sh")]) == ""
    buffer = io.StringIO()
    from speclint.report.stream import reporter_for

    reporter = reporter_for("junit", buffer)
    reporter.start()
    reporter.finish()
    assert buffer.getvalue() == "\n".join([*junit.junit_head(0), "</testsuites>"]) + "\n"


def test_standard_output_goes_in_whole_lines(monkeypatch):
    """echo (as click's) drops ANSI codes off a terminal: a chunk must never cut one in two."""
    from speclint.report import echo
    from speclint.report.output import Stdout

    written: list[str] = []
    monkeypatch.setattr(echo, "echo", lambda text, nl=True, **_: written.append(text))
    out = Stdout()
    line = "x" * 1000 + "\x1b[31m" + "y" * 1000 + "\n"
    for _ in range(100):
        out.write(line[:1003])
        out.write(line[1003:])
    out.write("tail without a newline")
    out.commit()
    assert "".join(written) == line * 100 + "tail without a newline"
    assert len(written) > 2 and all(chunk.endswith("\n") for chunk in written[:-1])


def test_a_bug_while_reporting_is_exit_2_with_a_message(monkeypatch, tmp_path):
    from click.testing import CliRunner

    from speclint.cli import main
    from speclint.report import stream

    def boom(self, result):
        raise RuntimeError("boom")

    monkeypatch.setattr(stream.TextReporter, "file", boom)
    report = tmp_path / "r.txt"
    done = CliRunner().invoke(main, ["check", "-o", str(report), str(ROOT / "fixtures/shell")])
    assert done.exit_code == 2
    assert done.stderr == "speclint: error: internal error (RuntimeError: boom); please report it\n"
    assert list(tmp_path.iterdir()) == []  # no report, no temporary file
