"""Reporters: each output format written while files are linted (start, one file, finish).

`check` keeps counters, never results, so memory stays flat over thousands of files. Every
format writes exactly what rendering all results at once wrote: its text plus one newline.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Protocol

from speclint.report import formats
from speclint.report.json_format import finding_dict
from speclint.report.text import ReportStyle, Tally, finding_lines

if TYPE_CHECKING:
    from speclint.lint import FileResult
    from speclint.core.findings import Finding


class Writer(Protocol):
    """Where a report is written: standard output, `-o FILE`, a StringIO."""

    def write(self, text: str, /) -> object: ...


class Reporter:
    """Base: `out` is anything with `write(str)`."""

    def __init__(self, out: Writer) -> None:
        self.out = out

    def start(self) -> None:
        pass

    def file(self, result: FileResult) -> None:
        raise NotImplementedError

    def finish(self, unreadable: int = 0) -> None:
        pass


class TextReporter(Reporter):
    """Findings with source excerpts as they come, then the summary line from running counts
    (and, as ruff, how many are fixable); `-q` leaves the summary out."""

    def __init__(self, out: Writer, style: ReportStyle | None = None, source: bool = True) -> None:
        super().__init__(out)
        self.tally = Tally()
        self.style = style or ReportStyle()
        self.source = source

    def file(self, result: FileResult) -> None:
        self.tally.add(result)
        lines = finding_lines(result, self.source, self.style)
        if lines:
            self.out.write("\n".join(lines) + "\n")

    def finish(self, unreadable: int = 0) -> None:
        if self.style.quiet:
            return
        self.out.write(self.tally.summary(unreadable) + "\n")
        fixes = self.tally.fix_line(self.style.unsafe_fixes)
        if fixes:
            self.out.write(fixes + "\n")


class StatisticsReporter(TextReporter):
    """`--statistics`: a count per rule instead of the findings, then the summary."""

    def file(self, result: FileResult) -> None:
        self.tally.add(result)

    def finish(self, unreadable: int = 0) -> None:
        rows = self.tally.statistics(self.style.unsafe_fixes)
        if rows:
            self.out.write("\n".join(rows) + "\n")
        super().finish(unreadable)


class LineReporter(Reporter):
    """One line per finding: concise, json-lines, github."""

    def __init__(self, out: Writer, line: Callable[[Finding], str]) -> None:
        super().__init__(out)
        self.line = line

    def file(self, result: FileResult) -> None:
        if result.findings:
            self.out.write("".join(self.line(f) + "\n" for f in result.findings))


class _JsonArray:
    """A JSON array written item by item, byte for byte what `json.dumps(items, indent=2)`
    writes at `depth` (JSON strings hold no raw newline, so re-indenting lines is safe)."""

    def __init__(self, out: Writer, depth: int) -> None:
        self.out, self.depth, self.count = out, depth, 0
        self.inner = "\n" + "  " * (depth + 1)

    def add(self, item: object) -> None:
        text = json.dumps(item, indent=2).replace("\n", self.inner)
        self.out.write(("[" if not self.count else ",") + self.inner + text)
        self.count += 1

    def close(self) -> None:
        self.out.write("\n" + "  " * self.depth + "]" if self.count else "[]")


class JsonReporter(Reporter):
    """A JSON array of one object per finding: json, gitlab."""

    def __init__(self, out: Writer, item: Callable[[Finding], dict[str, object]]) -> None:
        super().__init__(out)
        self.item, self.array = item, _JsonArray(out, 0)

    def file(self, result: FileResult) -> None:
        for finding in result.findings:
            self.array.add(self.item(finding))

    def finish(self, unreadable: int = 0) -> None:
        self.array.close()
        self.out.write("\n")


_RESULTS_HERE = "speclint: the results go here"


class SarifReporter(Reporter):
    """The rule metadata is known up front: the log is written around its `results` array."""

    def start(self) -> None:
        from speclint.rules import all_rules

        rules = list(all_rules())
        self.index = {rule.code: i for i, rule in enumerate(rules)}
        log = json.dumps(formats.sarif_log(rules, _RESULTS_HERE), indent=2)
        head, self.tail = log.split(json.dumps(_RESULTS_HERE))
        self.out.write(head)
        self.array = _JsonArray(self.out, 3)  # log → runs → run → results

    def file(self, result: FileResult) -> None:
        for finding in result.findings:
            self.array.add(formats.sarif_result(finding, self.index))

    def finish(self, unreadable: int = 0) -> None:
        self.array.close()
        self.out.write(self.tail + "\n")


class JunitReporter(Reporter):
    """<testsuites> carries the totals before the suites, so the suites wait in a spool file
    (in memory up to 1 MiB, then on disk)."""

    def start(self) -> None:
        import tempfile

        self.findings = 0
        self.spool = tempfile.SpooledTemporaryFile(1 << 20, "w+", encoding="utf-8",
                                                   errors="surrogateescape", newline="")

    def file(self, result: FileResult) -> None:
        self.findings += len(result.findings)
        self.spool.write("\n".join(formats.junit_suite(result)) + "\n")

    def finish(self, unreadable: int = 0) -> None:
        self.out.write("\n".join(formats.junit_head(self.findings)) + "\n")
        self.spool.seek(0)
        while chunk := self.spool.read(1 << 16):
            self.out.write(chunk)
        self.spool.close()
        self.out.write("</testsuites>\n")


def reporter_for(output_format: str, out: Writer, style: ReportStyle | None = None,
                 statistics: bool = False) -> Reporter:
    """The reporter of a format; `style` (colour, fixes, `-q`) shapes the human ones (text,
    concise, `--statistics`), which all end with the summary line."""
    if statistics:
        return StatisticsReporter(out, style)
    if output_format == "text":
        return TextReporter(out, style)
    if output_format == "concise":
        return TextReporter(out, style or ReportStyle(doc_urls=False), source=False)
    lines = {"json-lines": formats.json_line, "github": formats.github_line}
    if output_format in lines:
        return LineReporter(out, lines[output_format])
    if output_format in ("json", "gitlab"):
        return JsonReporter(out, finding_dict if output_format == "json" else formats.gitlab_issue)
    return {"sarif": SarifReporter, "junit": JunitReporter}[output_format](out)


def render(output_format: str, results: Iterable[FileResult], unreadable: int = 0,
           style: ReportStyle | None = None) -> str:
    """The whole report as one string, without its final newline (for the API and tests)."""
    import io

    out = io.StringIO()
    reporter = reporter_for(output_format, out, style)
    reporter.start()
    for result in results:
        reporter.file(result)
    reporter.finish(unreadable)
    return out.getvalue().removesuffix("\n")
