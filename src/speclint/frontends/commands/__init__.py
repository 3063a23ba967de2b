"""Files whose lines are commands another program runs: Makefiles, justfiles, Procfiles,
systemd service units, supervisord programs, tox environments and pixi/poe tasks (TOML,
`toml_text`). Each reader turns a
command into shell text or argv words, every character mapped to its file position, and
hands it to the shell front-end (`shell.embedded.ShellBuffer`)."""
