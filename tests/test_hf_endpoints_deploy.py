"""`hf endpoints deploy ... --container-command "CMD" --container-args "ARGS"` (huggingface_hub's
`deploy`: `shlex.split` of each, `--custom-image` the image, `-e KEY=VALUE` the environment):
read when both strings are plain text, which shlex and the shell split alike; an `--env-file`
leaves the container's environment unknown (SLM004 at its name); a string the shell expands
(`$KEY`) is not read and stays reported (SLM005). Before: SLM005 for each. `az containerapp
create --command ... --args ...` stays said not read: az releases split those lists differently
(comma-separated in early releases, separate words later, where argparse ends a list at a word
starting with `-`)."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.frontends import extract_file

HF = FixtureFile("shell/hf_endpoints_deploy.sh")
AZ = FixtureFile("unread/az_containerapp.sh")


def test_the_endpoints_container_is_read() -> None:
    findings = HF.findings()
    assert [f[:4] for f in findings] == [
        ("FLG006", 9, 54, "halff"),
        ("SLM004", 13, 52, "prod.env"),
        ("SLM005", 17, 24, "python3 -m sglang.launch_server"),
    ]
    assert "invalid choice: 'halff'" in findings[0][4]
    assert "may be set by `--env-file prod.env` (line 13), which speclint does not read" in findings[1][4]
    served, prod = extract_file(str(HF.path), HF.text).launches
    assert [w.text for w in served.args] == [
        "--model-path",
        "/repository",
        "--dtype",
        "halff",
        "--port",
        "30000",
    ]
    assert (served.image, served.env["SGLANG_LOG_LEVEL"].text) == ("lmsysorg/sglang:v0.5.6", "info")
    assert HF.at(served.args[3].span) == (9, 54, "halff")
    assert prod.env_unread is not None


def test_az_containerapp_stays_said_not_read() -> None:
    (finding,) = AZ.findings()
    assert finding[:4] == ("SLM005", 7, 24, "sglang.launch_server")
    assert "speclint reads no launch through `az`" in finding[4]
    assert extract_file(str(AZ.path), AZ.text).launches == []
