"""One finding per problem: a general rule gives way to the specific rule that explains the
same token or the same rejection, and only on that launch."""

from __future__ import annotations

from speclint.core.findings import Finding, Severity
from speclint.core.spans import Span
from speclint.engine import lint_text
from speclint.rules import all_rules
from speclint.rules.precedence import REJECTION, drop_deferred
from speclint.settings.options import LintOptions, Selection

LAUNCH = "python -m sglang.launch_server --model-path m "


def _codes(text: str, version: str = "0.5.23", select: tuple[str, ...] = ()) -> list[tuple[str, int]]:
    options = LintOptions(version, Selection(select), read_pyproject=False)
    return [(f.code, f.span.column) for f in lint_text(text, "launch.sh", options).findings]


def test_enable_dp_attention_is_explained_once_by_par003():
    text = LAUNCH + "--tp-size 8 --dp-size 8 --enable-dp-attention"
    codes = _codes(text)
    column = text.index("--enable-dp-attention") + 1
    assert ("PAR003", column) in codes and ("FLG008", column) not in codes


def test_a_deferring_rule_still_reports_other_tokens_of_the_launch():
    text = LAUNCH + "--tp-size 8 --dp-size 8 --enable-dp-attention --disable-cuda-graph"
    codes = _codes(text)
    assert ("FLG008", text.index("--disable-cuda-graph") + 1) in codes
    assert ("PAR003", text.index("--enable-dp-attention") + 1) in codes


def test_the_general_rule_reports_when_the_specific_one_is_not_selected():
    text = LAUNCH + "--tp-size 8 --dp-size 8 --enable-dp-attention"
    assert ("FLG008", text.index("--enable-dp-attention") + 1) in _codes(text, select=("FLG008",))


def test_a_rejection_is_reported_by_the_rule_that_explains_it_not_also_by_spd009():
    text = LAUNCH + "--tp-size 6 --dp-size 4 --enable-dp-attention"
    codes = [code for code, _ in _codes(text, "0.5.14")]
    assert "PAR002" in codes and "SPD009" not in codes
    assert "SPD009" in [c for c, _ in _codes(text, "0.5.14", select=("SPD009",))]


def test_spd009_reports_a_rejection_no_specific_rule_explains():
    codes = [code for code, _ in _codes(LAUNCH + "--speculative-algorithm DFLASH")]
    assert codes.count("SPD009") == 1


def _finding(code: str, span: Span, claims: tuple[str, ...] = ()) -> Finding:
    return Finding(code, code.lower(), Severity.ERROR, "x.sh", span, "m", claims=claims)


def test_drop_deferred_matches_overlapping_tokens_or_shared_claims_only():
    token, other = Span(1, 5, 1, 12), Span(1, 20, 1, 25)
    weak_same = _finding("GEN1", Span(1, 8, 1, 10))
    weak_elsewhere = _finding("GEN1", other)
    weak_claim = _finding("GEN1", other, (REJECTION,))
    strong = _finding("SPEC", token, (REJECTION,))
    kept = drop_deferred([weak_same, weak_elsewhere, strong], {"GEN1": ("SPEC",)})
    assert kept == [weak_elsewhere, strong]
    assert drop_deferred([weak_claim, strong], {"GEN1": ("SPEC",)}) == [strong]
    assert drop_deferred([weak_same, strong], {}) == [weak_same, strong]


def test_every_deferral_names_a_rule_and_none_is_circular():
    codes = {rule.code: rule for rule in all_rules()}
    for rule in codes.values():
        for stronger in rule.defers_to:
            assert stronger in codes, (rule.code, stronger)
            assert rule.code not in codes[stronger].defers_to, (rule.code, stronger)
