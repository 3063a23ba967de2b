"""--enable-prefill-cp: the context-parallelism handler's strategy check (0.5.14+, read per
release by tools/sglang_cp_strategy.py) and, on an MLA target, the DeepSeek override's MLA
context parallelism (read per release by tools/sglang_mla_prefill_cp.py: ep_size the TP size, the
all-to-all backend deepep, the attention CP and DP sizes, applied before the data-parallelism
handler). Oracle (record.py --generator a2a_cp, seeds 22004 and 22005, 0.5.21-0.5.23, fake H100
and B200; --generator prefill_cp, seeds 25002 on 0.5.13-0.5.23 and 25005 on 0.5.12-0.5.13)."""

from __future__ import annotations

from pathlib import Path

from launch_errors import at, errors

from speclint.engine import lint_text
from speclint.settings.options import LintOptions
from speclint.sglang.resolve.gpu_profiles import profile

MODELS = Path(__file__).resolve().parent.parent / "fixtures" / "models"
LAUNCH = "python -m sglang.launch_server --model-path"
QWEN3 = f"{LAUNCH} {MODELS / 'qwen3-8b'} --tp-size 8 --quantization modelopt_fp4"
DSV3 = f"{LAUNCH} {MODELS / 'deepseek-v3'} --tp-size 8 --quantization modelopt_fp4"
DSV3_PLAIN = f"{LAUNCH} {MODELS / 'deepseek-v3'} --tp-size 8"


def _effective(text: str, version: str, gpu: str) -> dict[str, object]:
    options = LintOptions(sglang_version=version, gpu=profile(gpu), read_pyproject=False)
    [context] = lint_text(text, "x.sh", options).contexts
    assert context.resolution is not None
    return context.resolution.effective


def test_prefill_cp_without_a_strategy_is_refused():
    text = f"{QWEN3} --moe-a2a-backend megamoe --enable-prefill-cp --attn-cp-size 2\n"
    for version in ("0.5.21", "0.5.22", "0.5.23"):
        [error] = errors(text, version, "h100")
        assert (error.code, error.span.line, error.span.column) == (
            "SPD009",
            *at(text, "--enable-prefill-cp"),
        )
        assert error.message == (
            f"SGLang {version} refuses this launch in handle_context_parallelism: ValueError: --cp-strategy "
            "must be set when --enable-prefill-cp is enabled. (--enable-prefill-cp without --cp-strategy; "
            "pass --cp-strategy zigzag or --cp-strategy interleave)"
        )


def test_prefill_cp_with_a_strategy_or_an_unread_one_is_not_refused_for_it():
    assert errors(f"{QWEN3} --enable-prefill-cp --cp-strategy zigzag\n", "0.5.23", "b200") == []
    assert errors(f"{QWEN3} --enable-prefill-cp --cp-strategy $STRATEGY\n", "0.5.23", "b200") == []


def test_mla_prefill_cp_sets_the_all_to_all_backend_and_ep_size():
    """SGLang resolved megamoe (and none) to deepep and ep_size to the TP size (the override's
    block read per release: server_checks mla_prefill_cp); the MegaMoE token budget (8192 < 32768
    here) was not checked: accepted. The attention-CP size is the TP size over the DP sizes."""
    text = (
        "SGLANG_OPT_DEEPGEMM_MEGA_MOE_NUM_MAX_TOKENS_PER_RANK=256 "
        f"{DSV3} --moe-a2a-backend megamoe --enable-prefill-cp --cp-strategy zigzag --chunked-prefill-size 32768\n"
    )
    assert errors(text, "0.5.23", "h100") == []
    options = LintOptions(sglang_version="0.5.23", gpu=profile("h100"), read_pyproject=False)
    [context] = lint_text(text, "x.sh", options).contexts
    assert context.resolution is not None
    effective = context.resolution.effective
    assert (effective["moe_a2a_backend"], effective["ep_size"], effective["moe_dense_tp_size"]) == (
        "deepep",
        8,
        1,
    )
    changes = {
        a.field: a for a in context.resolution.adjustments if a.field in ("ep_size", "moe_a2a_backend")
    }
    assert {name: (a.asked, a.effective, a.handler) for name, a in changes.items()} == {
        "ep_size": (1, 8, "_deepseek_family_overrides"),
        "moe_a2a_backend": ("megamoe", "deepep", "_deepseek_family_overrides"),
    }
    assert changes["ep_size"].reason == (
        "--enable-prefill-cp on DeepseekV3ForCausalLM (MLA attention): SGLang 0.5.23's DeepSeek "
        "model override sets MLA context parallelism up"
    )
    assert changes["ep_size"].logged == (
        "MLA prefill context parallel is still experimental. Verified on Hopper with the fa3 backend."
    )
    # 0.5.23: attn_dp_size 1 * dp_size 1, attn_cp_size the TP size over it (oracle: 8 at TP 8)
    assert (effective["attn_dp_size"], effective["attn_cp_size"], effective["dp_size"]) == (1, 8, 1)
    [cp_change] = [a for a in context.resolution.adjustments if a.field == "attn_cp_size"]
    assert (cp_change.asked, cp_change.effective, cp_change.handler) == (1, 8, "_deepseek_family_overrides")
    plain = _effective(
        f"{QWEN3} --moe-a2a-backend none --enable-prefill-cp --cp-strategy zigzag\n", "0.5.23", "b200"
    )
    assert plain["moe_a2a_backend"] == "none"


def test_mla_prefill_cp_explain_and_par004(tmp_path: Path):
    """`speclint explain` states the override's ep_size with its cause; PAR004 (an all-to-all
    backend sets ep_size) does not take it for the --moe-a2a-backend's doing. 0.5.14 sets
    enable_dp_attention too, which a later handler turns back off at dp_size 1 (oracle, seed
    23009), and attn_cp_size to tp_size // dp_size (8)."""
    import subprocess
    import sys

    text = f"{DSV3_PLAIN} --ep-size 2 --moe-a2a-backend none --enable-prefill-cp --cp-strategy zigzag\n"
    script = tmp_path / "launch.sh"
    script.write_text(text)
    explain = [sys.executable, "-m", "speclint", "explain", "--sglang-version", "0.5.14", str(script)]
    lines = subprocess.run(explain, capture_output=True, text=True, check=False).stdout.splitlines()
    assert (
        "    ep_size: 2 \u2192 8  (--enable-prefill-cp on DeepseekV3ForCausalLM (MLA attention): SGLang "
        "0.5.14's DeepSeek model override sets MLA context parallelism up; SGLang logs one warning)"
    ) in lines
    # the override's enable_dp_attention, off again at dp_size 1: no change shown
    assert not [line for line in lines if line.startswith("    enable_dp_attention")]
    assert (
        "    attn_cp_size: 1 \u2192 8  (--enable-prefill-cp on DeepseekV3ForCausalLM (MLA attention): SGLang "
        "0.5.14's DeepSeek model override sets MLA context parallelism up; SGLang logs one warning)"
    ) in lines
    options = LintOptions(sglang_version="0.5.14", read_pyproject=False)
    codes = [f.code for f in lint_text(text, "x.sh", options).findings]
    assert "PAR004" not in codes


def test_attention_cp_size_must_divide_tp_with_the_dp_size():
    text = f"{QWEN3} --moe-a2a-backend megamoe --attn-cp-size 8 --dp-size 8 --enable-dp-attention\n"
    for version, size in (("0.5.21", "dp_size"), ("0.5.22", "attn_dp_size"), ("0.5.23", "attn_dp_size")):
        [error] = errors(text, version, "b200")
        assert error.message == (
            f"SGLang {version} refuses this launch in handle_context_parallelism: AssertionError: tp_size "
            f"must be divisible by {size} * attn_cp_size (--attn-cp-size 8: `tp_size % ({size} * "
            f"attn_cp_size) == 0` fails with attn_cp_size 8, {size} 8, tp_size 8)"
        )
    dsv3 = f"{DSV3} --moe-a2a-backend megamoe --attn-cp-size 4 --attn-dp-size 8 --max-running-requests 16\n"
    [error] = errors(dsv3, "0.5.23", "b200")
    assert "tp_size must be divisible by attn_dp_size * attn_cp_size" in error.message


def test_attention_cp_size_accepted_where_it_divides():
    assert (
        errors(
            f"{QWEN3} --moe-a2a-backend megamoe --attn-cp-size 4 --chunked-prefill-size 4096\n",
            "0.5.23",
            "b200",
        )
        == []
    )
    cp2 = f"{DSV3} --moe-a2a-backend megamoe --attn-cp-size 2 --attn-dp-size 2 --chunked-prefill-size 4096\n"
    assert [e for e in errors(cp2, "0.5.23", "b200") if "divisible" in e.message] == []


def test_moe_dp_size_asserts_of_the_context_parallelism_handler():
    """0.5.9+ `if moe_dp_size > 1:` and 0.5.13+ `if attn_cp_size != moe_dp_size:` asserts, read per
    release (server_checks cp_moe_dp_asserts). Oracle (these four launches on 0.5.14, 0.5.19, 0.5.22
    and 0.5.23, fake GPUs as given: each of the first three refused with this message, the last
    accepted; --moe-dp-size draws, seed 23009: missed refusals 324 -> 76 of 400, none false; with
    the MLA prefill-CP override's ep_size, 76 -> 0, and seed 24009 on 0.5.20/0.5.21 26 -> 0)."""
    from launch_errors import at, errors

    qwen3 = "python -m sglang.launch_server --model-path fixtures/models/qwen3-8b --tp-size 8"
    text = f"{qwen3} --moe-dp-size 2 --ep-size 2\n"
    [error] = errors(text, "0.5.23", "h100")
    assert (error.code, error.span.line, error.span.column) == ("SPD009", *at(text, "2 --ep-size"))
    assert error.message == (
        "SGLang 0.5.23 refuses this launch in handle_context_parallelism: AssertionError: ep_size * "
        "moe_dp_size must be equal to tp_size (`moe_dp_size > 1`: `ep_size * moe_dp_size == tp_size` "
        "fails with ep_size 2, moe_dp_size 2, tp_size 8)"
    )
    text = f"{qwen3} --moe-dp-size 4 --ep-size 2 --pp-size 2\n"
    [error] = errors(text, "0.5.14", "b200")
    assert "_handle_context_parallelism: AssertionError: PP is not supported with context parallelism" in (
        error.message
    )
    [error] = errors(f"{qwen3.replace('--tp-size 8', '--tp-size 4')} --moe-dp-size 8\n", "0.5.19", "b200")
    assert "AssertionError: tp_size must be divisible by moe_dp_size" in error.message
    assert errors(f"{qwen3} --moe-dp-size 2 --attn-cp-size 2 --ep-size 4\n", "0.5.23", "h100") == []


def test_moe_dp_size_asserts_see_ep_size_before_the_all_to_all_handler():
    """0.5.9+ run the context-parallelism handler before the all-to-all one (server_checks
    cp_before_a2a): its asserts see ep_size as given, not the deepep TP size. Oracle (seed 24011
    on 0.5.14, 0.5.19 and 0.5.23, B200 and H100: the first accepted with ep_size 1 -> 8, the second
    refused so)."""
    qwen3 = f"{LAUNCH} {MODELS / 'qwen3-8b'} --tp-size 8 --moe-dp-size 2 --attn-cp-size 2 --moe-a2a-backend deepep"
    for version in ("0.5.14", "0.5.19", "0.5.23"):
        text = f"{qwen3} --dp-size 2 --enable-dp-attention\n"
        assert errors(text, version, "b200") == []
        assert _effective(text, version, "b200")["ep_size"] == 8
        [error] = errors(f"{qwen3} --ep-size 2\n", version, "h100")
        assert error.message.endswith(
            "AssertionError: ep_size * moe_dp_size must be equal to tp_size (`moe_dp_size > 1`: "
            "`ep_size * moe_dp_size == tp_size` fails with ep_size 2, moe_dp_size 2, tp_size 8)"
        )


def test_moe_dp_size_with_mla_prefill_cp_is_refused_on_the_override_ep_size():
    """DeepSeek-V3 with --enable-prefill-cp: the override sets ep_size to the TP size (8), so
    `ep_size * moe_dp_size <= tp_size` fails whatever --ep-size and --moe-a2a-backend say. Oracle
    (this launch, seed 23009, B200: refused so on 0.5.14, 0.5.19, 0.5.22 and 0.5.23)."""
    text = (
        f"{DSV3_PLAIN} --moe-dp-size 8 --enable-prefill-cp --cp-strategy interleave --moe-a2a-backend none\n"
    )
    for version, where in (
        ("0.5.14", "_handle_context_parallelism"),
        ("0.5.19", "handle_context_parallelism"),
        ("0.5.22", "handle_context_parallelism"),
        ("0.5.23", "handle_context_parallelism"),
    ):
        [error] = errors(text, version, "b200")
        assert (error.code, error.span.line, error.span.column) == (
            "SPD009",
            *at(text, "8 --enable-prefill-cp"),
        )
        assert error.message == (
            f"SGLang {version} refuses this launch in {where}: AssertionError: ep_size * moe_dp_size must "
            "be less than or equal to tp_size (`moe_dp_size > 1`: `ep_size * moe_dp_size <= tp_size` fails "
            "with ep_size 8, moe_dp_size 8, tp_size 8)"
        )
    assert errors(text.replace("--moe-dp-size 8", "--moe-dp-size 1"), "0.5.23", "b200") == []


def test_the_override_block_reader_on_written_sources():
    """tools/sglang_mla_prefill_cp.py: literals, a copied field and `//`/`*` on fields (through a
    local, or a helper's return) read, anything else unread; a block that only declares something
    else is passed over; one that may stop early is not read."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
    from sglang_mla_prefill_cp import read_mla_prefill_cp

    declares = (
        "def hook(cfg, server_args):\n"
        "    if cfg.enable_prefill_cp and use_mla_backend(server_args):\n"
        "        declare(server_args, x=1)\n"
    )
    override = (
        "def family(server_args, overrides):\n"
        "    if server_args.enable_prefill_cp and server_args.use_mla_backend():\n"
        "        logger.warning('experimental')\n"
        "        overrides['ep_size'] = server_args.tp_size\n"
        "        overrides['moe_a2a_backend'] = 'deepep'\n"
        "        size = server_args.tp_size // server_args.dp_size\n"
        "        overrides['attn_cp_size'] = size\n"
    )
    assert read_mla_prefill_cp([declares, override]) == {
        "where": "family",
        "switch": "enable_prefill_cp",
        "sets": [
            ["ep_size", "field", "tp_size"],
            ["moe_a2a_backend", "constant", "deepep"],
            ["attn_cp_size", "expression", "(tp_size) // (dp_size)"],
        ],
        "logged": "experimental",
    }
    # a helper of the release: its one return read, its asserts listed; a call of anything else unread
    helper = (
        "def dp_width(cfg, layout):\n"
        "    assert not (cfg.attn_dp_size > 1 and cfg.dp_size > 1), f'--dp-size {cfg.dp_size} here'\n"
        "    if cfg.dp_size > 1:\n"
        "        logger.warning('deprecated')\n"
        "    return cfg.attn_dp_size * cfg.dp_size\n"
    )
    calls = override.replace(
        "server_args.tp_size // server_args.dp_size", "server_args.tp_size // dp_width(server_args, 'x')"
    )
    assert read_mla_prefill_cp([calls, helper]) == {
        "where": "family",
        "switch": "enable_prefill_cp",
        "sets": [
            ["ep_size", "field", "tp_size"],
            ["moe_a2a_backend", "constant", "deepep"],
            ["attn_cp_size", "expression", "(tp_size) // ((attn_dp_size) * (dp_size))"],
        ],
        "logged": "experimental",
        "asserts": [["not (attn_dp_size > 1 and dp_size > 1)", "--dp-size {dp_size} here", "dp_width"]],
    }
    unread = read_mla_prefill_cp([calls.replace("dp_width(", "other(")])
    assert unread is not None and unread["sets"][2] == ["attn_cp_size", "unread", None]
    # a field the block changed before (`self.X = ...`) is not read as it was
    mutating = (
        "def adjust(self):\n"
        "    if self.enable_prefill_cp and self.use_mla_backend():\n"
        "        self.dp_size = 1\n"
        "        self.attn_cp_size = self.tp_size // self.dp_size\n"
    )
    assert read_mla_prefill_cp([mutating])["sets"] == [  # type: ignore[index]
        ["dp_size", "constant", 1],
        ["attn_cp_size", "unread", None],
    ]
    stops = override.replace(
        "        size =", "        if server_args.pp_size > 1:\n            return\n        size ="
    )
    assert read_mla_prefill_cp([stops]) is None
    assert read_mla_prefill_cp([override.replace("enable_prefill_cp and", "enable_prefill_cp or")]) is None


def test_mla_prefill_cp_sizes_before_the_data_parallelism_handler():
    """The override runs before `handle_data_parallelism`: --dp-size 2 becomes two attention-DP
    groups (0.5.14-0.5.21 its enable_dp_attention kept, 0.5.22+ attn_dp_size 2, dp_size 1), the
    chunked prefill is split among them and attn_cp_size is 8 // 2; 0.5.23 refuses TP 2 with
    --dp-size 4 (tp_size % attn_dp_size) and --dp-size with --attn-dp-size (the override's
    helper). Oracle: record.py --generator prefill_cp, seed 25002 (these launches' forms, 0.5.14-0.5.23)."""
    text = (
        f"{DSV3_PLAIN} --dp-size 2 --moe-a2a-backend none --enable-prefill-cp --cp-strategy zigzag "
        "--chunked-prefill-size 8192\n"
    )
    for version, attention in (("0.5.14", ("enable_dp_attention", True)), ("0.5.23", ("attn_dp_size", 2))):
        effective = _effective(text, version, "h100")
        assert effective[attention[0]] == attention[1]
        assert (effective["attn_cp_size"], effective["chunked_prefill_size"]) == (4, 4096)
    kimi = (
        f"{LAUNCH} {MODELS / 'kimi-k2.5'} --tp-size 2 --enable-prefill-cp --cp-strategy zigzag --dp-size 4\n"
    )
    [error] = errors(kimi, "0.5.23", "b200")
    assert (error.code, error.span.line, error.span.column) == ("PAR002", *at(kimi, "2 --enable-prefill-cp"))
    assert error.message == (
        "--tp-size 2 is not a multiple of the attention-DP size 4 (--dp-size 4, made attention DP by "
        "--enable-prefill-cp's MLA context parallelism (the DeepSeek model override)): SGLang 0.5.23 stops in "
        "_handle_data_parallelism on `assert cfg.tp_size % cfg.attn_dp_size == 0` (AssertionError, no message)"
    )
    both = f"{DSV3_PLAIN} --attn-dp-size 2 --dp-size 2 --enable-prefill-cp --cp-strategy zigzag\n"
    [error] = errors(both, "0.5.23", "h100")
    assert error.message == (
        "SGLang 0.5.23 refuses this launch in context_parallel_attn_dp_size: AssertionError: --dp-size 2 "
        "with --attn-dp-size 2: data-parallel replicas combined with attention data parallelism are not "
        "supported."
    )


def test_attention_cp_size_parsed_into_another_name_is_checked():
    """0.5.10-0.5.13 parse --attn-cp-size into `attention_context_parallel_size` and
    `from_cli_args` copies it into attn_cp_size (server_checks `cli_copies`): the context-
    parallelism handler's asserts see it. Oracle (record.py --generator prefill_cp, seed 25002,
    0.5.13, fake H200: refused so; speclint said "All checks passed" before)."""
    text = f"{DSV3_PLAIN.replace('--tp-size 8', '--tp-size 2')} --dp-size 2 --attn-cp-size 4 --attention-backend fa3\n"
    [error] = errors(text, "0.5.13", "h200")
    assert (error.code, error.span.line, error.span.column) == ("SPD009", *at(text, "4 --attention-backend"))
    assert error.message == (
        "SGLang 0.5.13 refuses this launch in _handle_context_parallelism: AssertionError: tp_size must be "
        "divisible by attn_cp_size (--attn-cp-size 4: `tp_size % attn_cp_size == 0` fails with "
        "attn_cp_size 4, tp_size 2)"
    )
    assert errors(text.replace("--attn-cp-size 4", "--attn-cp-size 1"), "0.5.13", "h200") == []


def test_mla_prefill_cp_under_its_0_5_13_name():
    """0.5.13's block tests `enable_prefill_context_parallel` (--enable-prefill-context-parallel;
    the reading's "switch"): the same override, attn_cp_size tp_size // dp_size. Oracle (record.py
    --generator prefill_cp, seed 25005, 0.5.12 and 0.5.13: no difference; before, 79 value
    differences on 0.5.13, the all-to-all backend and ep_size left as given)."""
    text = f"{DSV3_PLAIN} --enable-prefill-context-parallel --moe-a2a-backend none\n"
    options = LintOptions(sglang_version="0.5.13", gpu=profile("h200"), read_pyproject=False)
    [context] = lint_text(text, "x.sh", options).contexts
    assert context.resolution is not None
    effective = context.resolution.effective
    assert (effective["moe_a2a_backend"], effective["ep_size"], effective["attn_cp_size"]) == ("deepep", 8, 8)
    [change] = [a for a in context.resolution.adjustments if a.field == "moe_a2a_backend"]
    assert change.reason == (
        "--enable-prefill-context-parallel on DeepseekV3ForCausalLM (MLA attention): SGLang 0.5.13's "
        "DeepSeek model override sets MLA context parallelism up"
    )
    assert _effective(text, "0.5.12", "h200")["moe_a2a_backend"] == "none"  # no such block in 0.5.12


def test_attention_backend_beside_prefill_cp_is_the_gpus():
    """--enable-prefill-cp (0.5.13 --enable-prefill-context-parallel), --cp-strategy and
    --attn-cp-size feed none of the functions that pick the attention backend and its page size
    (0.5.10-0.5.23): DeepSeek-V3 gets fa3 (page 1) on an H100 and trtllm_mla (page 64) on a B200,
    as the oracle recorded (prefill_cp seeds 25002 on 0.5.13-0.5.23, 25005 on 0.5.12-0.5.13)."""
    for version, gpu, flag, backend, page in (
        ("0.5.23", "h100", "--enable-prefill-cp --cp-strategy zigzag", "fa3", 1),
        ("0.5.23", "b200", "--enable-prefill-cp --cp-strategy interleave --attn-cp-size 8", "trtllm_mla", 64),
        ("0.5.18", "b200", "--enable-prefill-cp --cp-strategy zigzag", "trtllm_mla", 64),
        ("0.5.13", "b200", "--enable-prefill-context-parallel", "trtllm_mla", 64),
    ):
        effective = _effective(f"{DSV3_PLAIN} {flag}\n", version, gpu)
        assert (effective["attention_backend"], effective["page_size"]) == (backend, page), version


def test_eagle_tree_beside_prefill_cp_on_blackwell_is_refused():
    """0.5.23 on a B200 gives an MLA target trtllm_mla with page size 64 beside --enable-prefill-cp,
    and `_handle_eagle_family` refuses EAGLE top-k above 1 there (oracle: prefill_cp seed 25002,
    Kimi-K2.5 and DeepSeek-V3); top-k 1, or fa3 on an H100, is accepted."""
    eagle = (
        " --speculative-algorithm EAGLE --speculative-num-steps 2 --speculative-eagle-topk 4"
        " --speculative-num-draft-tokens 4"
    )
    for model in ("kimi-k2.5", "deepseek-v3"):
        text = (
            f"{LAUNCH} {MODELS / model} --tp-size 8 --enable-prefill-cp --cp-strategy zigzag "
            f"--moe-a2a-backend mooncake{eagle}\n"
        )
        [error] = errors(text, "0.5.23", "b200")
        assert (error.code, error.span.line, error.span.column) == (
            "SPD007",
            1,
            text.index("--speculative-eagle-topk 4") + len("--speculative-eagle-topk ") + 1,
        )
        assert error.message == (
            "SGLang 0.5.23 refuses this launch: speculative_eagle_topk > 1 with page_size > 1 is only "
            "supported on ('flashinfer', 'fa3', 'triton'); got attention_backend='trtllm_mla'. "
            "(no --attention-backend: SGLang 0.5.23 picks trtllm_mla on NVIDIA B200)"
        ), model
        assert errors(text, "0.5.23", "h100") == []
        assert (
            errors(text.replace("--speculative-eagle-topk 4", "--speculative-eagle-topk 1"), "0.5.23", "b200")
            == []
        )


def test_attention_backend_unknown_beside_prefill_cp_names_the_flag_that_hides_it():
    """Beside another flag speclint does not model (--moe-dense-tp-size), the backend stays unknown, and the
    cause named is that flag, not --enable-prefill-cp (which the pick does not read)."""
    text = f"{DSV3_PLAIN} --enable-prefill-cp --cp-strategy zigzag --moe-a2a-backend deepep --moe-dense-tp-size 1\n"
    effective = _effective(text, "0.5.23", "h100")
    for name in ("attention_backend", "page_size"):
        assert (
            str(getattr(effective[name], "reason", ""))
            == "--moe-dense-tp-size feeds SGLang hooks speclint does not model"
        )
    assert "--enable-prefill-cp" in str(getattr(effective["mem_fraction_static"], "reason", ""))


def test_eagle_tree_under_trtllm_mla_beside_ep_size_and_disaggregation_is_refused():
    """--ep-size and --disaggregation-mode feed no function that picks the attention backend or
    its page size either (oracle: prefill_cp seed 26001 and hand-written launches, seed 26003, on
    0.5.19-0.5.23: Kimi-K2.5 and DeepSeek-V3 with EAGLE top-k 4 on a B200 refused, top-k 1
    accepted)."""
    for model in ("kimi-k2.5", "deepseek-v3"):
        text = (
            f"{LAUNCH} {MODELS / model} --tp-size 8 --ep-size 8 --disaggregation-mode decode"
            " --speculative-algorithm EAGLE --speculative-num-steps 2 --speculative-eagle-topk 4"
            " --speculative-num-draft-tokens 4\n"
        )
        [error] = errors(text, "0.5.23", "b200")
        assert error.code == "SPD007"
        assert "got attention_backend='trtllm_mla'" in error.message, model
        assert errors(text, "0.5.23", "h100") == []
