"""Container specs written in Python: the container's process is the launch.

- a Kubernetes container built with the official client (`kubernetes.client.V1Container(...)`)
  or with Pulumi (`pulumi_kubernetes.core.v1.ContainerArgs(...)`): `command` replaces the
  image's ENTRYPOINT and `args` its CMD, `$(NAME)` in them is expanded by Kubernetes from the
  container's `env` (`manifests.k8s_expand`, as for a manifest's container), `image` picks the
  SGLang release as a manifest's `image:` does;
- an Amazon ECS container made with the AWS CDK (`task_definition.add_container(...)`,
  `ecs.ContainerDefinition(...)`): `entry_point` then `command` (Docker's ENTRYPOINT and CMD;
  `command` alone is read as the whole argv, as a `docker run` command is), `environment` (a
  dict), the image of `ecs.ContainerImage.from_registry("...")`; no `$(NAME)` expansion;
- a Vertex AI serving container (`aiplatform.Model.upload(serving_container_command=...,
  serving_container_args=..., serving_container_environment_variables={...},
  serving_container_image_uri=...)`): the fields of Vertex's ModelContainerSpec, which its
  reference documents as Kubernetes' `command`/`args`, `$(NAME)` references included.

Only keywords are read (the classes' positional order is not their fields'). A spec without a
`command` runs the image's own ENTRYPOINT, which the file does not hold: not read. Nothing is
imported or run.
"""

from __future__ import annotations

from speclint.core.words import Word
from speclint.frontends.python import syntax as py

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.spans import Span
    from speclint.frontends.python.values import Val
    from speclint.frontends.python.walking import Walking

K8S_CONTAINERS = frozenset({"V1Container", "ContainerArgs"})
"""The last part of a Kubernetes container class's name: the official client's, Pulumi's."""
VERTEX_COMMAND = "serving_container_command"
"""The keyword that makes a call a Vertex AI serving container (`Model.upload`, `Model(...)`)."""
_VERTEX = {
    "command": VERTEX_COMMAND,
    "args": "serving_container_args",
    "image": "serving_container_image_uri",
    "env": "serving_container_environment_variables",
}
_K8S = {"command": "command", "args": "args", "image": "image", "env": "env"}
ECS_CONTAINERS = frozenset({"add_container", "ContainerDefinition"})
"""AWS CDK's ECS container (`task_definition.add_container(...)`, `ecs.ContainerDefinition`)."""
_ECS = {"command": "entry_point", "args": "command", "image": "image", "env": "environment"}


def recognize_container_spec(walker: Walking, call: py.Call, name: str) -> bool:
    """Read `call` when it is a container spec above; False when it is none."""
    keywords = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
    last = name.rsplit(".", 1)[-1]
    if VERTEX_COMMAND in keywords:
        fields = _VERTEX
    elif last in K8S_CONTAINERS:
        fields = _K8S
    elif last in ECS_CONTAINERS:
        fields = _ECS
    else:
        return False
    command = keywords.get(fields["command"])
    args = keywords.get(fields["args"])
    if fields is _ECS and command is None:  # Docker's ENTRYPOINT then CMD: CMD alone is the argv
        command, args = args, None
    if command is None:  # the image's ENTRYPOINT runs: not written here
        return fields is not _ECS  # (`add_container` of another API: left to the other readers)
    ev = walker.evaluator()
    items = _words(walker, command)
    if args is not None:
        items += _words(walker, args)
    env_node = keywords.get(fields["env"])
    env = _env(walker, env_node) if env_node is not None else {}
    image: tuple[str | None, Span | None] | None = None
    image_node = keywords.get(fields["image"])
    if isinstance(image_node, py.Call) and fields is _ECS:  # `ContainerImage.from_registry("X")`
        named = ev.dotted(image_node.func) or ""
        given = [a.value for a in image_node.args if a.keyword is None]
        image_node = given[0] if named.endswith("from_registry") and given else None
    if image_node is not None:
        value = ev.eval(image_node)
        image = (value.text if value.kind == "str" else None, value.origin or value.span)
    _launch(walker, call, items, env, image, expand=fields is not _ECS)
    return True


def _launch(
    walker: Walking,
    call: py.Call,
    items: list[Val],
    env: dict[str, Word],
    image: tuple[str | None, Span | None] | None,
    expand: bool,
) -> None:
    """The container's argv, its `$(NAME)` references expanded as Kubernetes expands them
    (`expand`), run with `env` (no shell: a `bash -c` script in it gets `env` as its
    environment)."""
    from speclint.frontends.manifests.k8s_expand import K8sExpander
    from speclint.frontends.python.scan import argv_item
    from speclint.frontends.shell.embedded import ShellBuffer
    from speclint.frontends.shell.pieces import span_of

    starts = walker.pos.starts
    argv = [argv_item(v) for v in items]
    if expand:
        argv = K8sExpander(env, lambda begin, end: span_of(starts, begin, end)).argv(argv)
    buffer = ShellBuffer(walker.text, starts, walker.budget)
    for item in argv:
        buffer.add_word(item)
    count = len(walker.result.launches)
    buffer.walk(walker.path, walker.result, env, image, report_errors=False)
    for launch in walker.result.launches[count:]:
        launch.span = walker.pos.span(call)  # the call that makes the container
        for name, word in env.items():
            if not name.startswith("__speclint_"):  # placeholders for unknown `$(NAME)`
                launch.env.setdefault(name, word)


def _words(walker: Walking, node: py.BaseExpression) -> list[Val]:
    ev = walker.evaluator()
    value = ev.eval(node)
    if value.kind == "list":
        return value.elements
    return [ev.unknown(node, value.why_unknown(), splat=True)]


def _env(walker: Walking, node: py.BaseExpression) -> dict[str, Word]:
    """The container's environment: a mapping (Vertex's), or a list of `V1EnvVar(name=...,
    value=...)` / `EnvVarArgs(...)` calls or `{"name": ..., "value": ...}` dicts (a
    `value_from` entry, or one not written out, is an unknown value)."""
    from speclint.frontends.python.environ import env_words

    ev = walker.evaluator()
    value = ev.eval(node)
    if value.kind == "dict":
        return env_words(value.entries)
    words: dict[str, Word] = {}
    if not isinstance(node, py.List):
        return words
    for element in node.elements:
        item = element.value
        fields: dict[str, Val] = {}
        if isinstance(item, py.Call):
            fields = {a.keyword.value: ev.eval(a.value) for a in item.args if a.keyword is not None}
        elif isinstance(item, py.Dict):
            evaluated = ev.eval(item)
            if evaluated.kind == "dict":
                fields = {e.key: e.value for e in evaluated.entries if e.key is not None}
        env_name = fields.get("name")
        if env_name is None or env_name.kind != "str" or env_name.text is None:
            continue
        env_value = fields.get("value")
        text = env_value.text if env_value is not None and env_value.kind in ("str", "const") else None
        where = env_value if env_value is not None else env_name
        reason = None
        if text is None:
            reason = (
                f"{env_name.text} is set from {'`value_from`' if env_value is None else 'a value not known statically'}"
                " when the container starts"
            )
        words[env_name.text] = Word(text, where.span, where.origin, dynamic_reason=reason)
    return words
