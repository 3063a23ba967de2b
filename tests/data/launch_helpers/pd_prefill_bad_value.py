import unittest

from sglang.test.test_utils import popen_launch_pd_server


class TestDisaggregationSpec(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.model = "meta-llama/Llama-3.1-8B-Instruct"
        prefill_args = [
            "--disaggregation-mode",
            "prefill",
            "--tp",
            "1",
            "--speculative-algorithm",
            "EAGLE7",
        ]
        cls.process_prefill = popen_launch_pd_server(
            cls.model,
            "http://127.0.0.1:21100",
            timeout=600,
            other_args=prefill_args,
        )
