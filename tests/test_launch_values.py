"""`LaunchConfig.values_of`: the values resolution starts from, the ones no flag gives worked
out once per release. They must be what `value()` says for each field, launch after launch
of the same release (a field one launch gives must not stay for the next)."""

from __future__ import annotations

import pytest

from speclint.engine import lint_text
from speclint.sglang.resolve.defaults import DEFAULT_FIELDS
from speclint.sglang.resolve.state import MODELLED_FIELDS

LAUNCHES = [
    "python -m sglang.launch_server --model-path /m --tp 8 --page-size 32 --random-seed 7\n",
    "python -m sglang.launch_server --model-path /m --speculative-algorithm EAGLE\n",
    # a word speclint cannot read: every field may be set by it
    "python -m sglang.launch_server --model-path /m --tp 2 $EXTRA\n",
    'python -m sglang.launch_server --model-path /m --tp "$(nproc)" --port 1\n',
    "python -m sglang.launch_server --model-path /m\n",
    "docker run lmsysorg/sglang:v0.4.6 python3 -m sglang.launch_server --model-path /m --tp 4\n",
]
FIELDS = (MODELLED_FIELDS, DEFAULT_FIELDS, ("tp_size", "not_a_field", "page_size"))


@pytest.mark.parametrize("names", FIELDS, ids=["modelled", "defaults", "mixed"])
def test_values_of_is_value_of_each_field_in_order(names):
    for _ in range(2):  # the second round reads what the first one kept
        for script in LAUNCHES:
            [ctx] = lint_text(script, "x.sh").contexts
            config = ctx.config
            values = config.values_of(names)
            assert list(values) == list(dict.fromkeys(names))
            assert values == {name: config.value(name) for name in names}, script


def test_the_resolution_reads_the_given_fields_over_the_release_defaults():
    tp8, plain, unread = (lint_text(s, "x.sh").contexts[0] for s in (LAUNCHES[0], LAUNCHES[4], LAUNCHES[2]))
    assert tp8.resolution.effective["tp_size"] == 8 and tp8.resolution.effective["random_seed"] == 7
    assert plain.resolution.effective["tp_size"] == 1 and plain.resolution.effective["random_seed"] != 7
    assert plain.config.every_word_read and not unread.config.every_word_read
