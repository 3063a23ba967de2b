"""hardware_flags.BESIDE read per release: tools/gen_sglang_backend_reads.py reads, from each
release's wheel, every function of the attention-backend and page-size pickers' call tree that
names a BESIDE flag's field (data/sglang_backend_reads.json); a flag stands beside the pick only
where each such function is one beside_reads.BESIDE_READS allows for it."""

from __future__ import annotations

from pathlib import Path

from regenerated import SGLANG_WHEELS, assert_regenerates, use_tools

from speclint.engine import lint_text
from speclint.settings.options import LintOptions
from speclint.sglang.resolve.beside_reads import BESIDE_READS, beside_for, beside_from_reads
from speclint.sglang.resolve.gpu_profiles import profile
from speclint.sglang.resolve.hardware_flags import BESIDE

MODELS = Path(__file__).resolve().parent.parent / "fixtures" / "models"
LLAMA = f"python -m sglang.launch_server --model-path {MODELS / 'llama-3.1-8b-instruct'}"


def test_the_generator_reads_the_fields_of_beside() -> None:
    use_tools()
    from sglang_backend_reads import FIELDS

    assert set(FIELDS) == set(BESIDE) == set(BESIDE_READS)


def test_the_stored_reading_is_what_the_wheels_give() -> None:
    use_tools()
    from gen_sglang_backend_reads import OUT, build, dump
    from gen_sglang_schema import stored_versions

    versions = stored_versions()
    assert_regenerates(OUT, versions, lambda: dump(build(versions, str(SGLANG_WHEELS))))


def test_every_read_of_every_stored_release_is_allowed() -> None:
    use_tools()
    from gen_sglang_schema import stored_versions

    assert [v for v in stored_versions() if beside_for(v) != BESIDE] == []


def test_the_reader_finds_a_picker_reading_a_field_through_a_call() -> None:
    use_tools()
    from sglang_backend_reads import read_backend_reads

    source = (
        "class ServerArgs:\n"
        "    def _handle_page_size(self):\n"
        "        self._helper()\n"
        "    def _helper(self):\n"
        "        if self.ep_size > 1:\n"
        "            self.page_size = 64\n"
        "    def _unrelated(self):\n"
        "        return self.disaggregation_mode\n"
    )
    assert read_backend_reads([("sglang/srt/server_args.py", source)]) == {
        "ep_size": ["server_args.py::_helper"]
    }


def test_a_read_elsewhere_takes_the_flag_out_of_beside() -> None:
    reads = {
        "ep_size": ["server_args.py::_helper"],
        "moe_a2a_backend": ["arg_groups/x.py::_deepseek_family_overrides"],
    }
    beside = beside_from_reads(reads)
    assert "ep_size" not in beside
    assert "moe_a2a_backend" in beside and "disaggregation_mode" in beside


def test_the_backend_is_stated_beside_ep_size() -> None:
    options = LintOptions(sglang_version="0.5.23", gpu=profile("h100"), read_pyproject=False)
    [context] = lint_text(f"{LLAMA} --tp-size 2 --ep-size 2\n", "x.sh", options).contexts
    assert context.resolution is not None
    assert context.resolution.effective["attention_backend"] == "fa3"


def _effective(text: str, version: str) -> dict[str, object]:
    options = LintOptions(sglang_version=version, gpu=profile("h100"), read_pyproject=False)
    [context] = lint_text(text, "x.sh", options).contexts
    assert context.resolution is not None
    return context.resolution.effective


DSV3_A2A = f"python -m sglang.launch_server --model-path {MODELS / 'deepseek-v3'} --tp-size 8 --moe-a2a-backend deepep\n"


def test_the_sampling_backend_is_stated_beside_moe_a2a_backend_from_0_5_15() -> None:
    """0.5.15+: `_sampling_backend_default` and `_deterministic_sampling_backend` name no field
    the all-to-all backend's hooks write (oracle: a2a seed 25003 on 0.5.19, 0.5.22, 0.5.23, 223
    launches, flashinfer on each)."""
    for version in ("0.5.19", "0.5.23"):
        effective = _effective(DSV3_A2A, version)
        assert effective["sampling_backend"] == "flashinfer"
        assert "--moe-a2a-backend" in str(effective["mem_fraction_static"])  # still unknown, with its cause


def test_before_0_5_15_the_deterministic_handler_keeps_it_unknown() -> None:
    """0.5.14's `_handle_deterministic_inference` writes it beside the TP size and the model."""
    assert "--moe-a2a-backend" in str(_effective(DSV3_A2A, "0.5.14")["sampling_backend"])


def test_a_flag_a_writer_names_keeps_it_unknown() -> None:
    text = DSV3_A2A.replace("deepep", "deepep --enable-deterministic-inference")
    assert _effective(text, "0.5.23")["sampling_backend"] != "flashinfer"
