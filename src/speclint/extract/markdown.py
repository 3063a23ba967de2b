"""Markdown front-end: moved to `speclint.frontends.docs.markdown` (markdown-it-py)."""

from __future__ import annotations

from ..frontends.docs.markdown import extract_markdown

__all__ = ["extract_markdown"]
