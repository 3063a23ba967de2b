"""Cloud Run's `$(NAME)` in a container's command and args (the Cloud Run Admin API's
Container reference: expanded from the container's environment, `$$(NAME)` escaped, a name not
resolved left as written; Kubernetes' rules), in the service YAML and in `gcloud run deploy
--args`. Before: gcloud read `$$(NAME)` as `$` then the value. A name the file does not set
(Cloud Run's own `PORT`) is unknown, never the literal text."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.frontends import extract_file

SERVICE = FixtureFile("k8s/cloud_run_service.yaml")
GCLOUD = FixtureFile("shell/gcloud_run_references.sh")
READ = ["--model-path=Qwen/Qwen3-8B", "--served-model-name=$(MODEL_ID)", "--dtype=bf16", None]


def test_the_service_yaml() -> None:
    findings = SERVICE.findings()
    assert [f[:4] for f in findings] == [
        ("FLG006", 16, 15, "--dtype=$(DTYPE)"),
        ("SLM004", 17, 15, "--port=$(PORT)"),
    ]
    assert "invalid choice: 'bf16'" in findings[0][4]
    (launch,) = extract_file(str(SERVICE.path), SERVICE.text).launches
    assert [w.text for w in launch.args] == READ


def test_gcloud_run_deploy_args() -> None:
    findings = GCLOUD.findings()
    assert [f[:4] for f in findings] == [
        ("FLG006", 5, 93, "--dtype=$(DTYPE)"),
        ("SLM004", 5, 110, "--port=$(PORT)"),
    ]
    assert "`$(PORT)`: expanded from the container's environment when it starts" in findings[1][4]
    (launch,) = extract_file(str(GCLOUD.path), GCLOUD.text).launches
    assert [w.text for w in launch.args] == READ  # `$$(MODEL_ID)`: kept, one `$` less
