from sglang.test.kits.eval_accuracy_kit import GSM8KMixin
from sglang.test.server_fixtures.default_fixture import DefaultServerBase


class TestQwenTP2(GSM8KMixin, DefaultServerBase):
    model = "Qwen/Qwen3-8B"
    other_args = ["--tp", "2", "--chunked-prefill-size", "4096"]
