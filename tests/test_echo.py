"""`speclint.report.echo`: what click.echo does to text, without importing click."""

from __future__ import annotations

import io
import sys

import click
import pytest

from speclint.report.echo import echo, strip_ansi

RED = "\x1b[31mred\x1b[0m and \x1b[1;4mbold\x1b[22m"


class Terminal(io.StringIO):
    encoding = "utf-8"

    def isatty(self) -> bool:
        return True


class Pipe(io.StringIO):
    encoding = "utf-8"


def both(monkeypatch, stream_type, **options):
    """What echo and click.echo write to the same kind of stream."""
    ours, theirs = stream_type(), stream_type()
    monkeypatch.setattr(sys, "stdout", ours)
    echo(RED, **options)
    monkeypatch.setattr(sys, "stdout", theirs)
    click.echo(RED, **options)
    return ours.getvalue(), theirs.getvalue()


@pytest.mark.parametrize("stream_type", [Terminal, Pipe])
@pytest.mark.parametrize("options", [{}, {"color": True}, {"color": False}, {"nl": False}])
def test_echo_writes_what_click_writes(monkeypatch, stream_type, options):
    ours, theirs = both(monkeypatch, stream_type, **options)
    assert ours == theirs


def test_colours_are_dropped_off_a_terminal_and_kept_on_one(monkeypatch):
    assert both(monkeypatch, Pipe)[0] == "red and bold\n"
    assert both(monkeypatch, Terminal)[0] == RED + "\n"
    assert strip_ansi(RED) == "red and bold"


def test_standard_error(monkeypatch):
    err = Pipe()
    monkeypatch.setattr(sys, "stderr", err)
    echo("speclint: error: x", err=True)
    assert err.getvalue() == "speclint: error: x\n"


def test_an_ascii_stream_is_left_to_click(monkeypatch):
    """click re-wraps a stream whose encoding is ASCII (so non-ASCII text is not an error)."""
    raw = io.BytesIO()
    ascii_stream = io.TextIOWrapper(raw, encoding="ascii")
    monkeypatch.setattr(sys, "stdout", ascii_stream)
    echo("déjà vu")
    ascii_stream.flush()
    assert raw.getvalue().decode("utf-8") == "déjà vu\n"
