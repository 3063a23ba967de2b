"""The Python front-end's syntax tree in one namespace (`nodes`, `expressions`, `statements`):
the front-end imports it as `py` and reads `py.Call`, `py.Name`, ... as it read libcst's."""

# ruff: noqa: F403
from __future__ import annotations

from speclint.frontends.python.expressions import *
from speclint.frontends.python.nodes import *
from speclint.frontends.python.statements import *
