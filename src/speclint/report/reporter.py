"""What every streamed format shares: a reporter (start, one file, finish) writing to anything
with `write(str)`, one line per finding, or a JSON array written one item at a time."""

from __future__ import annotations

import json


class Reporter:
    """Base: `out` is anything with `write(str)`."""

    def __init__(self, out) -> None:
        self.out = out

    def start(self) -> None:
        pass

    def file(self, result) -> None:
        raise NotImplementedError

    def finish(self, unreadable: int = 0) -> None:
        pass


class LineReporter(Reporter):
    """One line per finding: concise, json-lines, github."""

    def __init__(self, out, line) -> None:
        super().__init__(out)
        self.line = line

    def file(self, result) -> None:
        if result.findings:
            self.out.write("".join(self.line(f) + "\n" for f in result.findings))


class JsonArray:
    """A JSON array written item by item, byte for byte what `json.dumps(items, indent=2)`
    writes at `depth` (JSON strings hold no raw newline, so re-indenting lines is safe)."""

    def __init__(self, out, depth: int) -> None:
        self.out, self.depth, self.count = out, depth, 0
        self.inner = "\n" + "  " * (depth + 1)

    def add(self, item) -> None:
        text = json.dumps(item, indent=2).replace("\n", self.inner)
        self.out.write(("[" if not self.count else ",") + self.inner + text)
        self.count += 1

    def close(self) -> None:
        self.out.write("\n" + "  " * self.depth + "]" if self.count else "[]")


class JsonReporter(Reporter):
    """A JSON array of one object per finding: json, gitlab."""

    def __init__(self, out, item) -> None:
        super().__init__(out)
        self.item, self.array = item, JsonArray(out, 0)

    def file(self, result) -> None:
        for finding in result.findings:
            self.array.add(self.item(finding))

    def finish(self, unreadable: int = 0) -> None:
        self.array.close()
        self.out.write("\n")
