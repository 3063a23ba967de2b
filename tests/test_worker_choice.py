"""Which worker lints a batch (`runner.pool`): a kind's first file costs far more than the
next, so a batch goes where it is expected to be done first, warm-up included."""

from __future__ import annotations

from speclint.runner.pool import RUNNING_DRY_MS, WARM_UP_MS, choose, evens_out, file_cost, warm_up_kind


class _Worker:
    def __init__(self, name, kinds, load):
        self.name, self.kinds, self._load = name, set(kinds), load

    def load(self):
        return self._load


def test_python_files_stay_with_the_worker_that_read_python():
    warm = _Worker("warm", {"shell", "python"}, WARM_UP_MS["python"] - 2 * file_cost("python"))
    cold = _Worker("cold", {"shell"}, 0.0)
    assert choose([cold, warm], "python").name == "warm"


def test_the_other_worker_warms_up_once_the_first_has_more_to_do_than_that_costs():
    warm = _Worker("warm", {"shell", "python"}, WARM_UP_MS["python"] + 10 * file_cost("python"))
    cold = _Worker("cold", {"shell"}, 0.0)
    assert choose([warm, cold], "python").name == "cold"


def test_a_worker_with_work_in_flight_does_not_warm_up_a_kind_the_shell_scripts_even_out():
    # the round's shell scripts go to the less busy worker: no second warm-up
    warm = _Worker("warm", {"shell", "python"}, WARM_UP_MS["python"] + 10 * file_cost("python"))
    busy_cold = _Worker("cold", {"shell"}, RUNNING_DRY_MS + file_cost("shell"))
    assert choose([busy_cold, warm], "python", evened_out=True).name == "warm"
    running_dry = _Worker("cold", {"shell"}, RUNNING_DRY_MS - file_cost("shell"))
    assert choose([running_dry, warm], "python", evened_out=True).name == "cold"


def test_without_files_to_even_out_the_work_the_other_worker_warms_up_when_that_pays():
    warm = _Worker("warm", {"shell", "markdown"}, WARM_UP_MS["markdown"] + 2 * RUNNING_DRY_MS)
    busy_cold = _Worker("cold", {"shell"}, RUNNING_DRY_MS + file_cost("shell"))
    assert choose([warm, busy_cold], "markdown").name == "cold"


def test_a_round_is_evened_out_by_shell_scripts_or_by_a_kind_every_worker_has_read():
    both = [_Worker("a", {"shell", "python"}, 0.0), _Worker("b", {"shell", "python"}, 0.0)]
    one = [_Worker("a", {"shell", "python"}, 0.0), _Worker("b", {"shell"}, 0.0)]
    assert evens_out(one, "shell") and evens_out(both, "python")
    assert not evens_out(one, "python") and not evens_out(both, "markdown")


def test_a_kind_without_warm_up_goes_to_the_least_busy_worker_read_or_not():
    read = _Worker("read", {"python", "shell"}, 2 * RUNNING_DRY_MS)
    unread = _Worker("unread", {"python"}, RUNNING_DRY_MS + 1.0)
    assert choose([read, unread], "shell").name == "unread"


def test_shell_scripts_go_to_the_least_busy_worker():
    busy = _Worker("busy", {"shell", "python"}, 30.0)
    idle = _Worker("idle", {"shell"}, 5.0)
    assert choose([busy, idle], "shell").name == "idle"


def test_the_main_process_reads_the_kind_cheapest_to_warm_up():
    assert warm_up_kind(["python", "markdown", "shell", "python"]) == "shell"
    assert warm_up_kind(["notebook", "markdown"]) == "markdown"


def test_python_files_wait_for_the_worker_forked_once_this_process_read_python():
    from speclint.runner.staged import Later

    shell_only = _Worker("shell only", {"shell"}, 0.0)
    later = Later(frozenset({"shell"}), frozenset({"python", "markdown"}))
    assert choose([shell_only, later], "python") is later
    assert choose([shell_only, later], "shell") is shell_only
