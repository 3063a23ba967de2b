"""The same launch written out with popen_launch_server."""

from sglang.test.test_utils import DEFAULT_URL_FOR_TEST, popen_launch_server

process = popen_launch_server(
    "meta-llama/Llama-2-7b-chat-hf",
    DEFAULT_URL_FOR_TEST,
    other_args=[
        "--speculative-algorithm=EAGLE",
        "--speculative-draft-model-path=jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B",
        "--speculative-num-steps=5",
        "--speculative-eagle-topk=8",
        "--speculative-num-draft-tokens=16",
        "--mem-fraction-static=0.7",
        "--tp",
        "2",
    ],
)
