"""A ```yaml fence holding a docker-compose service or a Kubernetes manifest that runs SGLang
is read by the YAML front-end beside the doc's shell blocks (was: passed over unless it named
`sglang_config` or a speculative flag, so a file whose bash block was read said "All checks
passed" over the manifest's launch); an abridged manifest that does not parse says it was not read."""

from __future__ import annotations

from findings_at import findings_at

from speclint.engine import lint_text

DOC = """\
Start the server:

```bash
python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B --dtype bfloat16
```

With docker compose:

```yaml
services:
  sglang:
    image: lmsysorg/sglang:v0.5.5
    command: python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B --dtype float64
```

On Kubernetes:

```yml
apiVersion: v1
kind: Pod
metadata:
  name: server
spec:
  containers:
    - name: sglang
      image: lmsysorg/sglang:latest
      args: ["python3", "-m", "sglang.launch_server", "--model-path", "Qwen/Qwen3-8B", "--tp-szie", "2"]
```

Helm values that only name the engine:

```yaml
engine: sglang
replicas: 2
```
"""

ABRIDGED = """\
```bash
python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B
```

```yaml
services:
  sglang:
    image: lmsysorg/sglang:latest
    ...
    command: python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B --tp 2
  [more services]
```
"""


def _found(text: str) -> list[tuple]:
    return findings_at(text, "README.md")


def test_compose_and_kubernetes_fences_are_launches_at_their_doc_positions():
    result = lint_text(DOC, "README.md")
    assert [c.launch.span.line for c in result.contexts] == [4, 13, 27]
    assert _found(DOC) == [
        ("FLG006", 13, 81, "float64"),
        ("FLG001", 27, 89, "--tp-szie"),
    ]
    by_code = {f.code: f for f in result.findings}
    assert by_code["FLG006"].message.startswith(
        "`float64` is not a valid value for `--dtype`: argparse stops the launch with"
    )
    assert by_code["FLG001"].message.startswith("`--tp-szie` is not an SGLang 0.5.23 flag")


def test_the_compose_image_tag_picks_the_release():
    result = lint_text(DOC, "README.md")
    versions = [c.version.version for c in result.contexts]
    assert versions[1] == "0.5.5"


def test_an_abridged_manifest_says_its_launch_was_not_read():
    assert _found(ABRIDGED) == [("SLM005", 10, 14, "python3 -m sglang.launch_server")]
    result = lint_text(ABRIDGED, "README.md")
    assert result.findings[0].message == (
        "speclint did not read the command that runs `python3 -m sglang.launch_server` in this code "
        "block (it is not YAML speclint could read as a manifest), so nothing in this launch was checked"
    )
