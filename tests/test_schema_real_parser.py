"""The stored SGLang flag schema against SGLang's real argparse parser (oracle tests).

Run with `pytest -m oracle tests/test_schema_real_parser.py`. The first run downloads the
0.5.23 wheel and builds `.cache/sglang-oracle-0.5.23/` (about a minute); later runs
take a few seconds. See tools/README.md.
"""

from __future__ import annotations

import json
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))

VERSION = "0.5.23"
DATA = os.path.join(ROOT, "src", "speclint", "sglang", "flags", "data", "sglang_flags.json")
pytestmark = pytest.mark.oracle


def _stored():
    from gen_sglang_schema import load

    data = load(DATA)
    return [data["flags"][i] for i in data["order"][VERSION]], data


def _facts(data):
    return data["parser"]["facts"][data["parser"]["by_version"][VERSION]]


@pytest.fixture(scope="module")
def real():
    from sglang_real_parser import real_parser

    return real_parser(VERSION)


def _plain(value):
    return json.loads(json.dumps(value))


def _type_kind(action):
    name, module = action["type_name"], action["type_module"]
    if name is None:
        return None
    if name in ("str", "int", "float"):
        return name
    if (module, name) == ("json", "loads"):
        return "json"
    # SGLang's own json_list_type (orjson from 0.5.3.post2) is "other": the schema leaves its
    # conversion to flags.value_types, which converts it as the release's function does
    return "other"


def test_parser_construction(real):
    _, data = _stored()
    facts = _facts(data)
    assert facts["allow_abbrev"] is real["allow_abbrev"] is True
    assert facts["prefix_chars"] == real["prefix_chars"] == "-"


def test_every_action_matches_the_real_parser(real):
    stored, _ = _stored()
    # argparse adds -h/--help itself; the schema lists only what add_cli_args registers.
    actions = [a for a in real["actions"] if a["action_kind"] != "help"]
    assert [a["option_strings"] for a in actions] == [f["option_strings"] for f in stored]
    problems = []
    for action, flag in zip(actions, stored):
        where = action["option_strings"][0]

        def check(what, real_value, stored_value, where=where):
            if real_value != stored_value:
                problems.append(f"{where} {what}: real {real_value!r} != stored {stored_value!r}")

        check("dest", action["dest"], flag["dest"])
        check("nargs", action["nargs"], flag["nargs"])
        kind = action["action_kind"]
        if kind is None:  # a custom argparse.Action subclass
            kind = "deprecated" if "Deprecat" in action["action_class"] else "other"
            check("action_class", action["action_class"], flag.get("action_class"))
        check("action", kind, flag["action"])
        check("type", _type_kind(action), flag["type"])
        if _type_kind(action) == "other":
            check("type_name", action["type_name"], flag.get("type_name"))
        choices = action["choices"]
        if choices is not None and action["choices_is_set"]:
            choices = sorted(choices)  # a set: the schema stores it sorted
        check("choices", _plain(choices), flag["choices"])
        for key in ("default", "const"):
            value = action[key]
            if isinstance(value, dict) and "unserialisable" in value:
                continue  # not JSON; the schema records the source text instead
            check(key, _plain(value), flag[key])
        check("required", bool(action["required"]), bool(flag.get("required")))
    assert not problems, f"{len(problems)} mismatches:\n" + "\n".join(problems[:60])


def test_flag_count(real):
    actions = [a for a in real["actions"] if a["action_kind"] != "help"]
    assert len(actions) == len(_stored()[0]) == 531


def test_regenerating_reproduces_the_stored_entries():
    from gen_sglang_schema import extract

    flags, facts = extract(VERSION)
    stored, data = _stored()
    assert [{k: v for k, v in f.items() if k != "versions"} for f in stored] == _plain(flags)
    assert _facts(data) == _plain(facts)
