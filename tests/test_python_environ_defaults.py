"""`os.environ.get(NAME, default)` and `os.getenv(NAME, default)` are the default (as shell's
`${NAME:-default}` and `os.environ.setdefault` are read), or what the file set NAME to before;
without a default, the value is unknown. `int("30000")` of a known integer text is the number."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.frontends import extract_file

FILE = FixtureFile("python/environ_defaults.py")


def _args() -> dict[str, str | None]:
    (launch,) = extract_file(str(FILE.path), FILE.text).launches
    words = launch.args
    return {
        word.text: (None if words[i + 1].dynamic_reason else words[i + 1].text)
        for i, word in enumerate(words[:-1])
        if (word.text or "").startswith("--")
    }


def test_defaults_and_values_set_by_the_file() -> None:
    assert _args() == {
        "--model-path": "Qwen/Qwen3-8B",
        "--tp-size": "two",
        "--port": "30000",
        "--dp-size": "2",  # the file set DP_SIZE before it reads it
        "--tokenizer-path": None,  # no default: what the environment holds
        "--pp-size": "1",
    }


def test_an_invalid_default_is_reported_where_the_launch_reads_it() -> None:
    findings = FILE.findings()
    assert [f[:4] for f in findings] == [("FLG005", 18, 22, "TP"), ("SLM004", 21, 29, "TOKENIZER")]
    assert findings[0][4].startswith("`two` is not a valid value for `--tp-size`")
    assert "environment variable TOKENIZER_PATH (read when the program runs)" in findings[1][4]
