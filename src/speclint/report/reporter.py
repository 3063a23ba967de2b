"""What every streamed format shares: a reporter (start, one file, finish) writing to anything
with `write(str)`, one line per finding, or a JSON array written one item at a time."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Protocol

    from speclint.core.findings import Finding
    from speclint.engine import FileResult

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


class LineReporter(Reporter):
    """One line per finding: concise, json-lines, github."""

    def __init__(self, out: Writer, line: Callable[[Finding], str]) -> None:
        super().__init__(out)
        self.line = line

    def file(self, result: FileResult) -> None:
        if result.findings:
            self.out.write("".join(self.line(f) + "\n" for f in result.findings))


class JsonArray:
    """A JSON array written item by item, byte for byte what `json.dumps(items, indent=2)`
    writes at `depth` (JSON strings hold no raw newline, so re-indenting lines is safe)."""

    def __init__(self, out: Writer, depth: int) -> None:
        self.out, self.depth, self.count = out, depth, 0
        self.inner = "\n" + "  " * (depth + 1)

    def add(self, item: object) -> None:
        import json  # (a lint reads JSON without the `json` package: `core.json_read`)

        text = json.dumps(item, indent=2).replace("\n", self.inner)
        self.out.write(("[" if not self.count else ",") + self.inner + text)
        self.count += 1

    def close(self) -> None:
        self.out.write("\n" + "  " * self.depth + "]" if self.count else "[]")


class JsonReporter(Reporter):
    """A JSON array of one object per finding: json, gitlab."""

    def __init__(self, out: Writer, item: Callable[[Finding], dict[str, object]]) -> None:
        super().__init__(out)
        self.item, self.array = item, JsonArray(out, 0)

    def file(self, result: FileResult) -> None:
        for finding in result.findings:
            self.array.add(self.item(finding))

    def finish(self, unreadable: int = 0) -> None:
        self.array.close()
        self.out.write("\n")
