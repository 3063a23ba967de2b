"""Reporters: each output format written while files are linted (start, one file, finish), one
module per format (`text` with concise and `--statistics`, `json_format` with json-lines,
`github`, `gitlab`, `sarif`, `junit`), chosen here.

`check` keeps counters, never results, so memory stays flat over thousands of files. Every
format writes exactly what rendering all results at once wrote: its text plus one newline.
"""

from __future__ import annotations

from speclint.report.reporter import JsonReporter, LineReporter
from speclint.report.text import ReportStyle, StatisticsReporter, TextReporter

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

    from speclint.engine import FileResult
    from speclint.report.reporter import Reporter, Writer


def reporter_for(
    output_format: str, out: Writer, style: ReportStyle | None = None, statistics: bool = False
) -> Reporter:
    """The reporter of a format; `style` (colour, fixes, `-q`) shapes the human ones (text,
    concise, `--statistics`), which all end with the summary line."""
    if statistics:
        return StatisticsReporter(out, style)
    if output_format == "text":
        return TextReporter(out, style)
    if output_format == "concise":
        return TextReporter(out, style or ReportStyle(doc_urls=False), source=False)
    if output_format in ("json-lines", "github"):
        from speclint.report.github import github_line
        from speclint.report.json_format import json_line

        line = json_line if output_format == "json-lines" else github_line
        return LineReporter(out, line)
    if output_format in ("json", "gitlab"):
        from speclint.report.gitlab import gitlab_issue
        from speclint.report.json_format import finding_dict

        return JsonReporter(out, finding_dict if output_format == "json" else gitlab_issue)
    if output_format == "sarif":
        from speclint.report.sarif import SarifReporter

        return SarifReporter(out)
    if output_format == "junit":
        from speclint.report.junit import JunitReporter

        return JunitReporter(out)
    raise KeyError(output_format)


def render(
    output_format: str, results: Iterable[FileResult], unreadable: int = 0, style: ReportStyle | None = None
) -> str:
    """The whole report as one string, without its final newline (for the API and tests)."""
    import io

    out = io.StringIO()
    reporter = reporter_for(output_format, out, style)
    reporter.start()
    for result in results:
        reporter.file(result)
    reporter.finish(unreadable)
    return out.getvalue().removesuffix("\n")
