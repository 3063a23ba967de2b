"""Read, statically (`ast`, never imported), 0.5.20+'s `validate_flashinfer_megamoe_model`
beside --moe-a2a-backend flashinfer_megamoe: the architectures it validates and its
quantization check (with the ModelConfig terms it asks, read from configs/model_config.py);
used by tools/gen_sglang_moe_defaults.py (`megamoe_architectures`)."""

from __future__ import annotations

import ast

from sglang_environ import env_int
from sglang_megamoe_dp import (
    budget_branches,
    budget_disabled,
    budget_partitions,
    budget_returns,
    read_megamoe_attention_dp,
)
from sglang_moe_runner_asserts import Sources, _local
from sglang_moe_runner_refusals import env_switch


def read_megamoe_architectures(
    sources: Sources, environ: str | None = None, model_config: str | None = None
) -> dict[str, object] | None:
    """0.5.20+ `validate_flashinfer_megamoe_model` (called by `handle_a2a_moe` under
    `if a2a_backend == "flashinfer_megamoe"`): a function assigning a tuple of strings to
    `validated_architectures` and raising `ValueError(f"...")` under `if not any(...)` ->
    {"architectures", "message" (`{architectures}` and `{supported}` for its two fields),
    "where": the function calling it, "attention_dp": its caller's attention-DP assert
    (tools/sglang_megamoe_dp.py)}."""
    for _, tree, _ in sources:
        for function in (f for f in ast.walk(tree) if isinstance(f, ast.FunctionDef)):
            listed = next(
                (
                    s.value
                    for s in function.body
                    if isinstance(s, ast.Assign)
                    and [ast.unparse(t) for t in s.targets] == ["validated_architectures"]
                    and isinstance(s.value, ast.Tuple)
                ),
                None,
            )
            test = next((s for s in function.body if isinstance(s, ast.If)), None)
            raised = test.body[0] if test is not None and test.body else None
            if not (
                listed is not None
                and test is not None
                and ast.unparse(test.test).startswith("not any(")
                and isinstance(raised, ast.Raise)
                and isinstance(raised.exc, ast.Call)
                and ast.unparse(raised.exc.func) == "ValueError"
                and raised.exc.args
                and isinstance(raised.exc.args[0], ast.JoinedStr)
            ):
                continue
            message = _fields(raised.exc.args[0])
            caller = _caller(sources, function.name)
            if message is None or caller is None:
                return None
            names = [e.value for e in listed.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
            found: dict[str, object] = {"architectures": names, "message": message, "where": caller}
            quantization = _megamoe_quantization(function, environ, model_config)
            if quantization is not None:
                found["quantization"] = quantization
            attention_dp = read_megamoe_attention_dp(sources, function.name, caller)
            if attention_dp is not None:
                found["attention_dp"] = attention_dp
            return found
    return None


def _fields(text: ast.JoinedStr) -> str | None:
    """The f-string with `{architectures}` / `{supported}` for `architectures` and
    `sorted(validated_architectures)`; None for another field."""
    parts = []
    for value in text.values:
        if isinstance(value, ast.Constant):
            parts.append(str(value.value).replace("{", "{{").replace("}", "}}"))
            continue
        written = ast.unparse(value.value) if isinstance(value, ast.FormattedValue) else ""
        named = {"architectures": "{architectures}", "sorted(validated_architectures)": "{supported}"}
        if written not in named:
            return None
        parts.append(named[written])
    return "".join(parts)


def _caller(sources: Sources, name: str) -> str | None:
    for _, tree, _ in sources:
        for function in (f for f in ast.walk(tree) if isinstance(f, ast.FunctionDef)):
            if any(
                isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == name
                for n in ast.walk(function)
            ):
                return function.name
    return None


def _megamoe_quantization(
    function: ast.FunctionDef, environ: str | None, model_config: str | None
) -> dict[str, object] | None:
    """The same function's quantization check (0.5.20+): `NAME = (quantization in (...) or
    (quantization == "V" and envs.X.get()) or model_config.A or model_config.B is not None)`,
    then `if not NAME: raise ValueError(f"...{quantization!r}...")` -> {"quantizations",
    "env": {"quantization": V, X's `env_switch`} (0.5.23), "model_terms": [A, B], "config_keys"
    and "architectures" (`_model_terms`: what ModelConfig reads to set them), "message" with
    `{quantization!r}`}; None where any part is not read."""
    body = function.body
    test = next(
        (
            s
            for s in body
            if isinstance(s, ast.If)
            and isinstance(s.test, ast.UnaryOp)
            and isinstance(s.test.operand, ast.Name)
        ),
        None,
    )
    if test is None or not isinstance(test.test, ast.UnaryOp) or not isinstance(test.test.operand, ast.Name):
        return None
    value = _local(body, test.test.operand)
    raised = test.body[0]
    if not (
        isinstance(value, ast.BoolOp)
        and isinstance(value.op, ast.Or)
        and isinstance(raised, ast.Raise)
        and isinstance(raised.exc, ast.Call)
        and raised.exc.args
        and isinstance(raised.exc.args[0], ast.JoinedStr)
    ):
        return None
    parts = []
    for part in raised.exc.args[0].values:
        if isinstance(part, ast.Constant):
            parts.append(str(part.value).replace("{", "{{").replace("}", "}}"))
        elif isinstance(part, ast.FormattedValue) and ast.unparse(part.value) == "quantization":
            parts.append("{quantization!r}" if part.conversion == ord("r") else "{quantization}")
        else:
            return None
    found: dict[str, object] = {"message": "".join(parts)}
    terms: list[str] = []
    for term in value.values:
        written = ast.unparse(term)
        if (
            isinstance(term, ast.Compare)
            and written.startswith("quantization in ")
            and isinstance(term.comparators[0], (ast.Tuple, ast.List))
        ):
            found["quantizations"] = [
                e.value for e in term.comparators[0].elts if isinstance(e, ast.Constant)
            ]
        elif (
            isinstance(term, ast.BoolOp)
            and isinstance(term.op, ast.And)
            and len(term.values) == 2
            and isinstance(term.values[0], ast.Compare)
            and ast.unparse(term.values[0].left) == "quantization"
            and isinstance(term.values[0].comparators[0], ast.Constant)
        ):
            switch = env_switch(term.values[1], environ)
            if switch is None:
                return None
            found["env"] = {"quantization": term.values[0].comparators[0].value, **switch}
        elif written.startswith("model_config.") and written.count(".") == 1:
            terms.append(written.split(".")[1].split(" ")[0])
        else:
            return None
    read = _model_terms(model_config, terms) if terms else ([], [])
    if "quantizations" not in found or read is None:
        return None
    found["model_terms"] = terms
    found["config_keys"], found["architectures"] = read
    return found


def _model_terms(model_config: str | None, terms: list[str]) -> tuple[list[str], list[str]] | None:
    """sglang/srt/configs/model_config.py's `ModelConfig.__init__` statements setting
    `self.<term>` and the locals they read -> (the quantization_config keys read there with
    `.get("key")`, the architectures their tests name through a module-level tuple or a
    module-level function returning `... in (tuple)`); a checkpoint with none of those keys and
    none of those architectures leaves every term false/None."""
    if model_config is None:
        return None
    tree = ast.parse(model_config)
    tuples: dict[str, list[str]] = {}
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Tuple) and len(stmt.targets) == 1:
            tuples[ast.unparse(stmt.targets[0])] = [
                e.value for e in stmt.value.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)
            ]
        returned = stmt.body[-1] if isinstance(stmt, ast.FunctionDef) and stmt.body else None
        if (
            isinstance(returned, ast.Return)
            and isinstance(returned.value, ast.Compare)
            and isinstance(returned.value.ops[0], ast.In)
            and isinstance(returned.value.comparators[0], ast.Tuple)
        ):
            tuples[stmt.name] = [
                e.value for e in returned.value.comparators[0].elts if isinstance(e, ast.Constant)
            ]
    init = next(
        (
            f
            for c in tree.body
            if isinstance(c, ast.ClassDef) and c.name == "ModelConfig"
            for f in c.body
            if isinstance(f, ast.FunctionDef) and f.name == "__init__"
        ),
        None,
    )
    if init is None:
        return None
    setting = [s for s in init.body if any(f"self.{t}" in ast.unparse(s) for t in terms)]
    if not setting or any(
        not any(f"self.{t} =" in ast.unparse(s) or f"self.{t}:" in ast.unparse(s) for s in setting)
        for t in terms
    ):
        return None
    names = {n.id for s in setting for n in ast.walk(s) if isinstance(n, ast.Name)}
    feeding = [
        s
        for s in init.body
        if isinstance(s, (ast.Assign, ast.AnnAssign)) and ast.unparse(s).split(" ")[0].rstrip(":") in names
    ]
    keys: list[str] = []
    architectures: list[str] = []
    for node in (n for s in setting + feeding for n in ast.walk(s)):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "get"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
            and node.args[0].value not in keys
        ):
            keys.append(node.args[0].value)
        named = node.func.id if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) else None
        named = node.id if isinstance(node, ast.Name) and node.id in tuples else named
        architectures.extend(a for a in tuples.get(named or "", []) if a not in architectures)
    return keys, architectures


_BUDGET_FIELDS = {
    "model_label": "{label}",
    "cfg.chunked_prefill_size": "{chunk}",
    "token_partition_name": "{partition}",
    "token_partition_size": "{partition_size}",
    "token_alignment": "{alignment}",
    "required_tokens_per_rank": "{required}",
    "max_tokens_per_rank": "{limit}",
}


def read_megamoe_token_budget(
    sources: Sources, environ: str | None, common: str | None = None
) -> dict[str, object] | None:
    """0.5.21+ `validate_mega_moe_token_budget`: a function assigning `max_tokens_per_rank =
    envs.X.get()` (environ.py: `X = EnvInt(N)`) after `if cfg.moe_a2a_backend != "A": return`,
    whose last `raise ValueError(f"...")` is the prefill budget's -> {"a2a": A, "env": X,
    "default": N, "message" (its fields as `_BUDGET_FIELDS`), "where": the function, "needs":
    `mega_moe_needs_token_budget`'s architectures (a module-level frozenset), quantizations and
    `"S" in str(hf_quant_config.get("K", ""))` as "quant_algo": [K, S], "returns": the tests
    of its top-level `if T: return`, "partitions": those of the chain splitting the tokens,
    "branches": that chain's tests and assignments (`budget_branches`),
    "disabled": the message refusing chunked prefill turned off, "decode": 0.5.21+'s decode-side
    check (tools/sglang_megamoe_decode.py; `common`: utils/common.py's text), where read}."""
    needs = _budget_needs(sources)
    for _, tree, _ in sources:
        for function in (f for f in ast.walk(tree) if isinstance(f, ast.FunctionDef)):
            env = next(
                (
                    ast.unparse(s.value).split(".")[1]
                    for s in ast.walk(function)
                    if isinstance(s, ast.Assign)
                    and [ast.unparse(t) for t in s.targets] == ["max_tokens_per_rank"]
                    and ast.unparse(s.value).startswith("envs.")
                    and ast.unparse(s.value).endswith(".get()")
                ),
                None,
            )
            guard = next((s for s in function.body if isinstance(s, ast.If)), None)
            test = guard.test if guard is not None else None
            raises = sorted(
                (s for s in ast.walk(function) if isinstance(s, ast.Raise)), key=lambda r: r.lineno
            )
            last = raises[-1].exc if raises else None
            if not (
                env is not None
                and isinstance(test, ast.Compare)
                and ast.unparse(test.left) == "cfg.moe_a2a_backend"
                and isinstance(test.ops[0], ast.NotEq)
                and isinstance(test.comparators[0], ast.Constant)
                and isinstance(last, ast.Call)
                and ast.unparse(last.func) == "ValueError"
                and last.args
                and isinstance(last.args[0], ast.JoinedStr)
            ):
                continue
            message = _rendered(last.args[0], _BUDGET_FIELDS)
            default = env_int(environ, env)
            if message is None or default is None or needs is None:
                return None
            from sglang_megamoe_decode import read_megamoe_decode

            functions = {f.name: f for _, t, _ in sources for f in t.body if isinstance(f, ast.FunctionDef)}
            decode = read_megamoe_decode(function, functions, common)
            return {
                **({"decode": decode} if decode is not None else {}),
                "a2a": test.comparators[0].value,
                "env": env,
                "default": default,
                "message": message,
                "where": function.name,
                "needs": needs,
                "returns": [ast.unparse(s.test) for s in function.body if budget_returns(s)],
                "disabled": budget_disabled(function, _rendered, _BUDGET_FIELDS),
                "partitions": budget_partitions(function),
                "branches": budget_branches(function),
            }
    return None


def _rendered(text: ast.JoinedStr, named: dict[str, str]) -> str | None:
    parts = []
    for value in text.values:
        if isinstance(value, ast.Constant):
            parts.append(str(value.value).replace("{", "{{").replace("}", "}}"))
            continue
        written = ast.unparse(value.value) if isinstance(value, ast.FormattedValue) else ""
        if written not in named:
            return None
        parts.append(named[written])
    return "".join(parts)


def _budget_needs(sources: Sources) -> dict[str, object] | None:
    """`def mega_moe_needs_token_budget(model_arch, hf_quant_config, quantization)`: `X =
    quantization == "V"` (or `in (...)`) `or "S" in str(hf_quant_config.get("K", ""))`, then
    `return model_arch in NAME or X` with NAME a module-level frozenset of strings."""
    for _, tree, _ in sources:
        sets = {
            ast.unparse(s.targets[0]): [
                c.value for c in ast.walk(s.value) if isinstance(c, ast.Constant) and isinstance(c.value, str)
            ]
            for s in tree.body
            if isinstance(s, ast.Assign)
            and len(s.targets) == 1
            and ast.unparse(s.value).startswith("frozenset(")
        }
        for function in (f for f in tree.body if isinstance(f, ast.FunctionDef)):
            args = [a.arg for a in function.args.args]
            if args != ["model_arch", "hf_quant_config", "quantization"] or len(function.body) != 2:
                continue
            assign, returned = function.body
            if not (
                isinstance(assign, ast.Assign)
                and isinstance(assign.value, ast.BoolOp)
                and isinstance(assign.value.op, ast.Or)
                and len(assign.value.values) == 2
                and isinstance(returned, ast.Return)
                and isinstance(returned.value, ast.BoolOp)
            ):
                return None
            quant, algo = assign.value.values
            values = [
                c.value for c in ast.walk(quant) if isinstance(c, ast.Constant) and isinstance(c.value, str)
            ]
            constants = [
                c.value for c in ast.walk(algo) if isinstance(c, ast.Constant) and isinstance(c.value, str)
            ]
            written = ast.unparse(returned.value)
            name = next((n for n in sets if written.startswith(f"model_arch in {n} or ")), None)
            if not (
                isinstance(quant, ast.Compare)
                and ast.unparse(quant.left) == "quantization"
                and len(constants) == 3
                and ast.unparse(algo).startswith(f"{constants[0]!r} in str(hf_quant_config.get(")
                and name is not None
            ):
                return None
            return {
                "architectures": sorted(sets[name]),
                "quantizations": values,
                "quant_algo": constants[1::-1],
            }
    return None
