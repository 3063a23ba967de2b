"""The one error the settings layer raises, apart so the pipeline can catch it without loading
the configuration readers."""

from __future__ import annotations


class ConfigError(Exception):
    """A configuration file that cannot be used: exit code 2 with this message."""
