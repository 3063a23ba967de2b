"""Constant defaults beside flags speclint does not model (resolve/constants_beside.py): explain
states the value where no statement of the release's resolution that sets the field reads a flag
given outside the model (read per release: server_fields.influencers), and says which flag makes
the others unknown. Oracle (record.py a2a_cp draws, seeds 23003 on 0.5.21/0.5.22, 23006 on
0.5.23, fake H100/B200): the recorded values are these (differential.py --defaults: no value
difference), and --disaggregation-mode prefill gives the load-balance method
follow_bootstrap_room, not the round_robin of the modelled launches."""

from __future__ import annotations


def _explain(tmp_path, version: str, flags: str) -> dict:
    from explain_runs import explain_launches

    [record] = explain_launches(tmp_path, version, f"deepseek-v3 --tp-size 8 {flags}", gpu="h100")
    return record


def test_constants_stated_beside_an_a2a_backend(tmp_path):
    record = _explain(tmp_path, "0.5.23", "--moe-a2a-backend megamoe")
    effective, unknown = record["effective"], record["unknown"]
    assert (effective["grammar_backend"], effective["dcp_comm_backend"]) == ("xgrammar", "ag_rs")
    assert (effective["prefill_decode_interval"], effective["load_balance_method"]) == (0, "round_robin")
    assert "grammar_backend" not in unknown and "load_balance_method" not in unknown
    [why] = [a["reason"] for a in record["adjustments"] if a["field"] == "grammar_backend"]
    assert why == (
        "SGLang's resolved default: no statement of SGLang 0.5.23's resolution that sets it reads "
        "--moe-a2a-backend (read from the release)"
    )


def test_a_constant_set_from_a_given_flag_stays_unknown_with_that_flag(tmp_path):
    record = _explain(tmp_path, "0.5.23", "--moe-a2a-backend megamoe --disaggregation-mode prefill")
    assert record["effective"]["grammar_backend"] == "xgrammar"
    assert record["effective"]["load_balance_method"] is None
    assert record["unknown"]["load_balance_method"] == (
        "SGLang 0.5.23's resolution sets it from --disaggregation-mode (read from the release), "
        "which speclint does not model"
    )


def test_release_specific_values_are_not_taken_for_constants(tmp_path):
    """0.5.10 works the all-reduce fusion flag out per GPU and target (allreduce_flag.py: True for
    DeepSeek-V3 on an H100, recorded), so beside an unmodelled flag it stays unknown."""
    record = _explain(tmp_path, "0.5.10", "--ep-size 4")
    assert record["effective"]["grammar_backend"] == "xgrammar"
    assert "enable_flashinfer_allreduce_fusion" in record["unknown"]
