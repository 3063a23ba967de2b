"""The files a test's runs lint for real, not answered from the cache (not a test module)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

import speclint.engine


def count_lints(monkeypatch: pytest.MonkeyPatch, shown: Callable[[str], str] = str) -> list[str]:
    """From now on, each path `speclint.engine.lint_text` lints (as `shown(path)`), in order."""
    linted: list[str] = []
    real = speclint.engine.lint_text

    def counting(text, path, *args, **kwargs):
        linted.append(shown(path))
        return real(text, path, *args, **kwargs)

    monkeypatch.setattr(speclint.engine, "lint_text", counting)
    return linted
