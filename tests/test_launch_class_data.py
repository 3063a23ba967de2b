"""The stored launch classes (src/speclint/sglang/data/sglang_launch_classes.json) are what
tools/gen_sglang_launch_classes.py reads from each release's wheel; the generator follows
SGLang's import path on a wheel written here, so its reading rules are checked offline."""

from __future__ import annotations

import os
import sys
import zipfile
from pathlib import Path

from regenerated import assert_regenerates, use_tools

from speclint.sglang.flags.schema import supported_versions
from speclint.sglang.launch_classes import _DATA, class_names, class_of, read_versions, releases_with

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, os.path.join(ROOT, "tools"))


def test_every_release_the_flags_cover_was_read_for_launch_classes():
    assert set(read_versions()) == set(supported_versions())


def test_runtime_is_exported_by_every_release_and_keeps_launch_timeout_from_0_5_7():
    assert releases_with("Runtime") == read_versions()
    old, before, new = (
        class_of("0.4.0", "Runtime"),
        class_of("0.5.6.post2", "Runtime"),
        class_of("0.5.7", "Runtime"),
    )
    assert old is not None and before is not None and new is not None
    assert (old.exported, old.path) == ("sglang.api", ("sglang.api", "sglang.srt.server"))
    assert before.path == ("sglang.lang.api", "sglang.lang.backend.runtime_endpoint")
    assert old.params == before.params == (("log_level", "'error'"),)
    assert new.params == (("log_level", "'error'"), ("launch_timeout", "300.0"))
    assert new.forwarded == (("log_level", "log_level"),) and new.consumed == ("launch_timeout",)
    assert new.args and new.kwargs


def test_http_engine_adapter_ships_from_0_4_5_post1_and_passes_every_keyword():
    having = releases_with("HttpServerEngineAdapter")
    assert having[0] == "0.4.5.post1" and having[-1] == read_versions()[-1]
    adapter = class_of(having[-1], "HttpServerEngineAdapter")
    assert adapter is not None and adapter.exported is None
    assert (adapter.params, adapter.consumed, adapter.args, adapter.kwargs) == ((), (), False, True)


def test_the_names_a_call_may_use_are_those_of_the_releases():
    names = class_names()
    assert names["sglang.Runtime"] == names["sglang.lang.backend.runtime_endpoint.Runtime"] == "Runtime"
    assert (
        names["sglang.srt.entrypoints.http_server_engine.HttpServerEngineAdapter"]
        == "HttpServerEngineAdapter"
    )
    assert "sglang.RuntimeEndpoint" not in names and "sglang.HttpServerEngineAdapter" not in names


def _wheel(tmp_path: Path, files: dict[str, str]) -> str:
    path = tmp_path / "sglang-9.9.9-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as archive:
        for name, text in files.items():
            archive.writestr(name, text)
    return str(path)


RUNTIME_CLASS = """
class Runtime:
    def __init__(self, log_level: str = "error", launch_timeout: float = 300.0, *args, **kwargs):
        requested_port = kwargs.pop("port", 30000)
        self.server_args = ServerArgs(*args, log_level=log_level, port=requested_port, **kwargs)
        proc = mp.Process(target=launch_server, args=(self.server_args,))
"""


def test_the_generator_follows_the_package_import_and_the_forwarding_function(tmp_path):
    from gen_sglang_launch_classes import read_release

    wheel = _wheel(
        tmp_path,
        {
            "sglang/__init__.py": "from sglang.lang.api import (\n    Engine,\n    Runtime,\n)\n",
            "sglang/lang/api.py": (
                "def Runtime(*args, **kwargs):\n"
                "    from sglang.lang.backend.runtime_endpoint import Runtime\n"
                "    return Runtime(*args, **kwargs)\n"
            ),
            "sglang/lang/backend/runtime_endpoint.py": RUNTIME_CLASS,
        },
    )
    assert read_release(wheel) == {
        "Runtime": {
            "exported": "sglang.lang.api",
            "path": ["sglang.lang.api", "sglang.lang.backend.runtime_endpoint"],
            "starts": "mp.Process(target=launch_server, args=(self.server_args,))",
            "params": [["log_level", "'error'"], ["launch_timeout", "300.0"]],
            "forwarded": {"log_level": "log_level"},
            "consumed": ["launch_timeout"],
            "args": True,
            "kwargs": True,
            "set_by_class": {"port": "requested_port"},
            "popped": ["port"],
        }
    }


def test_the_generator_skips_a_runtime_that_starts_no_server_or_is_not_exported(tmp_path):
    from gen_sglang_launch_classes import read_release

    quiet = RUNTIME_CLASS.replace("proc = mp.Process(target=launch_server, args=(self.server_args,))", "pass")
    assert (
        read_release(
            _wheel(
                tmp_path, {"sglang/__init__.py": "from sglang.api import Runtime\n", "sglang/api.py": quiet}
            )
        )
        == {}
    )
    assert (
        read_release(_wheel(tmp_path, {"sglang/__init__.py": "x = 1\n", "sglang/api.py": RUNTIME_CLASS}))
        == {}
    )


def test_regenerating_from_the_cached_wheels_reproduces_the_stored_classes():
    use_tools()
    from gen_sglang_launch_classes import build, dump

    assert_regenerates(_DATA, read_versions(), lambda: dump(build(list(read_versions()))))
