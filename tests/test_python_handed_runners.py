"""An argv handed to a thread, a process, an executor or the event loop, which call the
runner with it later (`Thread(target=subprocess.run, args=(cmd,))`, `executor.submit(Popen,
cmd)`, `loop.run_in_executor(None, subprocess.run, cmd)`, `map(subprocess.Popen, cmds)`): read
as the call it makes (before: passed over in silence in a file with other launches); handed
to a callable speclint does not read, or with arguments in a name whose value it cannot read,
it is reported not read; arguments in names the file assigns are read as written there."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.engine import lint_text

FILE = FixtureFile("python/handed_runners.py")


def test_each_handed_launch_is_checked_at_the_token_it_wrote() -> None:
    found = [f[:4] for f in FILE.findings()]
    assert found == [
        ("FLG005", 20, 50, "port"),  # start(BASE, "thirty") through Thread(target=start, ...)
        ("FLG001", 23, 56, "--tp-sise"),  # Thread(target=subprocess.run, args=(...), kwargs={...})
        ("FLG001", 25, 57, "--dp-sise"),  # Thread(target=lambda: subprocess.run(...))
        ("FLG001", 26, 97, "--ep-sise"),  # Process(target=os.system, args=("...",))
        ("FLG001", 28, 49, "--pp-sise"),  # pool.apply_async(subprocess.call, (...,))
        ("PAR001", 30, 95, '"0"'),  # executor.submit(Popen, cmd, env={...}): env= is read
        ("SLM005", 31, 1, "threading.Thread"),
        ("PAR001", 32, 82, '"1"'),  # Thread(..., args=handed, kwargs=options): names the file assigns
        ("FLG001", 38, 63, "--mem-fraction-statc"),  # loop.run_in_executor(None, run, cmd)
        ("FLG001", 39, 54, "--chunked-prefil-size"),  # asyncio.to_thread(run, cmd, check=True)
        ("FLG005", 46, 57, "two"),  # list(map(subprocess.Popen, argvs)): argvs a name's list
        ("FLG001", 49, 55, "--dp-sise"),  # executor.map(Popen, [argv, argv]): one launch per item
    ]


def test_a_value_passed_through_the_thread_is_said_where_it_was_written() -> None:
    message = [f[4] for f in FILE.findings() if f[0] == "FLG005"][0]
    assert "`thirty` is not a valid value for `--port`" in message and "invalid int value" in message
    result = lint_text(FILE.text, str(FILE.path))
    finding = [f for f in result.findings if f.code == "FLG005"][0]
    assert [(note.span.line, note.span.column, note.message) for note in finding.notes] == [
        (24, 44, "value assigned here")
    ]


def test_a_launch_handed_where_speclint_cannot_follow_it_is_said_not_read() -> None:
    messages = [f[4] for f in FILE.findings() if f[0] == "SLM005"]
    assert messages == [
        "speclint did not read this launch: `threading.Thread(...)` at line 31 hands an SGLang launch to "
        "`runner.go`, which speclint does not read, so nothing in it was checked",
    ]


def test_the_summary_counts_the_handed_launches() -> None:
    result = lint_text(FILE.text, str(FILE.path))
    assert len(result.contexts) == 14  # the direct run, eight handed, start() at its call, 2 + 2 mapped


def test_a_big_file_keeps_the_handing_statements() -> None:
    """Over SELECT_MIN_CHARS only the statements that may launch are read: the handing
    ones are among them."""
    filler = "".join(f"VALUE_{index} = {index}\n" for index in range(1500))
    head, _, rest = FILE.text.partition("BASE = ")
    text = head + filler + "BASE = " + rest
    assert len(text) > 16 * 1024
    shift = filler.count("\n")
    codes = [(f.code, f.span.line - shift) for f in lint_text(text, str(FILE.path)).findings]
    assert codes == [(code, line) for code, line, _, _ in (f[:4] for f in FILE.findings())]


def test_odd_handings_are_read_reported_or_left_without_a_crash() -> None:
    text = (
        "import subprocess, threading\n"
        "from concurrent.futures import ThreadPoolExecutor as E\n"
        'cmd = ["python3", "-m", "sglang.launch_server", "--model-path", "m", "--tp-sise", "2"]\n'
        "threading.Thread(target=subprocess.run, args=(cmd,), kwargs=None).start()\n"
        "threading.Thread(target=lambda c: subprocess.run(c), args=(cmd,)).start()\n"
        "threading.Thread(target=subprocess.run, args=()).start()\n"
        "map(subprocess.run)\n"
        "E().submit()\n"
        "E().map(subprocess.run, 5)\n"
    )
    found = [(f.code, f.span.line, f.span.column) for f in lint_text(text, "odd.py").findings]
    assert found == [("FLG001", 3, 71), ("SLM005", 5, 1)]
    assert len(lint_text(text, "odd.py").contexts) == 1  # kwargs=None: the call without keywords


def test_arguments_held_in_names_are_read_where_the_file_wrote_them() -> None:
    result = lint_text(FILE.text, str(FILE.path))
    (found,) = [f for f in result.findings if f.code == "PAR001" and f.span.line == 32]
    assert "CUDA_VISIBLE_DEVICES=1 leaves 1 GPU visible" in found.message  # kwargs=options: env= read
    assert [(n.span.line, n.span.column, n.message) for n in found.notes] == [
        (32, 82, "value assigned here"),
        (32, 42, "--tp-size 2 is set here"),  # args=handed: the argv inside the tuple
    ]


def test_arguments_in_a_name_whose_value_is_not_known_are_said_not_read() -> None:
    text = (
        "import subprocess, sys, threading\n"
        'cmd = ["python3", "-m", "sglang.launch_server", "--model-path", "m", "--tp-sise", "2"]\n'
        "handed = (cmd, *sys.argv[1:])\n"
        "threading.Thread(target=subprocess.run, args=handed).start()\n"
        "options = load_options()\n"
        "threading.Thread(target=subprocess.run, args=(cmd,), kwargs=options).start()\n"
        "threading.Thread(target=subprocess.run, args=(cmd,), kwargs={**options}).start()\n"
    )
    found = [(f.code, f.span.line, f.span.column, f.message) for f in lint_text(text, "held.py").findings]
    assert [f[:3] for f in found] == [("FLG001", 2, 71), ("SLM005", 4, 1), ("SLM005", 6, 1)]
    assert "through `handed`, which speclint cannot read as the call's arguments" in found[1][3]
    assert "cannot read as the call's arguments" in found[2][3]  # kwargs=options: a call's result
