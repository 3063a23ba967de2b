from sglang.test.server_fixtures.eagle_fixture import EagleServerBase


class Eagle3Base(EagleServerBase):
    spec_algo = "EAGLE3"
    spec_topk = 1


class TestEagle3Tokens(Eagle3Base):
    spec_tokens = 16
