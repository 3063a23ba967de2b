"""Two `ExecStart=` commands in a service that is not `Type=oneshot`: systemd refuses the unit
(src/core/service.c `service_verify`), so speclint says so at the second, where the file, a
doc's block or a script's here-document writes it; a drop-in's `ExecStart=` after the empty
reset is the one command, and a drop-in that does not give `Type=` is not judged."""

from __future__ import annotations

from findings_at import findings_at

_LAUNCH = "ExecStart=/usr/bin/python3 -m sglang.launch_server --model-path m"
_SECOND = "/usr/bin/python3 -m sglang.launch_server --model-path m --tp-size 2"
"""The command of the second `ExecStart=` (`{_LAUNCH} --tp-size 2`), where the finding points."""


def test_a_second_exec_start_is_refused_by_systemd() -> None:
    text = f"[Unit]\nDescription=sglang\n[Service]\n{_LAUNCH}\n{_LAUNCH} --tp-size 2\n"
    ((code, line, column, token, message),) = findings_at(text, "sglang.service", message=True)
    assert (code, line, column, token) == ("SLM001", 5, 11, _SECOND)
    assert message.startswith(
        "systemd refuses this unit: this `ExecStart=` follows another in a `Type=simple` service "
        "(no `Type=` given), where only `Type=oneshot` may have more than one"
    )
    assert "put an empty `ExecStart=` before this one" in message


def test_oneshot_a_reset_or_a_drop_in_without_type_is_not_reported() -> None:
    for text, path in (
        (f"[Service]\nType=oneshot\n{_LAUNCH}\n{_LAUNCH} --tp-size 2\n", "sglang.service"),
        (f"[Service]\n{_LAUNCH}\nExecStart=\n{_LAUNCH} --tp-size 2\n", "sglang.service"),
        (f"[Service]\n{_LAUNCH}\n{_LAUNCH} --tp-size 2\n", "sglang.service.d/override.conf"),
    ):
        assert findings_at(text, path) == [], text


def test_a_drop_in_that_gives_its_type_is_judged() -> None:
    text = f"[Service]\nType=notify\nExecStart=\n{_LAUNCH}\n{_LAUNCH} --tp-size 2\n"
    ((code, line, column, token, message),) = findings_at(
        text, "sglang.service.d/override.conf", message=True
    )
    assert (code, line, column, token) == ("SLM001", 5, 11, _SECOND)
    assert "follows another in `Type=notify`" in message


def test_positions_in_a_script_that_writes_the_unit() -> None:
    text = (
        "#!/bin/bash\n"
        "sudo tee /etc/systemd/system/sglang.service > /dev/null <<'EOF'\n"
        f"[Service]\n{_LAUNCH}\n{_LAUNCH} --tp-size 2\nEOF\n"
    )
    assert findings_at(text, "install.sh") == [("SLM001", 5, 11, _SECOND)]
