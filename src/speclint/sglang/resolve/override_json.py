"""`--json-model-override-args` that is not JSON: every release's `ModelConfig.__init__` runs
`json.loads(model_override_args)` on it, and every launch builds a ModelConfig (the
tokenizer manager's, the schedulers'), so the launch stops with `json.decoder.JSONDecodeError`
after its processes started (tools/gen_sglang_override_json.py reads this per release into
`data/sglang_override_json.json`). Checked with Python's own `json.loads`, the function SGLang
calls; a release read otherwise is not checked."""

from __future__ import annotations

import os
from functools import lru_cache

from speclint.sglang.linedata import LineData
from speclint.sglang.resolve.state import Stop, given

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.sglang.resolve.state import ResolutionState

_FILE = LineData(
    os.path.join(
        os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "sglang_override_json.json"
    )
)


@lru_cache(maxsize=32)
def _reading(version: str) -> str:
    row = _FILE.row(version)
    if not isinstance(row, dict) or "override_json" not in row:
        return "other"
    return str(_FILE.shared(row["override_json"]))


def check_override_json(state: ResolutionState) -> None:
    if not state.config.given("json_model_override_args"):
        return  # (SGLang's default `{}`: nothing to check, and no `json` import for it)
    value = given(state, "json_model_override_args")
    if not isinstance(value, str) or _reading(state.checked_version) != "model_config_init":
        return
    import json

    try:
        json.loads(value)
    except ValueError as error:  # (json.JSONDecodeError)
        shown = value if len(value) <= 60 else value[:57] + "..."
        raise Stop(
            "json.decoder.JSONDecodeError",
            f"{error} (`--json-model-override-args {shown}` is not JSON: keys and strings "
            "take double quotes, and no comma may end an object or a list)",
            "ModelConfig.__init__ (json.loads, at start-up)",
            ("json_model_override_args",),
        ) from None
