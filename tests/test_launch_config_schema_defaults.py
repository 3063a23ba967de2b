"""A bench script's schema of a release has fields of its own (`--batch-size`, `--run-name`):
the values of fields nobody set are kept per schema, so a server launch of the same release
never answers with a bench field's default after a bench launch was read."""

from __future__ import annotations

from speclint.core.spans import Span
from speclint.core.words import Word
from speclint.sglang.bench import bench_schema
from speclint.sglang.flags.argv import parse_argv
from speclint.sglang.flags.launch_config import LaunchConfig
from speclint.sglang.flags.schema import load_schema

RELEASE = "0.5.6.post2"


def test_a_bench_fields_default_is_not_a_server_launchs_value() -> None:
    server = load_schema(RELEASE)
    bench = bench_schema(server, "sglang.bench_one_batch")
    only_bench = sorted(
        dest
        for dest in bench.by_dest
        if dest not in server.by_dest and bench.by_dest[dest].default is not None
    )
    assert only_bench, "the bench script has fields with defaults of its own"
    dest = only_bench[0]
    argv = [Word(text, Span(1, 1 + 20 * n, 1, 10 + 20 * n)) for n, text in enumerate(["--model-path", "m"])]
    for _ in range(5):  # (past the launches after which a release's table is made)
        bench_config = LaunchConfig(parse_argv(bench, argv))
        assert bench_config.value(dest) == bench.by_dest[dest].default
        assert bench_config.values_of((dest,)) == {dest: bench.by_dest[dest].default}
    for _ in range(5):
        server_config = LaunchConfig(parse_argv(server, argv))
        assert server_config.get(dest).value is None
        assert server_config.values_of((dest,)) == {dest: None}
