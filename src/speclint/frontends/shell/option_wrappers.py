"""Wrappers that only take options (and operands) before the command they run (`nohup`,
`nice -n 5`, `timeout 60`, `numactl --interleave=all`, ...), and the container init processes
and user switchers (`wrappers.INIT_WRAPPERS`): the command after them is read as a launch."""

from __future__ import annotations

from speclint.frontends.shell.launcher_options import OptionTable
from speclint.frontends.shell.wrappers import INIT_WRAPPERS

OPTION_WRAPPERS: dict[str, OptionTable] = {
    "nohup": OptionTable(),
    "exec": OptionTable(value=frozenset({"-a"})),
    "time": OptionTable(),
    "command": OptionTable(),
    "builtin": OptionTable(),
    "setsid": OptionTable(),
    "unbuffer": OptionTable(),
    "nice": OptionTable(value=frozenset({"-n", "--adjustment"})),
    "ionice": OptionTable(value=frozenset({"-c", "-n", "-p", "-P", "-u", "--class", "--classdata"})),
    "stdbuf": OptionTable(value=frozenset({"-i", "-o", "-e", "--input", "--output", "--error"})),
    "timeout": OptionTable(value=frozenset({"-s", "-k", "--signal", "--kill-after"}), operands=1),
    "numactl": OptionTable(
        value=frozenset(
            {
                "-i",
                "--interleave",
                "-p",
                "--preferred",
                "-m",
                "--membind",
                "-N",
                "--cpunodebind",
                "-C",
                "--physcpubind",
                "-P",
                "--preferred-many",
                "-w",
                "--weighted-interleave",
            }
        )
    ),
    "taskset": OptionTable(operands=1),
    "chrt": OptionTable(operands=1),
    **INIT_WRAPPERS,
}
