"""Each data-parallel worker of `python -m sglang_router.launch_server` runs SGLang with the
values the co-launcher gives it (`launch_server_process`: `dp_size = 1`, `base_gpu_id =
dp_id * tp_size`), read from every sglang-router release; when SGLang resolves that copy is
read from each SGLang release (tools/gen_sglang_router.py)."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.engine import lint_text
from speclint.settings.options import LintOptions
from speclint.sglang.router import sglang_resolution, worker_sets

ROUTER = "python -m sglang_router.launch_server"
FIXTURE = FixtureFile("shell/router_colaunch_dp_attention.sh")


def test_the_co_launchers_worker_values_and_where_sglang_resolves_them_are_read():
    assert worker_sets() == (
        ("port", "worker_port"),
        ("base_gpu_id", "dp_id * server_args.tp_size"),
        ("dp_size", "1"),
    )
    assert sglang_resolution("0.5.23") == "worker" and sglang_resolution("0.5.19") == "worker"
    assert sglang_resolution("0.5.18") == "parent" and sglang_resolution("0.4.0") == "parent"
    assert sglang_resolution("9.9.9") is None


def test_dp_attention_the_old_way_is_off_in_each_co_launched_worker_and_the_gpus_are_per_worker():
    """0.5.23 resolves in the worker, after the co-launcher's `dp_size = 1`: `--dp-size 2
    --enable-dp-attention` leaves each worker attn_dp_size 1, and the two tp-4 workers need
    GPUs 0-7 (worker i from base_gpu_id i * 4), not the four one dp=2 server would use."""
    gpus, switch = FIXTURE.findings()
    assert gpus[:4] == ("PAR001", 5, 29, "0,1,2,3")
    assert gpus[4] == (
        "CUDA_VISIBLE_DEVICES=0,1,2,3 leaves 4 GPUs visible (indices 0-3), but 2 "
        f"`{ROUTER}` workers × tp 4 makes SGLang start 8 workers on GPU indices up to 7: the "
        "workers on indices 4, 5, 6, 7 fail when they select their device (CUDA: invalid "
        "device ordinal)"
    )
    assert switch[:4] == ("PAR003", 11, 3, "--enable-dp-attention")
    assert switch[4] == (
        "`--enable-dp-attention` is deprecated in SGLang 0.5.23 (a warning at parse time): "
        f"`{ROUTER}` starts 2 workers and gives each dp_size 1 before SGLang resolves it, so "
        "each worker rewrites `--dp-size 1 --enable-dp-attention` to `--attn-dp-size 1 "
        "--dp-size 1` and attention DP stays off (attn_dp_size = 1)"
    )


def test_the_same_flags_under_sglang_launch_server_are_one_dp_attention_server():
    text = FIXTURE.text.replace("sglang_router.launch_server", "sglang.launch_server").replace(
        " \\\n  --router-policy round_robin", ""
    )
    (switch,) = lint_text(text, "a.sh").findings
    assert (switch.code, switch.span.line, switch.span.column) == ("PAR003", 11, 3)
    assert "SGLang rewrites `--dp-size 2 --enable-dp-attention` to `--attn-dp-size 2 --dp-size 1`" in (
        switch.message
    )


def test_before_0_5_19_sglang_resolved_the_launch_and_the_worker_only_checks_it():
    """0.5.14 resolves in `__post_init__` when the co-launcher builds its ServerArgs (dp_size
    2 as written); the worker's copy gets dp_size 1 after, which its check_server_args sees."""
    from speclint.engine import analyse_launch
    from speclint.frontends import extract_file

    text = f"{ROUTER} --model-path m --dp-size 2 --tp-size 2\n"
    options = LintOptions(sglang_version="0.5.14")
    assert lint_text(text, "a.sh", options).findings == []
    (launch,) = extract_file("a.sh", text).launches
    resolution = analyse_launch("a.sh", launch, options).resolved
    change = resolution.adjustment("dp_size")
    assert change is not None and (change.asked, change.effective) == (2, 1)
    assert change.reason == (
        "sglang_router.launch_server starts 2 workers, each with a copy of the server arguments "
        "where dp_size = 1, after SGLang resolved the whole launch in __post_init__ (the "
        "worker's check_server_args sees it)"
    )


BAD_VALUES = FixtureFile("shell/router_colaunch_bad_values.sh")


def test_router_values_every_release_refuses_are_argparse_errors():
    """`choices` and `type` are read from each sglang-router release's parser: a value none
    of them accepts stops the launch whichever release is installed."""
    policy, threshold, manual = BAD_VALUES.findings()
    assert policy[:4] == ("FLG006", 9, 19, "cache-aware")
    assert policy[4].startswith(
        "`cache-aware` is not a valid value for `--router-policy`: argparse stops the launch "
        "with 'argument --router-policy: invalid choice: 'cache-aware' (choose from "
    )
    assert threshold[:4] == ("FLG005", 10, 28, "high")
    assert threshold[4] == (
        "`high` is not a valid value for `--router-cache-threshold`: argparse stops the launch "
        "with 'argument --router-cache-threshold: invalid float value: 'high''"
    )
    assert manual[:4] == ("FLG013", 11, 105, "manual")


def test_a_router_value_only_newer_releases_accept_says_which_refuse_it():
    (finding,) = [f for f in lint_text(BAD_VALUES.text, "a.sh").findings if f.code == "FLG013"]
    assert finding.severity.name == "INFO"  # the newest release read accepts it
    assert finding.message == (
        "`--router-policy manual` is refused by sglang-router 0.0.5 to 0.3.0 (their choices "
        "for `--router-policy` lack 'manual'; 0.3.1, 0.3.2 accept it): speclint does not know "
        "which sglang-router release runs beside SGLang 0.5.23; where it is refused, argparse "
        "stops the launch with 'argument --router-policy: invalid choice: 'manual''"
    )
    assert finding.fix_hint == "check the installed release: `pip show sglang-router`"


def test_the_router_options_types_and_choices_are_read_per_release():
    from speclint.sglang.router import router_refusing, router_spec

    policy = router_spec("--router-policy")
    assert policy.type == "str" and policy.choices is not None and "manual" in policy.choices
    assert router_refusing("--router-policy", "cache_aware") == ()
    assert router_spec("--router-cache-threshold").type == "float"
    assert router_spec("--router-balance-abs-threshold").type == "int"


def test_the_routers_own_argument_checks_are_read_per_release_and_reported_with_the_releases():
    """sglang-router 0.1.5 to 0.2.2 raise ValueError in `launch_router` /
    `_validate_router_args` for PD mode without a decode server (or service discovery);
    0.2.3 on only log. The newest accepts it: an info naming the releases that refuse."""
    pd = FixtureFile("shell/router_colaunch_pd_mode.sh")
    refusal = [f for f in pd.findings() if "raise" in f[4]]
    assert [f[:4] for f in refusal] == [("FLG013", 8, 3, "--router-pd-disaggregation")]
    assert refusal[0][4] == (
        "`--router-pd-disaggregation` without `--router-service-discovery` or `--router-decode`: "
        "sglang-router 0.1.5 to 0.2.2 raise `ValueError: PD disaggregation mode requires "
        f"--decode` when `{ROUTER}` starts the router, after the SGLang workers: the router "
        "does not start (0.2.3 to 0.3.2 accept it; speclint does not know which sglang-router "
        "release runs beside SGLang 0.5.23)"
    )
    (finding,) = [f for f in lint_text(pd.text, "a.sh").findings if "raise" in f.message]
    assert finding.severity.name == "INFO"
    assert finding.fix_hint == (
        "give `--router-service-discovery` or `--router-decode`, or drop `--router-pd-disaggregation`"
    )
    fixed = pd.text.replace(
        "http://prefill-0:30000", "http://prefill-0:30000 \\\n  --router-decode http://d:30000"
    )
    assert not [f for f in lint_text(fixed, "a.sh").findings if "raise" in f.message]


def test_the_stored_refusals_are_the_pd_checks_of_0_1_5_to_0_2_2():
    from speclint.sglang.router import router_refusals

    messages = {message: releases for (_, _, message), releases in router_refusals().items()}
    assert set(messages) == {
        "PD disaggregation mode requires --prefill",
        "PD disaggregation mode requires --decode",
    }
    refusing = {v for (_, _, m), releases in router_refusals().items() for v in releases}
    assert min(refusing, key=lambda v: tuple(map(int, v.split(".")))) == "0.1.5"
    assert max(refusing, key=lambda v: tuple(map(int, v.split(".")))) == "0.2.2"
