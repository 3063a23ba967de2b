"""Ansible playbooks and task files: the shell/command/docker_container/k8s tasks that start
SGLang are read, with Jinja expressions as unknown values and findings at the token in the
YAML file."""

from __future__ import annotations

from findings_at import findings_at

from speclint.engine import lint_text
from speclint.frontends import extract_file

SPEC = (
    "--speculative-algorithm EAGLE --speculative-eagle-topk 1 --speculative-num-steps 1 "
    "--speculative-num-draft-tokens 16"
)


def located(text: str, path: str = "site.yml") -> list[tuple]:
    return findings_at(text, path)


def _column(text: str, line: int, token: str) -> int:
    return text.splitlines()[line - 1].index(token) + 1


PLAYBOOK = f"""- name: Serve
  hosts: gpu
  environment:
    SGLANG_LOG_LEVEL: debug
  tasks:
    - name: run the container
      community.docker.docker_container:
        name: sglang
        image: lmsysorg/sglang:v0.5.6.post2-cu126
        env:
          HF_TOKEN: "{{{{ hf_token }}}}"
        command: >
          python3 -m sglang.launch_server
          --model-path {{{{ model_path }}}}
          --port 30000
          {SPEC}
"""


def test_a_playbook_s_docker_container_task() -> None:
    (launch,) = extract_file("site.yml", PLAYBOOK).launches
    assert launch.image == "lmsysorg/sglang:v0.5.6.post2-cu126"
    assert launch.env["HF_TOKEN"].text is None  # Jinja: Ansible renders it
    assert "SGLANG_LOG_LEVEL" not in launch.env  # the play's environment is the host's, not the container's
    found = located(PLAYBOOK)
    assert ("SPD001", 16, _column(PLAYBOOK, 16, "16"), "16") in found
    (partly,) = [f for f in lint_text(PLAYBOOK, "site.yml").findings if f.code == "SLM004"]
    assert "`{{ model_path }}` is a Jinja expression Ansible fills in when the task runs" in partly.message


TASKS = f"""- name: start in the background
  ansible.builtin.shell: |
    nohup python3 -m sglang.launch_server --model-path /m {SPEC} > sglang.log 2>&1 &
  args:
    chdir: /srv
  environment:
    SGLANG_ENABLE_SPEC_V2: "1"
- block:
    - name: with argv
      ansible.builtin.command:
        argv: [python3, -m, sglang.launch_server, --model-path, /m, --tp-szie, "2"]
  rescue:
    - command: python3 -m sglang.launch_server --model-path /m --mem-fraction-statc 0.8
- name: not a launch
  ansible.builtin.debug:
    msg: python3 -m sglang.launch_server --model-path /m --bogus
"""


def test_a_role_task_file_with_shell_command_and_blocks() -> None:
    launches = extract_file("roles/sglang/tasks/main.yml", TASKS).launches
    assert len(launches) == 3
    assert launches[0].env["SGLANG_ENABLE_SPEC_V2"].text == "1"
    found = located(TASKS, "roles/sglang/tasks/main.yml")
    assert ("SPD001", 3, _column(TASKS, 3, "16"), "16") in found
    assert ("FLG001", 11, _column(TASKS, 11, "--tp-szie"), "--tp-szie") in found
    assert ("FLG001", 13, _column(TASKS, 13, "--mem-fraction-statc"), "--mem-fraction-statc") in found
    assert not [f for f in found if f[1] == 16]  # debug's message is text


def test_an_inline_kubernetes_definition() -> None:
    text = """- hosts: localhost
  tasks:
    - kubernetes.core.k8s:
        state: present
        definition:
          apiVersion: v1
          kind: Pod
          metadata: {name: sglang}
          spec:
            containers:
              - name: sglang
                image: lmsysorg/sglang:latest
                command: [python3, -m, sglang.launch_server]
                args: [--model-path, /m, --tp-szie, "2"]
"""
    assert ("FLG001", 14, _column(text, 14, "--tp-szie"), "--tp-szie") in located(text)


def test_a_yaml_list_that_is_not_ansible_is_left_alone() -> None:
    text = "- python3 -m sglang.launch_server --model-path /m --tp-szie 2\n- other\n"
    assert extract_file("list.yml", text).launches == []
