"""`python -m dynamo.sglang` (NVIDIA Dynamo's SGLang worker): Dynamo's own options (read from
each ai-dynamo release's `dynamo/sglang/args.py` by tools/gen_dynamo_sglang.py) are taken out
as Dynamo's parser takes them, the rest is checked as SGLang's launch; an image of NVIDIA's
(`nvcr.io/nvidia/ai-dynamo/sglang-runtime:X`) names the ai-dynamo release, whose pin picks the
SGLang release."""

from __future__ import annotations

from pathlib import Path

from fixture_file import FixtureFile
from regenerated import assert_regenerates, use_tools

from speclint.engine import lint_text
from speclint.rules.context import VersionChoice
from speclint.sglang.dynamo import _DATA, dynamo_versions, image_release, sglang_pin
from speclint.sglang.flags.versions import choose_version, version_from_image

ROOT = Path(__file__).resolve().parent.parent
WORKERS = FixtureFile("dynamo/disagg_workers.sh")
GRAPH = FixtureFile("dynamo/graph_deployment.yaml")
PARTLY = FixtureFile("dynamo/partly_read.sh")
OLD = FixtureFile("dynamo/old_worker_module.sh")


def test_dynamos_own_options_are_taken_out_and_sglangs_checked():
    findings = WORKERS.findings()
    assert [f[:4] for f in findings] == [
        ("FLG003", 7, 80, "--tp"),  # (an abbreviation SGLang's parser reads; no Dynamo option starts so)
        ("FLG001", 9, 33, "--disaggregation-transfer-backnd"),
        ("DRF011", 10, 62, "Qwen/Qwen3-0.6B"),
        ("FLG003", 10, 78, "--tp"),
        ("SPD003", 12, 27, "EAGLE"),
        ("SPD001", 13, 87, "8"),
    ]  # --endpoint, --dyn-reasoning-parser and --migration-limit (Dynamo's) are not reported
    assert findings[1][4] == (
        "`--disaggregation-transfer-backnd` is neither an SGLang 0.5.23 flag nor an option of "
        f"`python -m dynamo.sglang` (ai-dynamo 0.4.1 to {dynamo_versions()[-1]}), unverified for "
        f"ai-dynamo releases after {dynamo_versions()[-1]}: argparse stops the launch with "
        "'unrecognized arguments'; did you mean `--disaggregation-transfer-backend`?"
    )
    assert findings[5][4].startswith("`--speculative-num-draft-tokens 8` is ignored")


def test_without_an_image_an_unknown_word_is_a_warning_and_with_one_an_error():
    (typo,) = [f for f in lint_text(WORKERS.text, str(WORKERS.path)).findings if f.code == "FLG001"]
    assert typo.severity.name == "WARNING"  # a later ai-dynamo release may take it
    graph = [f for f in lint_text(GRAPH.text, str(GRAPH.path)).findings if f.code == "FLG001"]
    assert [(f.severity.name, f.span.line, f.span.column) for f in graph] == [("ERROR", 25, 15)]


def test_a_dynamo_graph_deployment_is_read_in_the_release_its_image_pins():
    findings = GRAPH.findings()
    assert [f[:4] for f in findings] == [
        ("FLG001", 25, 15, "--tp-szie"),
        ("PAR003", 36, 99, "--enable-dp-attention"),
    ]
    assert findings[0][4] == (
        "`--tp-szie` is neither an SGLang 0.5.6.post2 flag nor an option of `python -m dynamo.sglang` "
        "(ai-dynamo 0.8.1): argparse stops the launch with 'unrecognized arguments'; did you mean `--tp-size`?"
    )  # `--store-kv mem` (ai-dynamo 0.7 to 0.9's own) is taken out with its value


def test_what_dynamo_turns_into_sglang_settings_itself_is_said_partly_read():
    findings = PARTLY.findings()
    assert [f[:4] for f in findings] == [
        ("SLM004", 5, 55, "--disagg-config"),
        ("SLM004", 7, 55, "--load-format"),
        ("SLM004", 8, 55, "--dyn-tool"),
    ]
    assert (
        "(`--disagg-config` is Dynamo's: it sets SGLang's settings itself (ai-dynamo 1.0.0 to"
        in findings[0][4]
    )
    assert "adds `gms` to `--load-format`'s choices itself" in findings[1][4]
    assert (
        "Dynamo's own parser reads `--dyn-tool` as an abbreviation of `--dyn-tool-call-parser`"
        in findings[2][4]
    )


def test_an_option_of_dynamos_taking_several_values_takes_them_all():
    """ai-dynamo 1.6's `--connector` (`nargs="*"`) takes the words up to the next option;
    `--endpoint dyn://a.b.c` takes its value: neither reaches SGLang's parser."""
    text = (
        "python3 -m dynamo.sglang --model-path m --connector nixl lmcache --endpoint dyn://a.b.c "
        "--tp-szie 2 --page-size 16\n"
    )
    findings = lint_text(text, "run.sh").findings
    assert [(f.code, f.span.column) for f in findings] == [("FLG001", 89)]


def test_the_old_worker_modules_are_said_not_read():
    (finding,) = OLD.findings()
    assert finding[:4] == ("SLM005", 4, 12, "dynamo.sglang")
    assert (
        finding[4]
        == "this file names `dynamo.sglang` but speclint found no launch in it: nothing here was checked"
    )


def test_an_old_worker_module_beside_a_launch_read_is_said_not_read_at_its_name():
    text = (
        "python3 -m dynamo.sglang --model-path m --tp-size 1 &\n"
        "python3 -m dynamo.sglang.decode_worker --model-path m --tp-size 1\n"
    )
    (finding,) = lint_text(text, "run.sh").findings
    assert (finding.code, finding.span.line, finding.span.column) == ("SLM005", 2, 12)
    assert finding.message == (
        "speclint did not read this command: `dynamo.sglang.decode_worker` is one of ai-dynamo's "
        "older SGLang worker modules, whose parser speclint has not read (it reads `python -m "
        "dynamo.sglang`), so nothing in this launch was checked"
    )


def test_a_doc_and_a_python_argv_are_read_too():
    doc = "Start a worker: `python3 -m dynamo.sglang --model-path m --tp-szie 2`.\n"
    (finding,) = lint_text(doc, "README.md").findings
    assert (finding.code, finding.span.line, finding.span.column) == ("FLG001", 1, 58)
    code = 'import subprocess\nsubprocess.Popen(["python3", "-m", "dynamo.sglang", "--model-path", "m", "--dp-szie", "2"])\n'
    (finding,) = lint_text(code, "launch.py").findings
    assert (finding.code, finding.span.line, finding.span.column) == ("FLG001", 2, 75)


def test_an_image_of_nvidias_names_the_ai_dynamo_release_and_its_sglang_pin():
    image = "nvcr.io/nvidia/ai-dynamo/sglang-runtime:0.7.1"
    assert image_release(image) == "0.7.1" and sglang_pin("0.7.1") == "0.5.4.post3"
    assert version_from_image(image) == "0.5.4.post3"  # not "SGLang 0.7.1"
    assert choose_version(None, image) == VersionChoice(
        "0.5.4.post3",
        f"from the image {image} (ai-dynamo 0.7.1 pins sglang==0.5.4.post3)",
        from_launch=True,
    )
    unread = choose_version(None, "nvcr.io/nvidia/ai-dynamo/sglang-runtime:9.9.9")
    assert "unverified for the SGLang of ai-dynamo 9.9.9" in unread.reason
    assert unread.unread == "the SGLang of ai-dynamo 9.9.9" and unread.from_launch
    assert image_release("lmsysorg/sglang:v0.5.6") is None


def test_sglangs_own_launcher_in_a_dynamo_image_is_checked_against_the_pinned_release():
    text = (
        "FROM nvcr.io/nvidia/ai-dynamo/sglang-runtime:1.6.1\n"
        'CMD ["python3", "-m", "sglang.launch_server", "--model-path", "m", "--cuda-graph-max-bs", "8"]\n'
    )
    (finding,) = lint_text(text, "Dockerfile").findings
    assert finding.code == "FLG002" and "ambiguous in SGLang 0.5.21" in finding.message


def test_regenerating_from_the_cached_wheels_reproduces_the_stored_readings():
    use_tools()
    from gen_dynamo_sglang import CACHE, build
    from line_array import line_array

    versions = list(dynamo_versions())
    assert_regenerates(
        _DATA,
        versions,
        lambda: line_array(*build(versions, CACHE), []),
        wheels=Path(CACHE),
        wheel_name="ai_dynamo-{}-*.whl",
    )
