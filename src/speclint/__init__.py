"""speclint: a linter for the commands that launch LLM inference servers (SGLang first)."""

__version__ = "0.1.0"
