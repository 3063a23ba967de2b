"""`LaunchConfig` answers `value`, `known`, `given` and `known_value` of a launch whose words
were all read from a table made once per release (its given fields replaced): every answer is
the one its method works out, for every field of the release and for a name it lacks."""

from __future__ import annotations

import pytest

from speclint.core.spans import Span
from speclint.core.words import Word
from speclint.sglang.flags import launch_config
from speclint.sglang.flags.argv import parse_argv
from speclint.sglang.flags.launch_config import _TABLE_AFTER, UNKNOWN_VALUE, LaunchConfig
from speclint.sglang.flags.schema import load_schema, supported_versions

SPAN = Span(1, 1, 1, 2)
MARKER = object()


def words(*texts: str | None) -> list[Word]:
    return [Word(text, SPAN, dynamic_reason=None if text is not None else "`$(...)`") for text in texts]


LAUNCHES = {
    "defaults only": words("--model-path", "m"),
    "given fields": words(
        "--model-path", "m", "--tp", "2", "--speculative-algorithm", "EAGLE", "--disable-radix-cache"
    ),
    "a flag given twice": words("--tp", "2", "--mem-fraction-static", "0.8", "--tp", "4"),
    "an unread word": words("--model-path", "m", None, "--tp", "2"),
    "an unread value": words("--model-path", "m", "--tp", None),
    "an unknown flag": words("--model-path", "m", "--no-such-flag", "1"),
}


def configured(version: str, name: str) -> LaunchConfig:
    """The launch's config once its release has a table (made after a few launches)."""
    for _ in range(_TABLE_AFTER + 1):
        LaunchConfig(parse_argv(load_schema(version), LAUNCHES["defaults only"]))
    return LaunchConfig(parse_argv(load_schema(version), LAUNCHES[name]))


def test_a_few_launches_make_no_table(monkeypatch):
    """A run of a few files does not decode every definition of the release."""
    monkeypatch.setattr(launch_config, "_RELEASE_VALUES", {})  # (as in a new process)
    schema = load_schema(supported_versions()[1])
    configs = [LaunchConfig(parse_argv(schema, LAUNCHES["defaults only"])) for _ in range(_TABLE_AFTER)]
    assert all(config.known_values is None for config in configs)
    assert LaunchConfig(parse_argv(schema, LAUNCHES["defaults only"])).known_values is not None


@pytest.mark.parametrize("version", [supported_versions()[0], supported_versions()[-1]])
@pytest.mark.parametrize("name", list(LAUNCHES))
def test_every_answer_is_the_methods(version, name):
    config = configured(version, name)
    fields = [*config.schema.by_dest, "no_such_field"]
    assert config.every_word_read == (name != "an unread word")
    assert (config.known_values is not None) == config.every_word_read
    for dest in fields:
        assert config.value(dest) == LaunchConfig.value(config, dest), dest
        assert config.value(dest, MARKER) == LaunchConfig.value(config, dest, MARKER), dest
        assert config.known(dest) == LaunchConfig.known(config, dest), dest
        assert config.given(dest) == LaunchConfig.given(config, dest), dest
        assert config.maybe_given(dest) == LaunchConfig.maybe_given(config, dest), dest
        expected = LaunchConfig.known_value(config, dest, MARKER)
        assert config.known_value(dest, MARKER) == expected, dest
        if config.known_values is not None:
            found = config.known_values.get(dest)
            assert (MARKER if found is UNKNOWN_VALUE else found) == expected, dest


def test_the_given_fields_answer_as_given():
    config = configured(supported_versions()[-1], "a flag given twice")
    assert config.value("tp_size") == 4 and config.known("tp_size") and config.given("tp_size")
    assert not config.given("pp_size") and config.known("pp_size")
    assert config.value("no_such_field", MARKER) is MARKER and not config.known("no_such_field")
    assert config.known_value("no_such_field", MARKER) is None


def test_a_value_given_unread_is_not_known():
    """`--tp $(...)`: every word is there to read (the flag takes it), its value is not known."""
    config = configured(supported_versions()[-1], "an unread value")
    assert config.every_word_read and config.given("tp_size") and not config.known("tp_size")
    assert config.known_value("tp_size", MARKER) is MARKER
    assert config.known_values is not None and config.known_values["tp_size"] is UNKNOWN_VALUE
    assert config.known("model_path") and config.known_value("model_path", MARKER) == "m"
