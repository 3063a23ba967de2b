"""systemd units written where speclint reads shell or YAML, drop-ins, and Podman Quadlet
files: each launch is checked, its findings at the token in the file as written (a Markdown
fence, a workflow's `run:`, cloud-init's `runcmd:`/`write_files:`, an Ansible task, a
Makefile recipe, a drop-in, a `.container` file)."""

from __future__ import annotations

from pathlib import Path

from findings_at import findings_at
from frontend_checks import check
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from speclint.frontends import extract_file, file_kind, is_lintable_path
from speclint.runner.walk import iter_lint_paths

EXEC = "ExecStart=/usr/bin/python3 -m sglang.launch_server --model-path /m"
UNKNOWN = "is not an SGLang 0.5.23 flag: argparse stops the launch with 'unrecognized arguments'"


def findings(text: str, path: str) -> list[tuple]:
    """(code, line, column, the text it points at, message) of each finding."""
    return findings_at(text, path, message=True)


def at(text: str, line: int, column: int, length: int) -> str:
    return text.splitlines()[line - 1][column - 1 : column - 1 + length]


def test_a_unit_written_in_a_markdown_bash_fence_is_read_at_its_place_in_the_doc():
    text = (
        "# Run SGLang as a service\n\n```bash\n"
        "sudo tee /etc/systemd/system/sglang.service > /dev/null << 'EOF'\n"
        "[Unit]\nDescription=SGLang\n\n[Service]\n"
        f"{EXEC} --tp-szie 2\nRestart=always\nEOF\nsudo systemctl enable --now sglang\n```\n"
    )
    ((code, line, column, _, message),) = findings(text, "README.md")
    assert (code, line, column) == ("FLG001", 9, 68)
    assert at(text, line, column, 9) == "--tp-szie"
    assert message.startswith(f"`--tp-szie` {UNKNOWN}; did you mean `--tp-size`?")


def test_a_doc_placeholder_in_a_quoted_unit_here_document_stays_a_placeholder():
    text = (
        "```bash\ncat > /etc/systemd/system/sglang.service << 'EOF'\n[Service]\n"
        "ExecStart=python3 -m sglang.launch_server --model-path <your-model> --tp-size 2\nEOF\n```\n"
    )
    ((code, line, column, _, message),) = findings(text, "doc.md")
    assert (code, line, column) == ("SLM004", 4, 56)
    assert "a placeholder in the documentation (`<your-model>`)" in message


def test_a_unit_piped_to_tee_or_redirected_after_the_here_document_start():
    text = (
        "cat <<'EOF' | sudo tee /etc/systemd/system/sglang.service >/dev/null && sudo systemctl daemon-reload\n"
        f"[Service]\n{EXEC} --tp-szie 2\nEOF\n"
        "cat <<EOF > /etc/systemd/system/sglang-b.service\n"
        f"[Service]\n{EXEC} --tp-size 2x\nEOF\n"
        "cat <<EOF > run.txt\npython3 -m sglang.launch_server --model-path /m\nEOF\n"  # (a .sh: read as a script)
    )
    got = findings(text, "setup.sh")
    assert [(c, line, col) for c, line, col, _, _ in got] == [
        ("FLG001", 3, 68),
        ("FLG005", 7, 78),
        ("SLM005", 10, 1),
    ]
    assert at(text, 3, 68, 9) == "--tp-szie" and at(text, 7, 78, 2) == "2x"
    assert got[0][4].startswith(f"`--tp-szie` {UNKNOWN}")
    assert got[1][4].startswith("`2x` is not a valid value for `--tp-size`")
    assert got[2][4].startswith("speclint did not read this here-document, written to a file")


def test_a_unit_written_by_a_workflow_run_step():
    text = (
        "on: push\njobs:\n  deploy:\n    runs-on: [self-hosted, gpu]\n    steps:\n"
        "      - run: |\n          TP=2x\n"
        "          cat > /etc/systemd/system/sglang.service <<EOF\n"
        "          [Service]\n"
        f"          {EXEC} --tp-size $TP\n"
        "          EOF\n"
    )
    ((code, line, column, _, message),) = findings(text, ".github/workflows/deploy.yml")
    assert (code, line, column) == ("FLG005", 10, 88)
    assert at(text, line, column, 3) == "$TP"  # where the value is written into the unit
    assert message.startswith("`2x` is not a valid value for `--tp-size`")


def test_cloud_init_runcmd_here_document_and_write_files_unit():
    text = (
        "#cloud-config\nwrite_files:\n  - path: /etc/systemd/system/sglang.service\n"
        "    permissions: '0644'\n    content: |\n      [Service]\n"
        f"      {EXEC} --tp-szie 2\n"
        "runcmd:\n  - PORT=30000x\n  - |\n"
        "    cat > /etc/systemd/system/sglang-b.service <<EOF\n    [Service]\n"
        f"    {EXEC} --port $PORT\n    EOF\n  - [systemctl, enable, --now, sglang]\n"
    )
    got = findings(text, "user-data.yaml")
    assert [(c, line, col) for c, line, col, _, _ in got] == [("FLG001", 7, 74), ("FLG005", 13, 79)]
    assert at(text, 7, 74, 9) == "--tp-szie" and at(text, 13, 79, 5) == "$PORT"
    assert got[0][4].startswith(f"`--tp-szie` {UNKNOWN}; did you mean `--tp-size`?")
    assert got[1][4].startswith("`30000x` is not a valid value for `--port`")


def test_ansible_shell_here_document_and_copy_content():
    text = (
        "- hosts: gpu\n  tasks:\n    - name: write the unit\n      ansible.builtin.shell: |\n"
        "        cat > /etc/systemd/system/sglang.service <<EOF\n        [Service]\n"
        f"        {EXEC} --tp-szie 2\n        EOF\n"
        "    - name: copy the unit\n      ansible.builtin.copy:\n"
        "        dest: /etc/systemd/system/sglang-b.service\n        content: |\n"
        "          [Service]\n"
        f"          {EXEC} --served-model-name {{{{ name }}}} --tp-szie 4\n"
    )
    got = findings(text, "playbook.yml")
    assert [(c, line, col) for c, line, col, _, _ in got] == [
        ("FLG001", 7, 76),
        ("SLM004", 14, 98),
        ("FLG001", 14, 109),
    ]
    assert at(text, 7, 76, 9) == "--tp-szie" and at(text, 14, 109, 9) == "--tp-szie"
    assert got[0][4].startswith(f"`--tp-szie` {UNKNOWN}") and got[2][4].startswith(f"`--tp-szie` {UNKNOWN}")
    assert "`{{ name }}` is a Jinja expression Ansible fills in when the task runs" in got[1][4]


def test_makefile_recipe_here_document_with_one_shell_and_without():
    recipe = (
        "install:\n\tcat > /etc/systemd/system/sglang.service <<EOF\n\t[Service]\n"
        f"\t{EXEC} --tp-szie 2\n\tEOF\n\tsystemctl daemon-reload\n"
    )
    ((code, line, column, _, message),) = findings(".ONESHELL:\n" + recipe, "Makefile")
    assert (code, line, column) == ("FLG001", 5, 69)
    assert message.startswith(f"`--tp-szie` {UNKNOWN}")
    ((code, line, column, _, message),) = findings(recipe, "Makefile")
    assert (code, line, column) == ("SLM005", 4, 32)
    assert "make runs each recipe line in a shell of its own" in message
    assert "the here-document opened at line 2 gets none of the lines after it" in message


def test_a_drop_in_read_alone_is_a_launch_and_says_the_base_unit_is_not_read():
    text = (
        "[Service]\nEnvironment=TP=2\nExecStart=\n"
        "ExecStart=/usr/bin/python3 -m sglang.launch_server --model-path /m --tp-size ${TP} --port $PORT\n"
    )
    path = "etc/systemd/system/sglang.service.d/override.conf"
    ((launch,),) = [extract_file(path, text).launches]
    assert [w.text for w in launch.args][:4] == ["--model-path", "/m", "--tp-size", "2"]
    ((code, line, column, _, message),) = findings(text, path)
    assert (code, line, column) == ("SLM004", 4, 91)
    assert at(text, line, column, 5) == "$PORT"
    assert (
        "$PORT is not set in this drop-in; `sglang.service` (not read with it) and the service "
        "manager's environment may set it"
    ) in message


def test_a_drop_in_written_by_a_here_document():
    text = (
        "mkdir -p /etc/systemd/system/sglang.service.d\n"
        "cat > /etc/systemd/system/sglang.service.d/10-args.conf <<'EOF'\n[Service]\nExecStart=\n"
        f"{EXEC} --port $PORT --tp-szie 2\nEOF\n"
    )
    got = findings(text, "setup.sh")
    assert [(c, line, col) for c, line, col, _, _ in got] == [("SLM004", 5, 75), ("FLG001", 5, 81)]
    assert "not set in this drop-in; `sglang.service` (not read with it)" in got[0][4]
    assert got[1][4].startswith(f"`--tp-szie` {UNKNOWN}")


QUADLET = (
    "[Unit]\nDescription=SGLang\n\n[Container]\n"
    "Image=docker.io/lmsysorg/sglang:v0.4.6.post1-cu124\n"
    "AddDevice=nvidia.com/gpu=all\n"
    "Environment=CUDA_VISIBLE_DEVICES=0,1 HF_HOME=/cache\n"
    "PodmanArgs=--shm-size 32g --ipc=host\n"
    "Exec=python3 -m sglang.launch_server --model-path Qwen/Qwen2.5-7B-Instruct \\\n"
    "     --tp-size 2 --enable-dp-lm-head --port ${PORT}\n\n"
    "[Service]\nEnvironment=PORT=30000x\nRestart=always\n\n[Install]\nWantedBy=default.target\n"
)


def test_a_quadlet_container_is_the_podman_run_of_its_image():
    got = findings(QUADLET, "sglang.container")
    assert [(c, line, col) for c, line, col, _, _ in got] == [("FLG009", 10, 18), ("FLG005", 10, 45)]
    assert at(QUADLET, 10, 18, 19) == "--enable-dp-lm-head" and at(QUADLET, 10, 45, 7) == "${PORT}"
    assert got[0][4].startswith(
        "`--enable-dp-lm-head` does not exist yet in SGLang 0.4.6.post1 (it exists in 0.4.6.post4 and later)"
    )
    assert got[1][4].startswith(
        "`30000x` is not a valid value for `--port`"
    )  # [Service]'s, as systemd expands
    (launch,) = extract_file("sglang.container", QUADLET).launches
    assert launch.image == "docker.io/lmsysorg/sglang:v0.4.6.post1-cu124"
    assert (launch.image_span.line, launch.image_span.column) == (5, 7)
    assert {name: word.text for name, word in launch.env.items()} == {
        "CUDA_VISIBLE_DEVICES": "0,1",
        "HF_HOME": "/cache",
    }


def test_a_quadlet_file_shown_in_a_doc_block():
    text = (
        "Save as `~/.config/containers/systemd/sglang.container`:\n\n```ini\n[Container]\n"
        "Image=docker.io/lmsysorg/sglang:v0.4.6.post1-cu124\n"
        "Exec=python3 -m sglang.launch_server --model-path /m --enable-dp-lm-head\n```\n"
    )
    ((code, line, column, _, message),) = findings(text, "README.md")
    assert (code, line, column) == ("FLG009", 6, 54)
    assert at(text, line, column, 19) == "--enable-dp-lm-head" and "SGLang 0.4.6.post1" in message


def test_a_quadlet_file_written_by_a_here_document_takes_the_scripts_tag():
    text = (
        "TAG=v0.4.6.post1-cu124\n"
        "cat > ~/.config/containers/systemd/sglang.container <<EOF\n[Container]\n"
        "Image=lmsysorg/sglang:${TAG}\nExec=python3 -m sglang.launch_server --model-path /m --enable-dp-lm-head\n"
        "EOF\n"
    )
    ((code, line, column, _, message),) = findings(text, "setup.sh")
    assert (code, line, column) == ("FLG009", 5, 54)
    assert at(text, line, column, 19) == "--enable-dp-lm-head"
    assert "does not exist yet in SGLang 0.4.6.post1" in message


def test_a_quadlet_drop_in_read_alone_says_the_image_is_the_base_files():
    text = "[Container]\nExec=python3 -m sglang.launch_server --model-path /m --port ${PORT} --tp-szie 2\n"
    path = "containers/systemd/sglang.container.d/10-exec.conf"
    got = findings(text, path)
    assert [(c, line, col) for c, line, col, _, _ in got] == [("SLM004", 2, 61), ("FLG001", 2, 69)]
    assert at(text, 2, 61, 7) == "${PORT}" and at(text, 2, 69, 9) == "--tp-szie"
    assert "`sglang.container` (not read with this drop-in) may set it" in got[0][4]
    assert got[1][4].startswith(f"`--tp-szie` {UNKNOWN}")
    (launch,) = extract_file(path, text).launches
    assert launch.image is None


def test_units_drop_ins_and_quadlet_files_are_found_only_where_they_are(tmp_path: Path):
    drop_in = tmp_path / "etc" / "systemd" / "system" / "sglang.service.d" / "override.conf"
    drop_in.parent.mkdir(parents=True)
    drop_in.write_text(f"[Service]\nExecStart=\n{EXEC}\n")
    other = tmp_path / "conf" / "override.conf"  # a `.conf` outside a `.service.d/` folder
    other.parent.mkdir()
    other.write_text(f"[Service]\n{EXEC}\n")
    quadlet = tmp_path / "quadlet" / "sglang.container"
    quadlet.parent.mkdir()
    quadlet.write_text(QUADLET)
    not_quadlet = tmp_path / "quadlet" / "notes.container"  # no `[Container]` section
    not_quadlet.write_text(f"{EXEC}\n")
    quadlet_drop_in = tmp_path / "quadlet" / "sglang.container.d" / "exec.conf"
    quadlet_drop_in.parent.mkdir()
    quadlet_drop_in.write_text("[Container]\nExec=python3 -m sglang.launch_server\n")
    walked = sorted(Path(p).relative_to(tmp_path).as_posix() for p, _ in iter_lint_paths([str(tmp_path)]))
    assert walked == [
        "etc/systemd/system/sglang.service.d/override.conf",
        "quadlet/sglang.container",
        "quadlet/sglang.container.d/exec.conf",
    ]
    assert file_kind(str(quadlet_drop_in), quadlet_drop_in.read_text()) == "quadlet"
    assert file_kind(str(drop_in), drop_in.read_text()) == "systemd"
    assert file_kind(str(quadlet), quadlet.read_text()) == "quadlet"
    assert file_kind(str(other), other.read_text()) is None and not is_lintable_path(str(other))
    assert file_kind(str(not_quadlet), not_quadlet.read_text()) is None
    (diagnostic,) = extract_file(str(not_quadlet), not_quadlet.read_text()).diagnostics
    assert diagnostic.kind == "unsupported-input" and "Podman Quadlet container" in diagnostic.message


VOCABULARY = [
    '"', "'", "\\", "\n", "\t", " ", "$", "${", "}", "%", "=", ";", "#", "\\\n", "[Service]\n", "ExecStart=",
    "[Container]\n", "Image=lmsysorg/sglang:v0.5.6", "Image=x.image", "Exec=", "Entrypoint=", "Environment=",
    "PodmanArgs=", "AddDevice=", "python -m sglang.launch_server ", "--tp ", "2", "<<EOF\n", "EOF\n",
    "cat > x.container ", "cat > a.service.d/b.conf ", "- ", "runcmd:\n", "write_files:\n", "  path: a.service\n",
    "  content: |\n", "    ",
]  # fmt: skip


@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(
    st.sampled_from(["a.container", "x.service.d/o.conf", "setup.sh", "user-data.yaml", "doc.md"]),
    st.lists(st.sampled_from(VOCABULARY) | st.text(max_size=4), max_size=60),
)
def test_random_tokens_never_raise(name, parts):
    check("# sglang\n" + "".join(parts), name)
