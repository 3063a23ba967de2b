"""`${...}` in a Kubernetes container's argv (k8s_expand): the kubelet expands only `$(VAR)`,
so a `${NAME}` is a placeholder a tool fills in before the manifest is applied (envsubst, a
template) and an OmegaConf/Hydra `${model.path}` inside a `bash -c` script is resolved when
the config is loaded: both unknown values (SLM004), never checked as the literal text (a
false FLG005 on `${TP}`) nor left to break the script's parse (a false FLG010 on `30000`)."""

from __future__ import annotations

from fixture_file import FixtureFile

FILE = FixtureFile("k8s/template_placeholders.yaml")


def test_placeholders_are_unknown_and_the_written_values_are_checked() -> None:
    found = [(code, line, column, text) for code, line, column, text, _ in FILE.findings()]
    assert found == [
        ("SLM004", 15, 35, "${MODEL_PATH}"),
        ("FLG006", 15, 97, "flashinfers"),
        ("SLM004", 30, 60, "${model.path}"),
        ("FLG005", 30, 140, "high"),
    ]


def test_the_notes_say_what_fills_each_placeholder() -> None:
    notes = [message for code, _, _, _, message in FILE.findings() if code == "SLM004"]
    assert (
        "`${TP}` is passed by Kubernetes as written: a placeholder filled in before the manifest is applied"
        in notes[0]
    )
    assert "`${model.tp}` is an OmegaConf/Hydra interpolation, resolved when the config is loaded" in notes[1]


def test_a_shell_default_in_the_script_stays_the_shell_s() -> None:
    from speclint.frontends import extract_file

    launches = extract_file(str(FILE.path), FILE.text).launches
    port = launches[1].args[
        launches[1].args.index(next(w for w in launches[1].args if w.text == "--port")) + 1
    ]
    assert port.text == "30000"  # `${PORT:-30000}`: bash's default, PORT not set in the container
