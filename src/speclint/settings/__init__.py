"""Settings: configuration files (`files`) and the command line merged (`merge`) into the
options one lint runs with (`options`), once, before any file is linted."""
