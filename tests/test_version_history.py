"""The flag history derived from the stored schemas (every release 0.4.0 - 0.5.23), for the
examples of issue #9, and version choice / resolver fallback for unmodelled releases."""

from __future__ import annotations

from unmodelled import unmodelled

from speclint.rules.context import VersionChoice
from speclint.sglang.flags import history
from speclint.sglang.flags.versions import choose_version, installed_version, pinned_version
from speclint.sglang.traits import modelled_release, traits_for


def test_cuda_graph_max_bs_split_and_alias():
    found = history.removal("--cuda-graph-max-bs", "0.5.23")
    assert (found.kind, found.last, found.deprecated_since) == ("split", "0.5.19", "0.5.14")
    assert [r.text for r in found.split_into] == ["--cuda-graph-max-bs-decode", "--cuda-graph-max-bs-prefill"]
    # 0.5.14-0.5.19: DeprecatedAliasStoreAction storing into cuda_graph_max_bs_decode
    assert [r.text for r in found.replacements] == ["--cuda-graph-max-bs-decode"]
    assert found.value_preserving
    assert history.first_ambiguous("--cuda-graph-max-bs", "0.5.23") == "0.5.20"
    cuda_bs = history.removal("--cuda-graph-bs", "0.5.23")
    assert cuda_bs.kind == "split" and cuda_bs.replacements[0].text == "--cuda-graph-bs-decode"


def test_speculative_draft_prefix():
    meaning = history.prefix_meaning("--speculative-draft", "0.5.23")
    assert (meaning.option, meaning.last) == ("--speculative-draft-model-path", "0.5.1.post3")
    assert history.first_ambiguous("--speculative-draft", "0.5.23") == "0.5.2"


def test_names_the_issue_lists_never_existed_since_0_4_0():
    for name in ("--draft-model-path", "--num-speculative-steps", "--eagle-topk", "--num-draft-tokens"):
        assert history.appeared(name) is None
        assert history.removal(name, "0.5.23") is None
    assert history.appeared("--speculative-num-steps") == ("0.4.1.post4", "0.5.23")


def test_renames_removals_and_constants():
    stream = history.removal("--stream-output", "0.5.23")
    assert (stream.kind, stream.last) == ("renamed", "0.5.19")
    assert stream.replacements[0].text == "--incremental-streaming-output"
    piecewise = history.removal("--disable-piecewise-cuda-graph", "0.5.23")
    assert piecewise.replacements[0].text == "--cuda-graph-backend-prefill disabled"
    ep = history.removal("--enable-ep-moe", "0.5.23")
    assert ep.last == "0.5.4" and not ep.value_preserving and "--ep-size" in ep.note
    ngram = history.removal("--speculative-ngram-max-match-window-size", "0.5.23")
    assert (ngram.kind, ngram.last, ngram.replacements) == ("removed", "0.5.9", ())
    assert history.removal("--tp-size", "0.5.23") is None


def test_speculative_algorithm_choices_timeline():
    timeline = history.choice_timeline("--speculative-algorithm")
    assert timeline[0] == ("0.4.1.post4", ("EAGLE",))
    assert ("0.4.4.post2", ("EAGLE", "EAGLE3", "NEXTN")) in timeline
    assert timeline[-1] == ("0.5.12", None)  # any text from 0.5.12 (upper-cased later)


def test_default_changes():
    found = {c.what: c for c in history.changes("--load-balance-method", "0.5.6.post2", "0.5.23")}
    assert (found["default"].before, found["default"].after, found["default"].since) == (
        "round_robin",
        "auto",
        "0.5.8",
    )


def test_resolver_falls_back_to_closest_older_modelled_release():
    assert modelled_release("0.5.23") == "0.5.23"
    assert modelled_release("0.5.22") == "0.5.22"  # recorded (tests/data/oracle)
    from speclint.sglang.flags.versions import supported_versions, version_key
    from speclint.sglang.traits import TRAITS

    oldest = min(TRAITS, key=version_key)
    assert modelled_release("0.4.0") == oldest  # before the oldest modelled one
    assert set(supported_versions()) <= set(TRAITS)  # every bundled release: read or recorded
    with unmodelled("0.5.6.post1"):  # neither read nor recorded: the closest older modelled one
        assert modelled_release("0.5.6.post1") == "0.5.6"
        assert traits_for("0.5.6.post1") is traits_for("0.5.6")
    assert modelled_release("0.5.6.post1") == "0.5.6.post1"


def test_version_sources(tmp_path, monkeypatch):
    (tmp_path / "requirements-serve.txt").write_text("torch\nsglang[all]==0.5.6.post2\n")
    script = tmp_path / "deploy" / "launch.sh"
    script.parent.mkdir()
    script.write_text("")
    assert pinned_version(str(script)) == ("0.5.6.post2", str(tmp_path / "requirements-serve.txt"))
    assert choose_version(None, None, path=str(script)).version == "0.5.6.post2"
    assert choose_version(None, "lmsysorg/sglang:v0.5.14", path=str(script)).version == "0.5.14"
    assert choose_version(None, None, configured="0.5.22", path=str(script)) == VersionChoice(
        "0.5.22", "from [tool.speclint] sglang-version"
    )
    assert choose_version("0.5.9", None, configured="0.5.22").version == "0.5.9"
    (script.parent / "pyproject.toml").write_text('[project]\ndependencies = ["sglang==0.5.13"]\n')
    assert choose_version(None, None, path=str(script)).version == "0.5.13"
    site = tmp_path / "site"
    (site / "sglang-0.5.20.dist-info").mkdir(parents=True)
    monkeypatch.syspath_prepend(str(site))
    installed_version.cache_clear()
    try:
        assert installed_version() == "0.5.20"
        assert choose_version(None, None) == VersionChoice("0.5.20", "the installed sglang distribution")
    finally:
        installed_version.cache_clear()


def test_a_pin_is_looked_for_only_in_a_file_that_names_sglang_as_the_pattern_does(tmp_path):
    """The pin's pattern is compiled and searched only where the text, case-folded, has
    "sglang": every character its IGNORECASE takes for one of those letters folds to it."""
    import re
    import sys

    from speclint.sglang.flags.versions import _may_pin

    letters = re.compile("[sglan]", re.IGNORECASE)
    folded_elsewhere = [
        hex(point)
        for point in range(sys.maxunicode + 1)
        if letters.fullmatch(chr(point)) and chr(point).casefold() not in ("s", "g", "l", "a", "n")
    ]
    assert folded_elsewhere == []
    assert _may_pin("SGLang==0.5.9") and _may_pin("\u017fglang==0.5.9") and not _may_pin("torch==2.4\n")
    (tmp_path / "requirements.txt").write_text("\u017fGLANG==0.5.6.post2\n")  # (long s: the pattern's too)
    assert pinned_version(str(tmp_path / "launch.sh")) == ("0.5.6.post2", str(tmp_path / "requirements.txt"))
