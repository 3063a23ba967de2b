"""`sgl.Engine(server_args=X)`: settings made in the file are read where they are made; settings
from outside (an attribute of the program's arguments, a function parameter) are reported at
the Engine call (SLM005), never passed over beside other launches."""

from __future__ import annotations

from speclint.engine import lint_text

HEAD = "import sglang as sgl\nfrom sglang.srt.server_args import ServerArgs\n"


def _found(text: str) -> list[tuple[str, int, int, str]]:
    return [(f.code, f.span.line, f.span.column, f.message) for f in lint_text(text, "serve.py").findings]


def test_settings_from_the_program_s_arguments_are_reported_at_the_engine_call() -> None:
    text = (
        HEAD
        + 'llm = sgl.Engine(model_path="/m", tp_szie=2)\nother = sgl.Engine(server_args=args.server_args)\n'
    )
    found = _found(text)
    assert [(code, line, column) for code, line, column, _ in found] == [("FLG001", 3, 35), ("SLM005", 4, 9)]
    assert found[1][3] == (
        "speclint did not read this launch: `sgl.Engine(...)` at line 4 takes its settings from a value "
        "speclint cannot know (`args.server_args` is only known when the program runs), so nothing in it "
        "was checked"
    )


def test_settings_made_in_the_file_are_read_where_they_are_made() -> None:
    text = HEAD + 'sa = ServerArgs(model_path="/m", tp_szie=2)\nllm = sgl.Engine(server_args=sa)\n'
    assert [(code, line, column) for code, line, column, _ in _found(text)] == [("FLG001", 3, 34)]


def test_a_function_parameter_is_reported() -> None:
    text = HEAD + "def start(server_args):\n    return sgl.Engine(server_args=server_args)\n"
    ((code, line, column, message),) = _found(text)
    assert (code, line, column) == ("SLM005", 4, 12)
    assert "(parameter `server_args` of start())" in message
