"""`--output-format junit`: one <testsuite> per file, one failing <testcase> per finding."""

from __future__ import annotations

from speclint.report.reporter import Reporter

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.engine import FileResult


def junit_head(findings: int) -> list[str]:
    return [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<testsuites name="speclint" tests="{max(findings, 1)}" failures="{findings}" errors="0">',
    ]


def junit_suite(result: FileResult) -> list[str]:
    """One file's <testsuite>: a passing test case when it has no findings."""
    cases, path = result.findings, quoteattr(result.path)
    out = [f'  <testsuite name={path} tests="{max(len(cases), 1)}" failures="{len(cases)}" errors="0">']
    if not cases:
        out.append(f'    <testcase name="speclint" classname={path}/>')
    for f in cases:
        out.append(
            f'    <testcase name={quoteattr(f"{f.code} {f.name}")} classname={path} line="{f.span.line}">'
        )
        out.append(
            f"      <failure message={quoteattr(f.message)} type={quoteattr(f.severity.label)}>"
            f"{f.path}:{f.span.line}:{f.span.column}: {_xml_text(f.message)}</failure>"
        )
        out.append("    </testcase>")
    out.append("  </testsuite>")
    return out


def quoteattr(text: str) -> str:
    """`xml.sax.saxutils.quoteattr`, which is not imported because xml.sax pulls in
    urllib and http.client (27 ms of every run's start-up)."""
    text = _xml_text(text).replace("\n", "&#10;").replace("\r", "&#13;").replace("\t", "&#9;")
    if '"' not in text:
        return f'"{text}"'
    if "'" not in text:
        return f"'{text}'"
    return '"' + text.replace('"', "&quot;") + '"'


def _xml_text(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class JunitReporter(Reporter):
    """<testsuites> carries the totals before the suites, so the suites wait in a spool file
    (in memory up to 1 MiB, then on disk)."""

    def start(self) -> None:
        import tempfile

        self.findings = 0
        self.spool = tempfile.SpooledTemporaryFile(
            1 << 20, "w+", encoding="utf-8", errors="surrogateescape", newline=""
        )

    def file(self, result: FileResult) -> None:
        self.findings += len(result.findings)
        self.spool.write("\n".join(junit_suite(result)) + "\n")

    def finish(self, unreadable: int = 0) -> None:
        self.out.write("\n".join(junit_head(self.findings)) + "\n")
        self.spool.seek(0)
        while chunk := self.spool.read(1 << 16):
            self.out.write(chunk)
        self.spool.close()
        self.out.write("</testsuites>\n")
