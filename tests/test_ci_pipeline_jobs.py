"""CI pipelines that start SGLang in a job script: GitLab CI (`before_script:` + `script:` in
one shell, `variables:`, the job's or default `image:`), Azure Pipelines (`steps:` with
`script:`/`bash:`, `$(name)` macros unknown) and a GitHub Actions excerpt shown without its
`on:` trigger. Was: SLM005 "found no launch", nothing checked."""

from __future__ import annotations

from findings_at import findings_at

from speclint.engine import lint_text

GITLAB = """\
variables:
  MODEL: Qwen/Qwen3-8B

default:
  image: lmsysorg/sglang:v0.5.5

stages: [serve]

serve-model:
  stage: serve
  variables:
    TP: "2"
  before_script:
    - nvidia-smi
  script:
    - python3 -m sglang.launch_server --model-path $MODEL --tp-size $TP --dtype float64 &
    - sleep 120

lint:
  image:
    name: python:3.12
  script: ruff check .
"""

AZURE = """\
trigger:
  - main
pool:
  vmImage: ubuntu-latest
stages:
  - stage: serve
    jobs:
      - job: sglang
        steps:
          - checkout: self
          - bash: |
              python3 -m sglang.launch_server \\
                --model-path $(modelPath) \\
                --tp-szie 2
            displayName: start server
"""

GITHUB_EXCERPT = """\
jobs:
  smoke:
    runs-on: [self-hosted, gpu]
    steps:
      - uses: actions/checkout@v4
      - name: serve
        run: |
          python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B --quantization fp9 &
          sleep 60
"""


def _found(text: str, path: str) -> list[tuple]:
    return findings_at(text, path)


def test_a_gitlab_job_script_is_a_launch_with_its_variables_and_image():
    result = lint_text(GITLAB, ".gitlab-ci.yml")
    assert len(result.contexts) == 1
    assert result.contexts[0].version.version == "0.5.5"
    assert _found(GITLAB, ".gitlab-ci.yml") == [("FLG006", 16, 81, "float64")]
    assert result.findings[0].message.startswith(
        "`float64` is not a valid value for `--dtype`: argparse stops the launch with"
    )
    # $MODEL and $TP come from `variables:` (pipeline and job): no "partly read" finding


def test_an_azure_step_script_is_read_with_its_macros_unknown():
    assert _found(AZURE, "azure-pipelines.yml") == [
        ("SLM004", 13, 30, "$(modelPath)"),
        ("FLG001", 14, 17, "--tp-szie"),
    ]
    result = lint_text(AZURE, "azure-pipelines.yml")
    assert "`$(modelPath)` is an Azure Pipelines expression, known only when the pipeline runs" in (
        result.findings[0].message
    )
    assert result.findings[1].message.startswith("`--tp-szie` is not an SGLang 0.5.23 flag")


def test_a_github_workflow_excerpt_without_its_trigger_is_read():
    assert _found(GITHUB_EXCERPT, "ci.yml") == [("FLG006", 8, 85, "fp9")]
