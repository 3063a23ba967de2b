from sglang.test.server_fixtures.ngram_fixture import NgramServerBase


class TestNgramBadBackend(NgramServerBase):
    attention_backend = "tritonn"
