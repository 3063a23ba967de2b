"""`source FILE` / `. FILE` of a file of plain assignments (`set -a; source .env`): the file is
read from disk (a relative name from the script's folder, as the project reads the files it
follows), never run, and its assignments are made in this shell: exported when the line says
`export NAME=...` or `set -a` (`set -o allexport`) is on, as bash(1) says of `allexport`
("each variable or function that is created or modified is given the export attribute").

Only a file every line of which speclint reads is applied: blank lines, `#` comments, and
`[export ]NAME=VALUE` where VALUE is plain characters, `'...'`, or `"..."` without `$`, `` ` ``
or a backslash (a trailing `# comment` after a blank allowed). Any other file (not on disk,
not readable, a line of other code) may change any variable: the caller forgets them all,
the reason naming the file and why it was not read.
"""

from __future__ import annotations

import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.spans import Span
    from speclint.frontends.shell.variables import Env

_LINE = re.compile(
    r"[ \t]*(export[ \t]+)?([A-Za-z_][A-Za-z_0-9]*)="
    r"([A-Za-z0-9_./:,@%+=-]*|'[^']*'|\"[^\"$`\\]*\")"
    r"(?:[ \t]+#.*)?[ \t]*"
)


def source_file(env: Env, target: str, script_path: str, span: Span) -> str | None:
    """Apply the assignments of the file `target` (`source` / `.`'s word, at `span`) to `env`;
    None when done, else why the file was not read (nothing applied)."""
    if "$" in target:
        return "its name is not known"
    if target.startswith("~"):
        return f"speclint does not read {target}, a file of the user's home"
    from speclint.frontends.reading import read_named_file

    text, _, why = read_named_file(script_path, target)
    if text is None:
        return f"speclint could not read {target}: {why}"
    found: list[tuple[str, str, bool]] = []
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        match = _LINE.fullmatch(line)
        if match is None:
            return f"line {number} of {target} is not a plain assignment, which speclint does not read"
        value = match.group(3)
        if value[:1] in ("'", '"'):
            value = value[1:-1]
        found.append((match.group(2), value, match.group(1) is not None))
    from speclint.frontends.shell.variables import VarValue

    for name, value, exported in found:
        env.assign(name, VarValue(text=value, origin=span, exported=exported))
    return None
