"""`--fix` and `--diff`: apply the certain edits findings carry, preserving every other byte.

Writes are atomic (a temporary file in the same folder, then `os.replace`), keep the file's
permissions, never follow a symlink out of the linted tree, and leave the original intact
when anything fails.
"""

from __future__ import annotations

import os
import stat

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Literal

    from speclint.core.findings import Edit, Finding
    from speclint.engine import FileResult
    from speclint.settings.options import LintOptions


class FixError(Exception):
    pass


def _line_offsets(text: str) -> list[int]:
    offsets, position = [0], 0
    for line in text.splitlines(keepends=True):
        position += len(line)
        offsets.append(position)
    return offsets


def _offset(offsets: list[int], line: int, column: int) -> int:
    return offsets[line - 1] + column - 1


def edits_of(finding: Finding) -> tuple[Edit, ...]:
    fix = finding.fix
    return () if fix is None else fix if isinstance(fix, tuple) else (fix,)


def applicability(finding: Finding) -> Literal["safe", "unsafe"] | None:
    """'safe' when `--fix` applies the finding's edits, 'unsafe' when only `--unsafe-fixes`
    does, None when it has none."""
    edits = edits_of(finding)
    if not edits:
        return None
    return "safe" if all(edit.safe for edit in edits) else "unsafe"


def fixable(finding: Finding, unsafe: bool = False) -> bool:
    """The edits this run would apply (ruff's `[*]`)."""
    kind = applicability(finding)
    return kind == "safe" or (kind == "unsafe" and unsafe)


def collect_edits(findings: Iterable[Finding], unsafe: bool = False) -> list[Edit]:
    edits: list[Edit] = []
    for finding in findings:
        if fixable(finding, unsafe):
            edits.extend(edits_of(finding))
    return edits


def edit_offsets(text: str, edit: Edit, offsets: list[int] | None = None) -> tuple[int, int] | None:
    """Where in `text` the edit applies (start, end character offsets), or None when its span
    is outside the text or the token it expects is not there any more."""
    offsets = offsets if offsets is not None else _line_offsets(text)
    span = edit.span
    if span.line < 1 or span.end_line >= len(offsets) + 1:
        return None
    start = _offset(offsets, span.line, span.column)
    end = _offset(offsets, span.end_line, span.end_column)
    if not 0 <= start <= end <= len(text):
        return None
    if edit.expected is not None:
        inner = text[start:end].find(edit.expected)
        if inner < 0:
            return None
        start, end = start + inner, start + inner + len(edit.expected)
    return start, end


def apply_edits(text: str, edits: Iterable[Edit]) -> tuple[str, int]:
    """The text with every edit applied that does not overlap an earlier one, and their count."""
    offsets = _line_offsets(text)
    ranges = []
    for edit in edits:
        where = edit_offsets(text, edit, offsets)
        if where is not None:
            ranges.append((*where, edit.replacement))
    applied, result, last_start = 0, text, None
    for start, end, replacement in sorted(set(ranges), reverse=True):
        if last_start is not None and end > last_start:
            continue  # overlaps an edit already applied: leave it for the next pass
        result = result[:start] + replacement + result[end:]
        last_start = start
        applied += 1
    return result, applied


def unified_diff(path: str, before: str, after: str) -> str:
    import difflib  # only --diff and --fix need these (the report reads `fixable` alone)

    return "".join(
        difflib.unified_diff(
            before.splitlines(keepends=True),
            after.splitlines(keepends=True),
            fromfile=f"a/{path.lstrip(os.sep)}",
            tofile=f"b/{path.lstrip(os.sep)}",
        )
    )


def safe_target(path: str, roots: list[str]) -> str:
    """The real file to write. A symlink is followed only when its target stays inside one of
    the linted roots (or the link's own folder)."""
    real = os.path.realpath(path)
    if os.path.islink(path):
        allowed = [os.path.realpath(r) for r in roots] + [os.path.dirname(os.path.abspath(path))]
        if not any(real == a or real.startswith(a.rstrip(os.sep) + os.sep) for a in allowed):
            raise FixError(f"{path} is a symlink to {real}, outside the linted tree; not writing")
    return real


def write_atomically(path: str, data: bytes) -> None:
    import tempfile

    info = os.stat(path)
    folder = os.path.dirname(path) or "."
    handle, temporary = tempfile.mkstemp(prefix=".speclint-", dir=folder)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temporary, stat.S_IMODE(info.st_mode))
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise


def encode_like(original: bytes, text: str) -> bytes:
    """Encode fixed text the way the original was stored (a UTF-8 BOM is kept)."""
    bom = b"\xef\xbb\xbf" if original.startswith(b"\xef\xbb\xbf") else b""
    return bom + text.encode("utf-8")


MAX_PASSES = 4


def fix_text(
    text: str,
    path: str,
    options: LintOptions,
    unsafe: bool = False,
    display_path: str | None = None,
    counts: dict[str, int] | None = None,
) -> tuple[FileResult, str, int]:
    """(result after fixing, fixed text, edits applied): up to a few passes, since a fix can
    reveal another. `counts` (code -> findings fixed) is filled in when given."""
    from speclint.engine import lint_text

    fixed, total = text, 0
    result = lint_text(fixed, path, options, display_path)
    for _ in range(MAX_PASSES):
        edits = collect_edits(result.findings, unsafe)
        if not edits:
            break
        fixed, applied = apply_edits(fixed, edits)
        if not applied:
            break
        total += applied
        if counts is not None:
            for finding in result.findings:
                if fixable(finding, unsafe):
                    counts[finding.code] = counts.get(finding.code, 0) + 1
        result = lint_text(fixed, path, options, display_path)
    return result, fixed, total


def fix_path(
    path: str,
    options: LintOptions,
    roots: list[str],
    write: bool,
    unsafe: bool = False,
    counts: dict[str, int] | None = None,
) -> tuple[FileResult | None, str, int, str | None]:
    """Lint `path`, apply the certain fixes (up to a few passes, since a fix can reveal
    another), and write the result when `write`. Returns (FileResult after fixing, diff,
    edits applied, problem) — problem is a message when the file could not be fixed."""
    from speclint.engine import too_large_result
    from speclint.frontends.reading import read_bytes

    try:
        target = safe_target(path, roots)
    except FixError as error:
        return None, "", 0, str(error)
    except OSError as error:
        return None, "", 0, f"cannot read: {error.strerror or error}"
    original, problem, size = read_bytes(target)  # never blocks on a FIFO, bounded in size
    if problem is not None:
        return None, "", 0, f"cannot read: {problem}"
    if original is None:
        return too_large_result(path, size, options), "", 0, None
    try:
        text = original.decode("utf-8-sig")
    except UnicodeDecodeError:
        return None, "", 0, "not valid UTF-8; not fixing it (nothing would be lost, nothing changed)"
    result: FileResult
    result, fixed, total = fix_text(text, path, options, unsafe, counts=counts)
    diff = unified_diff(path, text, fixed) if fixed != text else ""
    if write and fixed != text:
        try:
            write_atomically(target, encode_like(original, fixed))
        except OSError as error:
            return result, diff, 0, f"cannot write: {error.strerror or error}; file left unchanged"
    return result, diff, total, None
