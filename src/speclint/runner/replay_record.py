"""Writing a replay record (`runner.replay` reads it): what a `check` run printed and read,
collected while it runs and written at its end. Not imported by a replay.
"""

from __future__ import annotations

import os
import time

from speclint.runner.replay import _MAGIC, _SUFFIX, _record_path, run_key

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

_KEEP_RUNS = 64
"""Records kept per cache folder (the oldest go first)."""


class Recorder:
    """Collects what a `check` run printed and read, and writes its record at the end."""

    def __init__(self, argv: list[str]) -> None:
        self.argv = argv
        self.cache_dir: str | None = None
        self.started = time.time_ns()
        self.output: list[str] = []
        self.strip: Callable[[str], str] | None = None
        """What click.echo does to the report's text on its way out (`click.unstyle`), or None."""
        self.inputs: dict[str, tuple[Any, ...]] = {}
        self.code: set[str] = set()
        """The lists of speclint's files that the lints of the files ran (`runner.code_used`)."""
        self.complete = True
        """False once anything makes the run unfit to replay."""

    def tee(self, out: Any) -> Any:
        """`out`, with what is written to it kept for the record."""
        recorder = self

        class _Tee:
            def write(self, text: str) -> None:
                recorder.output.append(text)
                out.write(text)

            def commit(self) -> None:
                out.commit()

            def discard(self) -> None:
                recorder.complete = False
                out.discard()

        return _Tee()

    def file(self, path: str, entry: dict[str, Any]) -> None:
        """A linted file and its cache entry (its content and dependencies when linted)."""
        self.inputs[path] = (entry["stat"], entry["hash"], entry["taken"])
        self.code.add(entry["code"])
        for dep, signature, seen, taken in entry["depends"]:
            self.inputs.setdefault(dep, (signature, seen, taken))

    def save(self, noted: set[str], exit_code: int) -> None:
        """Write the record (`noted`: what the run itself read: configs, folders, ignores)."""
        from speclint.runner import code_used, inputs_check
        from speclint.runner.cache import record_inputs
        from speclint.runner.inputs_check import _quiet, fingerprint

        if not self.complete or exit_code not in (0, 1) or self.cache_dir is None:
            return

        def settled(path: str, signature: list[int] | None, seen: str) -> bool:
            """Whether what the record says of an input can be trusted: not when it changed
            within two seconds of the run's start (it may have changed while the run read
            it); a listing (no signature) is listed again."""
            if signature is not None:
                return _quiet(signature, self.started)
            return not seen.startswith("names:") or fingerprint(path)[1] == seen

        # the linted files and what their lints read first: a file saved just before the
        # run (an editor's save, then a hook) ends it before the run's own reads are looked at
        for path, (signature, seen, _taken) in self.inputs.items():
            if not settled(path, signature, seen):
                return
        for path in noted:
            if path not in self.inputs:
                signature, seen = fingerprint(path)
                if not settled(path, signature, seen):
                    return
                self.inputs[path] = (signature, seen, self.started)
        ran = code_used.current(inputs_check._RACY_NS)  # what this process ran, and what the lints' links say
        code = None if ran is None else code_used.merged([ran, *self.code])
        if code is None:
            return
        output = "".join(self.output)
        if self.strip is not None:
            output = self.strip(output)
        report = output.encode("utf-8", "surrogatepass")
        from marshal import dumps

        try:
            files = dumps(code[0], 2)  # (version 2: no back references, whose use hangs on
            # reference counts: the same record is written byte for byte the same)
        except ValueError:
            return
        header = {
            "argv": self.argv,
            "exit": exit_code,
            "report": len(report),
            **record_inputs(self.inputs),
            "code": len(files),
            "code_stats": code_used.stats_hash(code[1]),
        }
        path = _record_path(self.cache_dir, run_key(self.argv))
        try:
            from speclint.core.kept import write_atomically

            folder = os.path.dirname(path)
            os.makedirs(folder, exist_ok=True)
            head = dumps(header, 2)
            write_atomically(path, b"%s%d\n%s%s%s" % (_MAGIC, len(head), head, files, report))
            _prune(folder)
        except (OSError, TypeError, ValueError):
            pass


def _prune(folder: str) -> None:
    """Keep the newest _KEEP_RUNS records."""
    try:
        names = [name for name in os.listdir(folder) if name.endswith((_SUFFIX, ".json"))]
        if len(names) <= _KEEP_RUNS:
            return
        dated = sorted(names, key=lambda name: os.stat(os.path.join(folder, name)).st_mtime_ns)
        for name in dated[:-_KEEP_RUNS]:
            os.unlink(os.path.join(folder, name))
    except OSError:
        pass
