from sglang.test.server_fixtures.eagle_fixture import EagleServerBase


class TestEagle3Setup(EagleServerBase):
    spec_algo = "EAGLE3"

    @classmethod
    def setUpClass(cls):
        cls.extra_args = ["--tp", "2"]
        cls.spec_topk = 1
        super().setUpClass()


class TestEagle3SetupTokens(TestEagle3Setup):
    spec_tokens = 16
