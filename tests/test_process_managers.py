"""PM2 and systemd-run in front of the server: `pm2 start "CODE"` runs CODE with `bash -c`,
`pm2 start python3 [options] -- ARGS` runs the interpreter with the words after `--`, and
`systemd-run [options] COMMAND` runs COMMAND in a transient unit with its `--setenv` and `-p
Environment=` values (with `--scope`, the caller's environment too) (before: `pm2 start
python3 ... --` passed with nothing said, the others no launch found: SLM005)."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.frontends import extract_file

FILE = FixtureFile("shell/process_managers.sh")


def test_each_managed_launch_is_checked_at_its_words() -> None:
    findings = FILE.findings()
    assert [f[:4] for f in findings] == [
        ("FLG001", 5, 71, "--tp-sise"),
        ("FLG005", 7, 73, "high"),
        ("FLG001", 9, 62, "--mem-fraction-statics"),
    ]
    assert "is not an SGLang 0.5.23 flag" in findings[0][4]
    assert "high" in findings[1][4] and "--port" in findings[1][4]


def test_environment_of_each_managed_process() -> None:
    string, interpreter, unit, scope, properties = extract_file(str(FILE.path), FILE.text).launches
    env = [
        {name: word.text for name, word in launch.env.items()}
        for launch in (string, interpreter, unit, scope, properties)
    ]
    assert env[0] == {"HF_HOME": "/data/hf"}  # pm2's own environment: the script's exports
    assert env[1] == {"HF_HOME": "/data/hf", "CUDA_VISIBLE_DEVICES": "0,1"}
    assert env[2] == {"SGLANG_LOG_LEVEL": "debug"}  # a service: only --setenv, not HF_HOME
    assert env[3] == {"HF_HOME": "/data/hf"}  # --scope: the caller's
    assert FILE.at(unit.env["SGLANG_LOG_LEVEL"].span) == (8, 86, "debug")
    assert [w.text for w in interpreter.args[:2]] == ["--model-path", "/models/qwen3"]
    assert env[4] == {"HF_HOME": "/data/hf", "SGLANG_HOST_IP": "0.0.0.0"}  # -p Environment=
    assert FILE.at(properties.env["SGLANG_HOST_IP"].span) == (12, 103, "0.0.0.0")
