"""`check_server_args`'s "chunked_prefill_size must be divisible by page_size", with each
release's guard as tools/gen_sglang_server_checks.py reads it (found missing by session 9's
differential: 0.4.10 refuses --chunked-prefill-size -1 with --page-size 32, recorded in
tests/data/oracle/seeds/wide-9101/0.4.10.json.gz), and its earlier message-less form in
`__post_init__` (0.4.4-0.4.9.post3; found missing by session 11's differential: 0.4.6.post5
refuses --chunked-prefill-size -1 with --page-size 16, seed wide-11012)."""

from __future__ import annotations

import os
import sys

from speclint.engine import lint_text
from speclint.settings.options import LintOptions
from speclint.sglang.resolve.gpu_profiles import profile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))

from gen_sglang_server_checks import chunked_page_reading  # noqa: E402

LLAMA = os.path.join(ROOT, "fixtures", "models", "llama-3.1-8b-instruct")


def _errors(version: str, flags: str) -> tuple[str, list[tuple[str, int, int, str]]]:
    text = f"python -m sglang.launch_server --model-path {LLAMA} {flags}\n"
    options = LintOptions(sglang_version=version, read_pyproject=False, gpu=profile("h100"))
    findings = lint_text(text, "launch.sh", options).findings
    return text, [
        (f.code, f.span.line, f.span.column, f.message) for f in findings if f.severity.name == "ERROR"
    ]


def test_minus_one_with_pages_is_refused_before_0_5_1():
    flags = "--tp-size 2 --attention-backend triton --page-size 32 --chunked-prefill-size -1"
    text, [(code, line, column, message)] = _errors("0.4.10", flags)
    assert (code, line, column) == ("SPD009", 1, text.index("-1") + 1)
    assert message == (
        "SGLang 0.4.10 refuses this launch in check_server_args: AssertionError: chunked_prefill_size "
        "must be divisible by page_size (--chunked-prefill-size -1 with page size 32 (-1 turns chunked "
        "prefill off, and this release checks it all the same); use a multiple of 32, or drop --page-size)"
    )
    assert _errors("0.5.2", flags)[1] == []  # `if self.chunked_prefill_size > 0:`
    assert _errors("0.4.10", "--chunked-prefill-size -1")[1] == []  # one-token pages


def test_0_4_6_post5_asserts_it_in_post_init_on_the_sizes_given():
    flags = "--tp-size 2 --attention-backend fa3 --page-size 16 --chunked-prefill-size -1"
    text, [(code, line, column, message)] = _errors("0.4.6.post5", flags)
    assert (code, line, column) == ("SPD009", 1, text.index("-1") + 1)
    assert message == (
        "SGLang 0.4.6.post5 refuses this launch in __post_init__: AssertionError: assert "
        "chunked_prefill_size % page_size == 0 fails (--chunked-prefill-size -1 with page size 16 "
        "(-1 turns chunked prefill off, and this release checks it all the same); use a multiple "
        "of 16, or drop --page-size)"
    )
    # before DP attention splits the chunk: 1000 is checked, not 500
    text, [(code, _, column, message)] = _errors(
        "0.4.6.post5",
        "--tp-size 2 --dp-size 2 --enable-dp-attention --page-size 64 --chunked-prefill-size 1000",
    )
    assert (code, column) == ("SPD009", text.index("1000") + 1)
    assert "(--chunked-prefill-size 1000 with page size 64; use a multiple of 64" in message
    assert _errors("0.4.6.post5", "--page-size 16 --chunked-prefill-size 4096")[1] == []
    assert _errors("0.4.6.post5", "--page-size 16")[1] == []  # the GPU's default is not read


def test_a_positive_size_must_be_a_multiple_of_the_page_size():
    text, [(code, line, column, message)] = _errors("0.5.23", "--page-size 64 --chunked-prefill-size 1000")
    assert (code, line, column) == ("SPD009", 1, text.index("1000") + 1)
    assert (
        "chunked_prefill_size must be divisible by page_size (--chunked-prefill-size 1000 with page size 64;"
        in message
    )
    assert _errors("0.5.23", "--page-size 64 --chunked-prefill-size 4096")[1] == []
    # a decode server of a disaggregated pair skips the check (0.5.3+)
    decode = "--page-size 64 --chunked-prefill-size 1000 --disaggregation-mode decode"
    assert [c for c, *_ in _errors("0.5.23", decode)[1] if c == "SPD009"] == []


def test_the_guard_is_read_from_the_source():
    assert_ = 'assert self.chunked_prefill_size % self.page_size == 0, "chunked_prefill_size must be divisible by page_size"'
    bare = f"class S:\n    def check_server_args(self):\n        {assert_}\n"
    positive = f"def check(cfg):\n    if cfg.chunked_prefill_size > 0:\n        {assert_}\n"
    decode = f'def check(cfg):\n    if cfg.chunked_prefill_size > 0 and cfg.disaggregation_mode != "decode":\n        {assert_}\n'
    other = f"def check(cfg):\n    if cfg.page_size > 1:\n        {assert_}\n"
    assert chunked_page_reading([bare]) == "always"
    assert chunked_page_reading([positive]) == "positive"
    assert chunked_page_reading([decode]) == "positive_not_decode"
    assert chunked_page_reading([other]) == "other"
    assert chunked_page_reading([]) == "none"
    early = "assert self.chunked_prefill_size % self.page_size == 0"
    post_init = f"class S:\n    def __post_init__(self):\n        x = 1\n        {early}\n"
    guarded = f"class S:\n    def __post_init__(self):\n        if self.page_size > 1:\n            {early}\n"
    elsewhere = f"class S:\n    def check_server_args(self):\n        {early}\n"
    assert chunked_page_reading([post_init]) == "post_init"
    assert chunked_page_reading([guarded]) == "other"
    assert chunked_page_reading([elsewhere]) == "none"


def test_a_given_size_is_checked_in_releases_without_the_gpu_resolution():
    # 0.5.14 keeps a given size (no attention DP): check_server_args reads it as given
    text, [(code, line, column, message)] = _errors("0.5.14", "--page-size 64 --chunked-prefill-size 1000")
    assert (code, line, column) == ("SPD009", 1, text.index("1000") + 1)
    assert message.startswith("SGLang 0.5.14 refuses this launch in check_server_args: AssertionError: ")
    assert _errors("0.5.14", "--page-size 64 --chunked-prefill-size 4096")[1] == []


def test_a_prefill_server_is_checked_where_the_guard_skips_only_decode():
    """0.5.3+ guard `chunked_prefill_size > 0 and disaggregation_mode != "decode"`: a prefill
    server is checked (found missing by seed a2a-16211: 0.5.20 refused a prefill server's
    8200-token chunk, split to 4100 by attention DP, against trtllm_mha's 64-token pages)."""
    flags = "--tp-size 2 --attention-backend triton --page-size 64 --chunked-prefill-size 8200"
    for version in ("0.5.3", "0.5.9", "0.5.20", "0.5.23"):
        text, [(code, line, column, message)] = _errors(version, flags + " --disaggregation-mode prefill")
        assert (code, line, column) == ("SPD009", 1, text.index("8200") + 1)
        assert message == (
            f"SGLang {version} refuses this launch in check_server_args: AssertionError: "
            "chunked_prefill_size must be divisible by page_size (--chunked-prefill-size 8200 with "
            "page size 64; use a multiple of 64, or drop --page-size)"
        )
        assert _errors(version, flags + " --disaggregation-mode decode")[1] == []
