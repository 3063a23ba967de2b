"""The file format of speclint's per-release data (`speclint.sglang.linedata`): one JSON array,
one element per line (a header, each release's row, then elements the rows share), written
or checked against what is stored. Shared by the generators; `per_release_generator` is the
whole `build` / `dump` / `main` of one that reads each release's wheel on its own."""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Callable, Iterable
from typing import Any


def compact(value: object) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def line_array(header: dict, rows: list[object], shared: list[str]) -> str:
    """`shared`: elements already written as JSON."""
    lines = [compact(header), *(compact(row) for row in rows), *shared]
    return "[\n" + ",\n".join(lines) + "\n]\n"


def check_or_write(path: str, text: str, check: bool, source: str = "the wheels") -> int | None:
    """With `check`, the exit code of comparing `text` (read from `source`) with the stored
    file; else writes it (whole or not at all: a file beside it, then renamed) and returns
    None (the caller says what it wrote)."""
    if check:
        with open(path, encoding="utf-8") as handle:
            same = handle.read() == text
        print("up to date" if same else f"{path} differs from what {source} give")
        return 0 if same else 1
    with open(path + ".tmp", "w", encoding="utf-8") as handle:
        handle.write(text)
    os.replace(path + ".tmp", path)
    return None


def per_release(versions: list[str], readings: Callable[[str], Iterable[tuple[str, object]]]) -> dict:
    """Each release's name -> index of its reading (`readings(version)`: (name, reading)
    pairs, in the order written), the distinct readings stored once."""
    texts: list[str] = []
    index: dict[str, int] = {}
    releases: dict[str, dict[str, int]] = {}
    for version in versions:
        row: dict[str, int] = {}
        for name, reading in readings(version):
            text = compact(reading)
            if text not in index:
                index[text] = len(texts)
                texts.append(text)
            row[name] = index[text]
        releases[version] = row
    return {"format": 1, "versions": versions, "texts": texts, "releases": releases}


def dump_per_release(data: dict) -> str:
    """One JSON array, one element per line: the header, each release's name -> reading
    index, then the distinct readings."""
    header = {"format": data["format"], "versions": data["versions"], "texts": len(data["texts"])}
    return line_array(header, [data["releases"][v] for v in data["versions"]], data["texts"])


def _per_release_said(data: dict, text: str) -> str:
    return f"{len(data['versions'])} releases, {len(data['texts'])} readings, {len(text)} bytes"


def generator_main(
    argv: list[str] | None,
    description: str,
    out: str,
    versions: Callable[[list[str], str], list[str]] | None,
    build: Callable[..., Any],
    dump: Callable[[Any], str] = dump_per_release,
    said: Callable[[Any, str], str] = _per_release_said,
    caches: dict[str, str | tuple[str | None, str]] | None = None,
    every: tuple[str, Callable[[], list[str]]] | None = None,
    source: str = "the wheels",
) -> int:
    """A generator's command line: `[versions...] [--out PATH] [--check]`, and one
    `--NAME PATH` per entry of `caches` (NAME with dashes; a cache of wheels, or another
    folder read, passed to `build` by keyword; its default, or (default, help)). `versions(given,
    out)`: the releases to read, from those given (often: those, else the ones stored);
    `build(versions, **caches)` reads them (`versions` None: a generator that reads no
    releases, `build(**caches)`), `dump` gives the file's text; with `--check` it is compared
    with `out` (exit 1 when they differ), else written and `said(data, text)` tells what was.
    `every`: (help, releases) of an `--all` that reads those releases instead of the ones given;
    `source`: what the file is read from, in `--check`'s message."""
    ap = argparse.ArgumentParser(description=description)
    if versions is not None:
        ap.add_argument("versions", nargs="*", help="releases (default: those stored now)")
    if every is not None:
        ap.add_argument("--all", action="store_true", help=every[0])
    ap.add_argument("--out", default=out)
    for name, default in (caches or {}).items():
        default, told = default if isinstance(default, tuple) else (default, None)
        ap.add_argument("--" + name.replace("_", "-"), default=default, help=told)
    ap.add_argument("--check", action="store_true", help="compare with the stored file, write nothing")
    args = ap.parse_args(argv)
    folders = {name: getattr(args, name) for name in caches or {}}
    if versions is None:
        data = build(**folders)
    else:
        given = every[1]() if every is not None and args.all else args.versions
        data = build(versions(given, args.out), **folders)
    text = dump(data)
    code = check_or_write(args.out, text, args.check, source)
    if code is not None:
        return code
    print(f"wrote {args.out}: {said(data, text)}")
    return 0


def per_release_generator(
    doc: str | None,
    out: str,
    read_release: Callable[[str], Iterable[tuple[str, object]]],
) -> tuple[Callable[..., dict], Callable[[dict], str], Callable[..., int]]:
    """`build`, `dump` and `main` of a generator that reads each release's wheel on its own:
    `read_release(wheel path)` gives its (name, reading) pairs, in the order written.
    `build(versions, cache)` reads the releases in release order (`per_release`), `dump` is
    `dump_per_release`, `main(argv)` the command line (`generator_main`: described by `doc`'s
    first line, writing or checking `out`, by default for the releases the flag schema stores)."""
    # the flag schema's reader, imported here: the users of the format alone (gen_torchrun,
    # gen_sglang_router, gen_dynamo_sglang) do not load it
    from gen_sglang_schema import CACHE, release_key, stored_versions, wheel_path

    def build(versions: list[str], cache: str = CACHE) -> dict:
        return per_release(
            sorted(versions, key=release_key), lambda version: read_release(wheel_path(version, cache))
        )

    def main(argv: list[str] | None = None) -> int:
        return generator_main(
            argv, (doc or "").splitlines()[0], out, lambda given, _out: given or stored_versions(), build
        )

    return build, dump_per_release, main
