"""Wrappers that only take options (and operands) before the command they run (`nohup`,
`nice -n 5`, `timeout 60`, `numactl --interleave=all`, ...), and the container init processes
and user switchers (`wrappers.INIT_WRAPPERS`): the command after them is read as a launch."""

from __future__ import annotations

from speclint.frontends.shell.launcher_options import OptionTable
from speclint.frontends.shell.wrappers import INIT_WRAPPERS

_SETPRIV = frozenset(
    {"--reuid", "--regid", "--ruid", "--euid", "--rgid", "--egid", "--groups", "--inh-caps"}
    | {"--ambient-caps", "--bounding-set", "--securebits", "--pdeathsig", "--selinux-label"}
    | {"--apparmor-profile", "--landlock-access", "--landlock-rule"}
)
_UNSHARE = frozenset(
    {"--propagation", "--setgroups", "-S", "--setuid", "-G", "--setgid", "-R", "--root", "-w", "--wd"}
    | {"--map-user", "--map-group", "--map-users", "--map-groups", "--monotonic", "--boottime"}
)
_CHPST = frozenset({"-d", "-o", "-p", "-f", "-c", "-r", "-t"})
_XVFB_RUN = frozenset(
    {"-n", "--server-num", "-s", "--server-args", "-f", "--auth-file", "-e", "--error-file"}
    | {"-p", "--xauth-protocol", "-w", "--wait", "-l"}
)

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
    # util-linux: resource limits, privileges, namespaces (their man pages' options that take
    # the next word; `--nofile=65535`, `--net=/path` are one word)
    "prlimit": OptionTable(value=frozenset({"-p", "--pid", "-o", "--output"})),
    "setpriv": OptionTable(value=_SETPRIV),
    "unshare": OptionTable(value=_UNSHARE),
    "nsenter": OptionTable(value=frozenset({"-t", "--target", "-S", "--setuid", "-G", "--setgid"})),
    # runit's chpst, s6's with-contenv and s6-setuidgid ACCOUNT, libcgroup's cgexec -g, authbind,
    # glibc's catchsegv, xvfb-run (firejail stays said not read: its sandbox may change what runs)
    "chpst": OptionTable(value=frozenset({"-u", "-U", "-b", "-e", "-/", "-n", "-l", "-L", "-m"}) | _CHPST),
    "with-contenv": OptionTable(),
    "s6-setuidgid": OptionTable(operands=1),
    "cgexec": OptionTable(value=frozenset({"-g"})),
    "authbind": OptionTable(value=frozenset({"--depth"})),
    "catchsegv": OptionTable(),
    # daemonize(1): `daemonize [-a] [-c dir] [-e stderr] [-o stdout] [-p pidfile] [-l lockfile]
    # [-u user] [-v] [-E name=value] path [arg] ...`
    "daemonize": OptionTable(
        value=frozenset({"-c", "-e", "-o", "-p", "-l", "-u", "-E"}), sets_env=frozenset({"-E"})
    ),
    "xvfb-run": OptionTable(value=_XVFB_RUN),
    **INIT_WRAPPERS,
}
