"""`python3 -m dynamo.sglang ...` (NVIDIA Dynamo's SGLang worker) starts SGLang through a
parser speclint has not read: a file running it and no SGLang launch gets `no-launch-found`
(SLM005) at the first mention, not "All checks passed: 0 launches"."""

from __future__ import annotations

from fixture_file import FixtureFile

WORKERS = FixtureFile("unread/dynamo_sglang_worker.sh")


def test_the_dynamo_worker_is_said_not_read():
    (finding,) = WORKERS.findings()
    assert finding[:4] == ("SLM005", 6, 12, "dynamo.sglang")
    assert (
        finding[4]
        == "this file names `dynamo.sglang` but speclint found no launch in it: nothing here was checked"
    )
