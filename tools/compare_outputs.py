"""Byte-identical before/after comparison of speclint's output (issue 18: a move, not a rewrite).

    python tools/compare_outputs.py snapshot --checkout DIR --out FILE [--launches 3000]
    python tools/compare_outputs.py diff A B
    python tools/compare_outputs.py compare --before REF --after REF [--keep DIR]

A snapshot holds what a user sees, through the command line only (never an import of
speclint, so any package layout works): ``check --no-cache`` in text, concise, json and
sarif on every fixture file and on the rule pages in ``rules/``, with exit codes;
``explain`` (text with no GPU, ``--gpu h100`` and ``--gpu b200``; json) on every fixture;
and a few thousand generated launches (tools/compare_launches.py) in batch files, each
checked against one SGLang release and explained on one GPU profile. The inputs always come
from this script's own repository, copied into a temporary folder, so both sides lint the
same bytes; the folder's path is replaced by ``<TMP>``. Sections are in a fixed order.
"""

from __future__ import annotations

import argparse
import difflib
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import compare_launches

MARK = "=== "
EXPLAIN_GPUS = (None, "h100", "b200")


def _runner(checkout: str, python: str | None) -> tuple[list[str], dict[str, str]]:
    """The command that runs `checkout`'s speclint, and the PYTHONPATH it needs."""
    exe = os.path.join(checkout, ".venv", "bin", "speclint")
    if python is None and os.path.isfile(exe):
        return [exe], {}
    python = os.path.abspath(python) if python and os.sep in python else python
    python = python or sys.executable
    src = os.path.join(checkout, "src")
    env = {"PYTHONPATH": src}
    where = subprocess.run(
        [python, "-c", "import speclint; print(speclint.__file__)"],
        check=False,
        capture_output=True,
        text=True,
        env={**_clean_env(), **env},
    )
    got = os.path.realpath(where.stdout.strip())
    if not got.startswith(os.path.realpath(src) + os.sep):
        raise SystemExit(f"{python} imports speclint from {got or where.stderr.strip()!r}, not from {src}")
    return [python, "-m", "speclint"], env


def _clean_env() -> dict[str, str]:
    keep = ("PATH", "LANG", "LC_ALL", "SYSTEMROOT", "TMPDIR")
    env = {k: v for k, v in os.environ.items() if k in keep}
    env.update(NO_COLOR="1", COLUMNS="100", PYTHONDONTWRITEBYTECODE="1")
    return env


class Snapshotter:
    """Runs one checkout's CLI in a scratch folder and collects normalised sections."""

    def __init__(self, checkout: str, python: str | None, work: str) -> None:
        self.cmd, extra = _runner(os.path.abspath(checkout), python)
        self.work = work
        self.env = {
            **_clean_env(),
            **extra,
            "HOME": os.path.join(work, "home"),
            "XDG_CACHE_HOME": os.path.join(work, "home", ".cache"),
            "HF_HOME": os.path.join(work, "home", "hf"),
        }

    def run(self, title: str, args: Sequence[str]) -> tuple[str, list[str]]:
        """A run to make (they are made later, in parallel, and written in this order)."""
        return title, list(args)

    def make(self, title: str, args: list[str]) -> str:
        proc = subprocess.run(
            [*self.cmd, *args], check=False, cwd=self.work, env=self.env, capture_output=True
        )
        out = _normalise(proc.stdout, self.work)
        err = _normalise(proc.stderr, self.work)
        text = f"{MARK}{title}\n$ speclint {' '.join(args)}\nexit {proc.returncode}\n{out}"
        if err:
            text += f"--- stderr\n{err}"
        return text if text.endswith("\n") else text + "\n"


def _normalise(data: bytes, work: str) -> str:
    text = data.decode("utf-8", errors="backslashreplace")
    for path in {os.path.realpath(work), work}:
        text = text.replace(path, "<TMP>")
    return text


def _files(root: str, sub: str) -> list[str]:
    """Every file under root/sub, as sorted paths relative to root (hidden folders too)."""
    out = []
    for dirpath, dirnames, filenames in os.walk(os.path.join(root, sub)):
        dirnames.sort()
        out += [os.path.relpath(os.path.join(dirpath, f), root) for f in filenames]
    return sorted(out)


def sections(
    snap: Snapshotter, n_launches: int, seed: int, per_file: int, fixtures: str, rules_docs: str | None
) -> Iterator[str | tuple[str, list[str]]]:
    work = snap.work
    shutil.copytree(fixtures, os.path.join(work, "fixtures"))
    if rules_docs and os.path.isdir(rules_docs):
        shutil.copytree(rules_docs, os.path.join(work, "rules"))
    os.makedirs(os.path.join(work, "home"))
    files = _files(work, "fixtures")
    groups = sorted({f.split(os.sep)[1] if f.count(os.sep) > 1 else "." for f in files})
    yield f"{MARK}inputs\n" + "".join(f"{f}\n" for f in files)
    for group in groups:  # one text run per fixture folder: an exit code each
        members = [f for f in files if (f.split(os.sep)[1] if f.count(os.sep) > 1 else ".") == group]
        yield snap.run(f"check text fixtures/{group}", ["check", "--no-cache", *members])
    for fmt in ("concise", "json", "sarif"):
        yield snap.run(f"check {fmt} fixtures", ["check", "--no-cache", "--output-format", fmt, *files])
    yield snap.run(
        "check all rules fixtures",
        ["check", "--no-cache", "--select", "ALL", "--output-format", "json", *files],
    )
    yield snap.run("check a missing file", ["check", "--no-cache", "fixtures/no-such-file.sh", files[0]])
    yield snap.run("check an unknown rule", ["check", "--no-cache", "--select", "NOPE999", files[0]])
    yield snap.run("rules text", ["rules"])
    yield snap.run("rules json", ["rules", "--output-format", "json"])
    docs = _files(work, "rules")
    if docs:
        yield snap.run("check text rules/", ["check", "--no-cache", *docs])
        yield snap.run("check json rules/", ["check", "--no-cache", "--output-format", "json", *docs])
    for gpu in EXPLAIN_GPUS:
        gpu_args = ["--gpu", gpu] if gpu else []
        yield snap.run(f"explain text fixtures gpu={gpu}", ["explain", *gpu_args, *files])
    yield snap.run(
        "explain json fixtures gpu=h100", ["explain", "--output-format", "json", "--gpu", "h100", *files]
    )
    models = os.path.join(work, "models")
    compare_launches.copy_models(models)
    batches = compare_launches.generate(n_launches, seed, per_file, models)
    compare_launches.write(batches, os.path.join(work, "gen"))
    yield (f"{MARK}generated launches\n{n_launches} launches, seed {seed}, {len(batches)} files\n")
    for b in batches:
        path = os.path.join("gen", b.name)
        version = ["--sglang-version", b.version] if b.version else []
        on_gpu = ["--gpu", b.gpu] if b.gpu else []
        tag = f"{b.name} ({b.count} launches) version={b.version}"
        yield snap.run(
            f"check json {tag}",
            ["check", "--no-cache", "--select", "ALL", "--output-format", "json", *version, path],
        )
        yield snap.run(f"check text {tag}", ["check", "--no-cache", *version, path])
        yield snap.run(f"explain text {tag} gpu={b.gpu}", ["explain", *version, *on_gpu, path])
        if b.index % 3 == 1:  # json explain is ~5x the text: a third of the batches
            yield snap.run(
                f"explain json {tag} gpu={b.gpu}",
                ["explain", "--output-format", "json", *version, *on_gpu, path],
            )


def snapshot(
    checkout: str,
    out: str,
    python: str | None = None,
    n_launches: int = 3000,
    seed: int = 20261201,
    per_file: int = 250,
    fixtures: str | None = None,
    rules_docs: str | None = os.path.join(REPO, "rules"),
    jobs: int = 0,
) -> int:
    """Writes the snapshot of `checkout` to `out`; returns the number of speclint runs."""
    runs = 0
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="speclint-compare-") as work:
        snap = Snapshotter(checkout, python, work)
        todo = list(
            sections(snap, n_launches, seed, per_file, fixtures or os.path.join(REPO, "fixtures"), rules_docs)
        )
        runs = sum(not isinstance(item, str) for item in todo)
        with ThreadPoolExecutor(max_workers=jobs or os.cpu_count() or 1) as pool:
            done = pool.map(lambda item: item if isinstance(item, str) else snap.make(*item), todo)
            with open(out + ".part", "w", encoding="utf-8", newline="\n") as f:
                f.writelines(done)
        os.replace(out + ".part", out)
    print(
        f"snapshot of {checkout}: {runs} speclint runs, {os.path.getsize(out)} bytes, "
        f"{time.monotonic() - start:.0f} s -> {out}",
        file=sys.stderr,
    )
    return runs


def _split(text: str) -> list[tuple[str, list[str]]]:
    parts: list[tuple[str, list[str]]] = []
    for line in text.splitlines(keepends=True):
        if line.startswith(MARK) or not parts:
            parts.append((line.rstrip("\n"), []))
        parts[-1][1].append(line)
    return parts


def diff(a: str, b: str, context: int = 40) -> int:
    """0 when the two snapshots are byte-identical; else prints where they differ, 1."""
    with open(a, "rb") as fa, open(b, "rb") as fb:
        da, db = fa.read(), fb.read()
    if da == db:
        print(f"identical: {a} and {b} ({len(da)} bytes)")
        return 0
    sa = dict(_split(da.decode("utf-8", "backslashreplace")))
    sb = dict(_split(db.decode("utf-8", "backslashreplace")))
    titles = list(sa) + [t for t in sb if t not in sa]
    differing = 0
    for title in titles:  # sections matched by title, so one added section shifts nothing
        la, lb = sa.get(title), sb.get(title)
        if la == lb:
            continue
        differing += 1
        if differing > 3:
            continue
        if la is None or lb is None:
            print(f"only in {a if lb is None else b}: {title}")
            continue
        print(f"--- {a}: {title}\n+++ {b}")
        lines = list(difflib.unified_diff(la, lb, n=2))[2:]
        for line in lines[:context]:
            print(line.rstrip("\n")[:300])
        if len(lines) > context:
            print(f"... {len(lines) - context} more diff lines")
    print(f"DIFFERENT: {differing} of {len(titles)} sections differ ({len(da)} vs {len(db)} bytes)")
    return 1


def _git(*args: str) -> str:
    return subprocess.run(
        ["git", "-C", REPO, *args], check=True, capture_output=True, text=True
    ).stdout.strip()


def compare(
    before: str, after: str, python: str | None, venv: bool, keep: str | None, n_launches: int, jobs: int = 0
) -> int:
    """Snapshots two commits (temporary git worktrees) and diffs them."""
    root = keep or tempfile.mkdtemp(prefix="speclint-compare-")
    os.makedirs(root, exist_ok=True)
    snaps = []
    trees = []
    try:
        for name, ref in (("before", before), ("after", after)):
            commit = _git("rev-parse", "--verify", ref + "^{commit}")
            tree = os.path.join(root, name)
            _git("worktree", "add", "--detach", "--force", tree, commit)
            trees.append(tree)
            py = python
            if venv:
                subprocess.run([sys.executable, "-m", "venv", os.path.join(tree, ".venv")], check=True)
                subprocess.run(
                    [os.path.join(tree, ".venv", "bin", "pip"), "install", "-q", "-e", tree], check=True
                )
            elif py is None:
                py = sys.executable
            out = os.path.join(root, f"{name}.txt")
            print(f"{name}: {ref} = {commit[:12]}", file=sys.stderr)
            snapshot(tree, out, None if venv else py, n_launches, jobs=jobs)
            snaps.append(out)
        return diff(snaps[0], snaps[1])
    finally:
        for tree in trees:
            subprocess.run(
                ["git", "-C", REPO, "worktree", "remove", "--force", tree], check=False, capture_output=True
            )
        if keep is None:
            shutil.rmtree(root, ignore_errors=True)
        else:
            print(f"snapshots kept in {root}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    s = sub.add_parser("snapshot", help="write one checkout's snapshot")
    s.add_argument("--checkout", required=True)
    s.add_argument("--out", required=True)
    d = sub.add_parser("diff", help="compare two snapshots byte for byte")
    d.add_argument("a")
    d.add_argument("b")
    c = sub.add_parser("compare", help="snapshot two commits in temporary worktrees, diff")
    c.add_argument("--before", required=True)
    c.add_argument("--after", required=True)
    c.add_argument(
        "--venv",
        action="store_true",
        help="a fresh venv per worktree (pip install -e); default: --python with PYTHONPATH=<worktree>/src",
    )
    c.add_argument("--keep", metavar="DIR", help="keep the snapshots (and work) in DIR")
    for p in (s, c):
        p.add_argument(
            "--python",
            help="interpreter with speclint's dependencies; run as "
            "`python -m speclint` with PYTHONPATH=<checkout>/src "
            "(default for snapshot: <checkout>/.venv/bin/speclint)",
        )
        p.add_argument("--launches", type=int, default=3000)
        p.add_argument("--jobs", type=int, default=0, help="parallel runs (default: CPUs)")
    s.add_argument("--seed", type=int, default=20261201)
    s.add_argument("--per-file", type=int, default=250)
    s.add_argument("--fixtures", help="the fixture folder (default: this repository's)")
    s.add_argument(
        "--rules-docs",
        default=os.path.join(REPO, "rules"),
        help="the rule pages to lint (default: this repository's rules/; '' skips)",
    )
    args = parser.parse_args(argv)
    if args.command == "snapshot":
        snapshot(
            args.checkout,
            args.out,
            args.python,
            args.launches,
            args.seed,
            args.per_file,
            args.fixtures,
            args.rules_docs,
            args.jobs,
        )
        return 0
    if args.command == "diff":
        return diff(args.a, args.b)
    return compare(args.before, args.after, args.python, args.venv, args.keep, args.launches, args.jobs)


if __name__ == "__main__":
    sys.exit(main())
