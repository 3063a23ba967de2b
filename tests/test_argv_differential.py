"""The argv parser must agree with CPython's argparse built from the same generated schema:
same acceptance, same values, for abbreviations, aliases, `=` forms, nargs, types, choices."""

from __future__ import annotations

import argparse
import json
import sys

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from speclint.core.spans import Span
from speclint.core.words import Word
from speclint.sglang.flags.argparse_stop import argparse_stop
from speclint.sglang.flags.argv import parse_argv
from speclint.sglang.flags.launch_config import LaunchConfig
from speclint.sglang.flags.schema import load_schema, supported_versions
from speclint.sglang.flags.value_types import convert, converted_dests

_TYPES = {"int": int, "float": float, "json": json.loads}


class _Refused(Exception):
    pass


class _Help(Exception):
    pass


class _StrictParser(argparse.ArgumentParser):
    def print_help(self, file=None):
        raise _Help()  # argparse's -h/--help: prints the help, then exits 0

    def error(self, message):
        raise _Refused(message)

    def exit(self, status=0, message=None):
        raise _Refused(message or "")


class _StoreConst(argparse.Action):
    """Stand-in for SGLang's Deprecated*Action classes: stores `const` (whatever value is given)."""

    def __init__(self, option_strings, dest, const_value=None, **kwargs):
        self.const_value = const_value
        super().__init__(option_strings, dest, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None):
        setattr(namespace, self.dest, self.const_value)


class _NoOp(argparse.Action):
    def __call__(self, parser, namespace, values, option_string=None):
        pass


def _sglang_type(version: str, dest: str):
    """The release's own type function of `dest` as argparse calls it: the value, or
    ArgumentTypeError with its message (`value_types` converts as each release's function does:
    its generator runs the function from every wheel on a battery, tests/test_value_types*.py)."""

    def convert_text(text: str) -> object:
        converted = convert(version, dest, text)
        assert converted is not None, dest
        value, error = converted
        if error is not None:
            raise argparse.ArgumentTypeError(error)
        return value

    convert_text.__name__ = converted_dests(version)[dest]
    return convert_text


def build_argparse(schema) -> argparse.ArgumentParser:
    parser = _StrictParser(allow_abbrev=schema.allow_abbrev, add_help="-h" in schema.by_option)
    for spec in schema.flags:
        kwargs = {"dest": spec.dest}
        if spec.required:
            kwargs["required"] = True
        if spec.action_class in ("DeprecatedStoreTrueAction", "DeprecatedStoreConstAction"):
            kwargs.update(action=_StoreConst, const_value=spec.const, nargs=spec.nargs)
            if spec.choices is not None:
                kwargs["choices"] = list(spec.choices)
            parser.add_argument(*spec.option_strings, default=spec.default, **kwargs)
            continue
        if spec.action_class == "DeprecatedAction":
            parser.add_argument(
                *spec.option_strings, default=spec.default, action=_NoOp, nargs=spec.nargs, **kwargs
            )
            continue
        if spec.action in ("store_true", "store_false"):
            kwargs["action"] = spec.action
        elif spec.action == "boolean_optional":
            kwargs["action"] = argparse.BooleanOptionalAction
            options = [o for o in spec.option_strings if not o.startswith("--no-")]
            parser.add_argument(*options, default=spec.default, **kwargs)
            continue
        elif spec.action in ("store_const", "append_const"):
            kwargs["action"] = spec.action
            kwargs["const"] = spec.const
        elif spec.action == "count":
            kwargs["action"] = "count"
        elif spec.action in ("help", "version"):
            continue
        else:
            kwargs["action"] = "append" if spec.action == "append" else "store"
            if spec.nargs is not None:
                kwargs["nargs"] = spec.nargs
            if spec.nargs == "?":
                kwargs["const"] = spec.const
            if spec.type in _TYPES:
                kwargs["type"] = _TYPES[spec.type]
            elif spec.type == "other" and spec.dest in converted_dests(schema.version):
                kwargs["type"] = _sglang_type(schema.version, spec.dest)
            if spec.choices is not None and (spec.type != "other" or "type" in kwargs):
                kwargs["choices"] = list(spec.choices)  # (checked on the converted value)
        parser.add_argument(*spec.option_strings, default=spec.default, **kwargs)
    return parser


REQUIRED = ["--model-path", "m"]


def _words(texts):
    return [Word(t, Span(1, 1 + i * 10, 1, 1 + i * 10 + len(t))) for i, t in enumerate(texts)]


def argparse_read_alike(argv: list[str]) -> bool:
    """Whether this Python's argparse reads `argv` as 3.10-3.12's does, which speclint follows:
    3.13's keeps `--` given as an option's value (`--api-key=--`), where before the option got
    no value (a list, or its const)."""
    return sys.version_info < (3, 13) or not any(word.endswith("=--") for word in argv)


def _agree(schema, parser, argv):
    argv = [*REQUIRED, *argv] if "--model" not in " ".join(argv) else list(argv)
    try:
        namespace = vars(parser.parse_args(argv))
        refused = None
    except _Refused as exc:
        namespace, refused = None, str(exc)
    except _Help:
        namespace, refused = None, "help"
    parsed = parse_argv(schema, _words(argv))
    stop = argparse_stop(parsed)
    if refused == "help":
        assert stop is not None and stop.kind == "help", f"argparse printed help for {argv}: {stop}"
        return
    if refused is not None:
        assert parsed.problems, f"argparse refused {argv} ({refused}) but speclint accepted it"
        assert stop is not None and stop.kind == "error", f"{argv}: {refused} but {stop}"
        return
    assert stop is None, f"argparse accepted {argv} but speclint stops it: {stop}"
    assert not parsed.problems, f"argparse accepted {argv} but speclint reported {parsed.problems}"
    config = LaunchConfig(parsed)
    for dest, value in namespace.items():
        assert config.value(dest) == value, f"{dest} for {argv}"


CORE_VERSIONS = ("0.4.10.post2", "0.5.6.post2", "0.5.14", "0.5.23")
"""The releases every default run checks; the oldest, the first 0.5 and one in between
stand for the rest. SPECLINT_ALL_VERSIONS=1 checks every supported release."""
_SAMPLE_VERSIONS = ("0.4.0", "0.5.1", "0.5.10")
VERSIONS = (
    supported_versions()
    if __import__("os").environ.get("SPECLINT_ALL_VERSIONS") == "1"
    else tuple(v for v in supported_versions() if v in CORE_VERSIONS + _SAMPLE_VERSIONS)
)


@pytest.fixture(scope="module", params=VERSIONS)
def schema_and_parser(request):
    schema = load_schema(request.param)
    return schema, build_argparse(schema)


@pytest.mark.parametrize(
    "argv",
    [
        ["--tp", "8"],
        ["--tp-size", "8", "--tensor-parallel-size", "4"],
        ["--model", "m"],
        ["--model-path=m"],
        ["--speculative-algo", "EAGLE3"],
        ["--speculative-num-draft", "4"],
        ["--speculative-eagle", "2"],
        ["--cuda-graph-max-bs", "8"],
        ["--speculative-draft", "d"],
        ["--tp-size"],
        ["--tp-size", "x"],
        ["--tp-size", "-1"],
        ["--mem-fraction-static", "0.8"],
        ["--enable-mixed-chunk"],
        ["--enable-mixed-chunk=1"],
        ["--load-format", "nope"],
        ["stray"],
        ["--model-path", "m", "--", "x"],
        ["--model-path", "has space"],
        ["--speculative-eagle-top-k", "4"],
        ["--monokernel-backend=--"],  # 0.5.23: an action that stores its const, whatever argparse hands it
        ["--monokernel-backend", "amd"],
        ["--context-length", "32k"],  # SGLang's own type functions (value_types)
        ["--context-length", "32K"],
        ["--cuda-graph-config", "[1, 2]"],
        ["--cuda-graph-config", "{}"],
        ["--quantization-param-path", "None"],
    ],
)
def test_known_cases_agree_with_argparse(schema_and_parser, argv):
    schema, parser = schema_and_parser
    if not argparse_read_alike(argv):
        pytest.skip("Python 3.13's argparse reads `--` given as a value otherwise")
    _agree(schema, parser, argv)


def _token_strategy(schema):
    options = sorted(schema.by_option)
    prefixes = st.builds(lambda o, n: o[: max(3, len(o) - n)], st.sampled_from(options), st.integers(0, 12))
    values = st.sampled_from(
        ["1", "8", "-1", "0.5", "x", "EAGLE", "EAGLE3", "auto", "", "a b", "--", "1e3", "[1, 2]", "true"]
    )
    joined = st.builds(lambda o, v: f"{o}={v}", st.one_of(st.sampled_from(options), prefixes), values)
    return st.one_of(st.sampled_from(options), prefixes, values, joined)


@pytest.mark.parametrize("version", VERSIONS)
def test_random_argvs_agree_with_argparse(version):
    schema = load_schema(version)
    parser = build_argparse(schema)

    @settings(
        max_examples=int(__import__("os").environ.get("SPECLINT_FUZZ_EXAMPLES", "300")),
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(st.lists(_token_strategy(schema), max_size=8))
    def run(argv):
        assume(argparse_read_alike(argv))
        _agree(schema, parser, argv)

    run()
