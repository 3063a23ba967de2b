import json, pathlib, textwrap
arch = json.load(open("/tmp/drf/arch.json"))
cap = json.load(open("/tmp/drf/capture.json"))
# targets whose capture hook indexes self.layers[id] (IndexError for ids past the depth)
index_files = {}
for v in arch:
    root = pathlib.Path(f"/tmp/sgl/src_{v}/sglang/srt/models")
    names = set()
    import ast
    for f in sorted(root.rglob("*.py")):
        t = f.read_text(encoding="utf-8-sig")
        if "setattr(self.layers[layer_id]" in t and "def set_eagle3_layers_to_capture" in t:
            tree = ast.parse(t)
            for node in ast.walk(tree):
                if isinstance(node, ast.Assign) and any(isinstance(x, ast.Name) and x.id == "EntryClass" for x in node.targets):
                    names |= {n.id for n in ast.walk(node.value) if isinstance(n, ast.Name)}
    index_files[v] = sorted(names)
def block(names):
    return "\n".join(textwrap.wrap(" ".join(names), 96, break_long_words=False, break_on_hyphens=False))
out = ['"""SGLang facts read statically from the release wheels; generated, do not edit by hand.',
'',
'ARCHITECTURES: the class names SGLang registers per release (every `EntryClass` in',
'sglang/srt/models/**/*.py, which `models/registry.py::import_model_classes` keys on',
'`__name__`). CAPTURE: per release, the target architectures whose module defines',
'`set_eagle3_layers_to_capture`, grouped by how they turn eagle_config ids into the layers',
'captured (see speclint.models.aux_layers). INDEXES_LAYERS: targets whose hook does',
'`setattr(self.layers[layer_id], ...)`, so an id past the depth raises IndexError at load.',
'"""', '', 'ARCHITECTURES = {']
for v, names in arch.items():
    out.append(f'    "{v}": """\n{block(names)}\n""",')
out.append("}\n\nCAPTURE = {")
for v, fams in cap.items():
    out.append(f'    "{v}": {{')
    for fam, names in fams.items():
        if names:
            out.append(f'        "{fam}": """\n{block(names)}\n""",')
    out.append("    },")
out.append("}\n\nINDEXES_LAYERS = {")
for v, names in index_files.items():
    out.append(f'    "{v}": """\n{block(names)}\n""",')
out.append("}")
print("\n".join(out))
