"""YAML front-end: SGLang launches in Kubernetes manifests and docker-compose files (and
GitHub Actions workflows, Ansible playbooks, cloud-init user data, SGLang `--config` files).

Read with PyYAML's composer (nodes keep their positions; anchors are shared nodes, `<<`
merges are applied here). A container's `command` + `args` (Kubernetes) or `entrypoint` +
`command` (compose) become an argv that the shell front-end reads, so `["/bin/bash", "-c",
"<script>"]` and wrappers work as in shell scripts; `env:`/`environment:` go into the
launch's environment and `image:` picks the SGLang release.
"""

from __future__ import annotations

import re

import yaml

from speclint.core.launches import Diagnostic, ExtractResult
from speclint.core.spans import Span
from speclint.core.words import Word
from speclint.frontends.manifests.config_maps import ConfigMaps, env_from, key_refs, read_config_maps
from speclint.frontends.manifests.container_reader import ContainerReader
from speclint.frontends.manifests.k8s_containers import container_script, is_container
from speclint.frontends.manifests.yaml_nodes import (
    Loader,
    clear_merges,
    get,
    mapping_pairs,
)
from speclint.frontends.shell.embedded import ArgvItem, ShellBuffer
from speclint.frontends.shell.pieces import Piece, line_starts, span_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable


def extract_yaml(text: str, path: str) -> ExtractResult:
    """Safe loading only: nodes are composed, never constructed, so `!!python/object` tags
    are plain tagged nodes. Aliases stay shared nodes (never expanded: see `_Reader`)."""
    result = ExtractResult()
    starts = line_starts(text)
    template = None
    if "{{" in text:
        from speclint.frontends.manifests.go_templates import Template, is_template

        if is_template(text, path):
            template = Template(text, path)
            text = template.text  # (the same length: every position holds)
    reader = _Reader(text, starts, path, result)
    reader.template = template
    reader.manifest_reader = read_unit_or_manifest
    if ("envFrom" in text or "configMapKeyRef" in text) and "ConfigMap" in text:
        reader.config_maps = read_config_maps(text)
    loader = None
    try:
        loader = Loader(text)  # its reader refuses NULs and other control characters
        while loader.check_node():
            document = loader.get_node()
            if document is not None:
                reader.document(document)
    except RecursionError:  # PyYAML's composer recurses once per nesting level
        mark = loader.get_mark() if loader is not None else None
        result.diagnostics.append(
            Diagnostic(
                "unsupported-input",
                "YAML nested too deeply for speclint to follow; launches from here on are not checked",
                Span.point(mark.line + 1, mark.column + 1) if mark else Span.point(1, 1),
            )
        )
    except yaml.reader.ReaderError as error:
        result.diagnostics.append(
            Diagnostic(
                "syntax-error",
                f"YAML error: {error.reason} (character {error.character!r} is not allowed in YAML)",
                span_of(starts, error.position, error.position + 1),
            )
        )
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        span = Span.point(mark.line + 1, mark.column + 1) if mark else Span.point(1, 1)
        problem = error.problem or error.context or "invalid YAML"
        result.diagnostics.append(Diagnostic("syntax-error", f"YAML syntax error: {problem}", span))
    except yaml.YAMLError as error:
        result.diagnostics.append(Diagnostic("syntax-error", f"YAML error: {error}", Span.point(1, 1)))
    finally:
        if loader is not None:
            loader.dispose()
        clear_merges()
    if template is not None:
        result.diagnostics = [_template_gap(d) for d in result.diagnostics]
    result.comments.extend(_comments(text))
    result.launches.sort(key=lambda launch: (launch.span.line, launch.span.column))
    if "--speculative-" in text or (not result.launches and "--" in text):  # a chart's values.yaml
        from speclint.frontends.launch_mentions import no_launch_found
        from speclint.frontends.manifests.unread_flags import unread_flags

        unread = unread_flags(text, result, no_launch_found(text, result), path)
        if unread is not None:
            result.diagnostics.append(unread)
    if not result.launches and "defaults" in text and "sglang" in text.lower():
        from speclint.frontends.launch_mentions import no_launch_found
        from speclint.frontends.manifests.unread_flags import composed_launch

        composed = composed_launch(text, result) if no_launch_found(text, result) is None else None
        if composed is not None:
            result.diagnostics.append(composed)
    return result


def read_unit_or_manifest(
    text: str, path: str, written: dict[str, str], move: Callable[[Span], Span], destination: str
) -> ExtractResult:
    """What a here-document in shell feeds: a manifest (`kubectl apply -f - << EOF`,
    `destination` `MANIFEST_STDIN`) read as this file is, every position passed through `move`
    into the file (`moved_spans`); a unit or a program by `script.read_unit`."""
    from speclint.frontends.moved_spans import map_spans
    from speclint.frontends.shell.manifest_heredoc import MANIFEST_STDIN
    from speclint.frontends.shell.script import read_unit

    if destination == MANIFEST_STDIN:
        return map_spans(extract_yaml(text, path), move)
    return read_unit(text, path, written, move, destination)


def _template_gap(diagnostic: Diagnostic) -> Diagnostic:
    """A Helm template that is not YAML even with its actions set aside: speclint's reading
    failed, not the chart (Helm renders it first): a warning that says so, not a YAML error."""
    if diagnostic.kind != "syntax-error":
        return diagnostic
    return Diagnostic(
        "template-gap",
        f"speclint could not read this Helm template as YAML with its template actions set aside "
        f"({diagnostic.message}); launches from here on are not checked",
        diagnostic.span,
    )


def _comments(text: str) -> list[tuple[Span, str]]:
    """`# ...` comments: whole-line ones, and trailing ones after a blank outside quotes."""
    found = []
    for number, line in enumerate(text.split("\n"), start=1):
        for match in re.finditer(r"(?:^|\s)(#.*)$", line):
            before = line[: match.start(1)]
            if before.count('"') % 2 == 0 and before.count("'") % 2 == 0:
                column = match.start(1) + 1
                found.append((Span(number, column, number, len(line) + 1), match.group(1)))
                break
    return found


_CONTAINER_LISTS = frozenset({"containers", "initContainers", "sidecars", "ephemeralContainers", "steps"})
"""Keys whose list holds Kubernetes Container specs (`steps`: Tekton's, those with an `image`)."""


class _Reader(ContainerReader):
    """Finds the containers of Kubernetes and compose manifests (and hands workflows and
    flag-key maps to `actions` and `config_sections`)."""

    config_maps: ConfigMaps | None = None
    """The file's ConfigMaps, for a container's `envFrom` (`config_maps`)."""

    def document(self, root: yaml.Node) -> None:
        from speclint.frontends.manifests.actions import is_workflow, read_workflow

        if is_workflow(root, self.path):
            read_workflow(self, root)
            return
        from speclint.frontends.manifests.ansible import is_ansible, read_ansible

        if is_ansible(root):
            read_ansible(self, root)
            return
        from speclint.frontends.manifests.cloud_init import is_cloud_config, read_cloud_config

        if is_cloud_config(root, self.text):
            read_cloud_config(self, root)
            return
        from speclint.frontends.manifests.helm_values import read_values

        if read_values(self, root):
            self.find_containers(root, depth=0)  # a values file's container lists, too
            return
        from speclint.frontends.manifests.task_configs import read_task_config

        if read_task_config(self, root):
            return
        from speclint.frontends.manifests.ci_jobs import read_ci_jobs

        if read_ci_jobs(self, root):
            return
        from speclint.frontends.manifests.runner_configs import read_runner_config

        if read_runner_config(self, root):
            return
        from speclint.frontends.manifests.config_sections import read_flag_maps

        if read_flag_maps(self, root):
            return
        services = get(root, "services")
        if isinstance(services, yaml.MappingNode):
            for _key, service in mapping_pairs(services):
                self.compose_service(service)
            return
        from speclint.frontends.manifests.referenced_forms import read_referenced_forms

        read_referenced_forms(self, root)  # (Hydra strings, RBG role templates, KServe models)
        self.find_containers(root, depth=0)

    def find_containers(self, node: yaml.Node, depth: int) -> None:
        """Every `containers:`/`initContainers:`/`sidecars:`/`ephemeralContainers:` list,
        wherever the workload kind nests it (Deployment, StatefulSet, Job, CronJob, Pod,
        LeaderWorkerSet templates, List items); the one Container a `container:` or `script:`
        key holds (an Argo Workflows template, a Kubeflow Pipelines executor) and the items of a
        `steps:` list that name an `image:` (Tekton Task steps), and an OME runtime's `runner:`
        (`k8s_containers.is_container`): each is a Kubernetes Container spec, its
        `command`/`args`/`env`/`image` read as one, and its script (`container_script`)."""
        if depth > 30 or node in self.seen:
            return
        self.seen.add(node)
        if isinstance(node, yaml.MappingNode):
            for key, value in mapping_pairs(node):
                name = key.value if isinstance(key, yaml.ScalarNode) else None
                if name in _CONTAINER_LISTS and isinstance(value, yaml.SequenceNode):
                    for container in value.value:
                        if name == "steps" and get(container, "image") is None:
                            self.find_containers(container, depth + 1)
                        elif container not in self.seen:  # `[*c, *c, ...]`: one launch
                            self.seen.add(container)
                            self.k8s_container(container)
                elif (
                    name in ("container", "script")
                    and isinstance(value, yaml.MappingNode)
                    and value not in self.seen
                ):
                    self.seen.add(value)
                    self.k8s_container(value, step=True)
                elif name == "runner" and is_container(value) and value not in self.seen:
                    self.seen.add(value)  # OME's runtimes: `engineConfig.runner`, `leader.runner`
                    self.k8s_container(value)
                elif name == "mainContainer" and is_container(value, False) and value not in self.seen:
                    # NVIDIA Dynamo's DynamoGraphDeployment: a service's `extraPodSpec.mainContainer`
                    self.seen.add(value)
                    self.k8s_container(value)
                else:
                    self.find_containers(value, depth + 1)
        elif isinstance(node, yaml.SequenceNode):
            for item in node.value:
                self.find_containers(item, depth + 1)

    def k8s_container(self, container: yaml.Node, step: bool = False) -> None:
        """One Container spec; `step`: a workflow step's (Argo Workflows, Kubeflow Pipelines),
        whose `{{...}}` parameters are filled in when it runs."""
        env = self.env_list(get(container, "env"))
        if self.config_maps:  # `envFrom: [{configMapRef: ...}]`; `env:` wins
            env = {**env_from(self, get(container, "envFrom"), self.config_maps), **env}
            env.update(key_refs(self, get(container, "env"), self.config_maps))  # configMapKeyRef
        argv = self.words(get(container, "command")) + self.words(get(container, "args"))
        if step:
            from speclint.frontends.manifests.go_templates import workflow_holes

            argv = [ArgvItem(workflow_holes(item.pieces), item.splat) for item in argv]
        if self.template is not None and self.template.inserts:
            argv += self._inserted(container)
        from speclint.frontends.manifests.gpus import k8s_gpu_count
        from speclint.frontends.manifests.k8s_expand import K8sExpander

        argv = K8sExpander(env, lambda begin, end: span_of(self.starts, begin, end)).argv(argv)

        count = len(self.result.launches)
        self.launch(argv, env, get(container, "image"))
        if len(self.result.launches) == count and "sglangServe" in self.text:
            from speclint.frontends.manifests.llmd_values import unread_model_command

            unread_model_command(self, container)
        script = container_script(container)
        if script is not None:
            buffer = ShellBuffer(self.text, self.starts, self.budget)
            from speclint.frontends.manifests.go_templates import workflow_holes

            pieces = self.scalar_pieces(script)
            buffer.add_code(workflow_holes(pieces) if step else pieces)
            self.walk(buffer, env, get(container, "image"))
        self.set_gpus(count, k8s_gpu_count(self, container))

    def _inserted(self, container: yaml.Node) -> list[ArgvItem]:
        """A word that may hold any flags where a template line inserts YAML into the
        container's `command:` or `args:` (`{{- toYaml .Values.args | nindent 12 }}`)."""
        from speclint.frontends.manifests.go_templates import reason_for_insert

        assert self.template is not None
        if not isinstance(container, yaml.MappingNode):
            return []
        keys = [key for key, _ in container.value if isinstance(key, yaml.ScalarNode)]
        found = []
        for number, key in enumerate(keys):
            if key.value not in ("command", "args"):
                continue
            after = (
                keys[number + 1].start_mark.index
                if number + 1 < len(keys)
                else _block_end(self.text, container)
            )
            insert = self.template.insert_in(key.start_mark.index, after)
            if insert is not None:
                begin, end, shown = insert
                items = self.template.items_at(begin, end)
                if items is not None:
                    found += self.list_items(items, begin, end)
                else:
                    found.append(
                        ArgvItem([Piece(None, begin, end, reason=reason_for_insert(shown))], splat=True)
                    )
        return found

    def set_gpus(self, first: int, gpus: Word | None) -> None:
        for launch in self.result.launches[first:]:
            launch.gpu_count = gpus

    def compose_service(self, service: yaml.Node) -> None:
        from speclint.frontends.manifests.compose_services import read_compose_service

        read_compose_service(self, service)

    def launch(self, argv: list[ArgvItem], env: dict[str, Word], image: yaml.Node | None) -> None:
        buffer = ShellBuffer(self.text, self.starts, self.budget)
        for item in argv:
            buffer.add_word(item)
        self.walk(buffer, env, image)

    def walk(self, buffer: ShellBuffer, env: dict[str, Word], image: yaml.Node | None) -> None:
        image_info = (
            (self.filled_text(image), self.span(image)) if isinstance(image, yaml.ScalarNode) else None
        )
        count = len(self.result.launches)
        buffer.walk(self.path, self.result, env, image_info)
        self.place_items(self.result.launches[count:])
        for launch in self.result.launches[count:]:
            for name, word in env.items():
                if not name.startswith("__speclint_"):  # placeholders for unknown `$(VAR)`
                    launch.env.setdefault(name, word)


def _block_end(text: str, node: yaml.Node) -> int:
    """Where the block a mapping node opens ends: the first line after it that is not blank
    and is indented no deeper than the node (blank lines: a template's lines set aside)."""
    column = node.start_mark.column
    at = node.end_mark.index
    while at < len(text):
        line_end = text.find("\n", at)
        line_end = len(text) if line_end == -1 else line_end
        line = text[at:line_end]
        if line.strip() and len(line) - len(line.lstrip(" ")) <= column and at >= node.end_mark.index:
            if at > node.start_mark.index:
                return at
        at = line_end + 1
    return len(text)
