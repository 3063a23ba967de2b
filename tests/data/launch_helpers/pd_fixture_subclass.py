from sglang.test.server_fixtures.disaggregation_fixture import PDDisaggregationServerBase


class TestPDSpeculative(PDDisaggregationServerBase):
    model = "meta-llama/Llama-3.1-8B-Instruct"
    extra_prefill_args = ["--speculative-algorithm", "EAGLE"]
    extra_decode_args = ["--speculative-algoritm", "EAGLE"]

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.launch_all()
