"""SGLang's suite form: the fixture base launches in setUpClass; the subclass sets values."""

import unittest

from sglang.test.server_fixtures.eagle_fixture import EagleServerBase


class TestEagleDraftTokens(EagleServerBase):
    spec_algo = "EAGLE"
    draft_model = "jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B"
    spec_tokens = 16
    extra_args = ["--tp", "2"]

    def test_accept_length(self):
        self.assertGreater(self.accept_length(), 1.5)


if __name__ == "__main__":
    unittest.main()
