"""`sgl.Engine(server_args=X)`: settings made in the file are read where they are made; settings
from outside (an attribute of the program's arguments, a function parameter) are reported at
the Engine call (SLM005), never passed over beside other launches."""

from __future__ import annotations

from findings_at import findings_at

HEAD = "import sglang as sgl\nfrom sglang.srt.server_args import ServerArgs\n"


def test_settings_from_the_program_s_arguments_are_reported_at_the_engine_call() -> None:
    text = (
        HEAD
        + 'llm = sgl.Engine(model_path="/m", tp_szie=2)\nother = sgl.Engine(server_args=args.server_args)\n'
    )
    found = findings_at(text, "serve.py", message=True)
    assert [f[:4] for f in found] == [("FLG001", 3, 35, "tp_szie"), ("SLM005", 4, 9, "sgl.Engine")]
    assert found[1][4] == (
        "speclint did not read this launch: `sgl.Engine(...)` at line 4 takes its settings from a value "
        "speclint cannot know (`args.server_args` is only known when the program runs), so nothing in it "
        "was checked"
    )


def test_settings_made_in_the_file_are_read_where_they_are_made() -> None:
    text = HEAD + 'sa = ServerArgs(model_path="/m", tp_szie=2)\nllm = sgl.Engine(server_args=sa)\n'
    assert findings_at(text, "serve.py") == [("FLG001", 3, 34, "tp_szie")]


def test_a_function_parameter_is_reported() -> None:
    text = HEAD + "def start(server_args):\n    return sgl.Engine(server_args=server_args)\n"
    ((code, line, column, token, message),) = findings_at(text, "serve.py", message=True)
    assert (code, line, column, token) == ("SLM005", 4, 12, "sgl.Engine")
    assert "(parameter `server_args` of start())" in message
