from sglang.test.kits.eval_accuracy_kit import GSM8KMixin
from sglang.test.server_fixtures.dsa_mtp_fixture import DsaMtpServerBase
from sglang.test.server_fixtures.eagle_fixture import EagleServerBase
from sglang.test.server_fixtures.ngram_fixture import NgramServerBase


class TestEagleDefaults(EagleServerBase):
    pass


class TestNgramTriton(NgramServerBase, GSM8KMixin):
    attention_backend = "triton"


class TestDsaMtp(DsaMtpServerBase):
    model = "deepseek-ai/DeepSeek-V3.2"
