"""OME (sgl-project/ome) ClusterServingRuntime: `engineConfig`, `decoderConfig` and
`routerConfig` each hold a `runner:` Container spec (under `leader:`/`worker:` for a
multi-node engine). Each runner is read as a Kubernetes container (its image picks the
release); before, the file was "names `sglang.launch_server` but speclint found no launch"."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.frontends import extract_file

RUNTIME = FixtureFile("k8s/ome_pd_runtime.yaml")


def test_each_runner_is_a_launch_with_its_image():
    launches = extract_file(str(RUNTIME.path), RUNTIME.text).launches
    assert [launch.span.line for launch in launches] == [26, 44]  # the router starts no server
    assert {launch.image for launch in launches} == {"docker.io/lmsysorg/sglang:v0.4.8.post1-cu126"}
    words = [" ".join(word.text or "?" for word in launch.args) for launch in launches]
    assert "--disaggregation-mode prefill" in words[0]
    assert "--disaggregation-mode=decode" in words[1]


def test_the_decoder_flags_are_checked_against_the_runner_image():
    found = RUNTIME.findings()
    (choice,) = [f for f in found if f[0] == "FLG006"]
    assert choice[1:4] == (50, 25, "low-latency")
    assert "`low-latency` is not a valid value for `--deepep-mode`" in choice[4]
    assert not [f for f in found if f[0] == "SLM005"]
