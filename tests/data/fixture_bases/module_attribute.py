from sglang.test.server_fixtures import eagle_fixture


class TestEagle3ThroughModule(eagle_fixture.EagleServerBase):
    spec_algo = "EAGLE3"
    spec_topk = 1
