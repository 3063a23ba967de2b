"""Collect SGLang's registered architectures (EntryClass class names) per release."""
import ast, json, pathlib, sys
out = {}
for v in ["0.4.10.post2", "0.5.6.post2", "0.5.14", "0.5.23"]:
    root = pathlib.Path(f"/tmp/sgl/src_{v}/sglang/srt/models")
    names = set()
    for f in sorted(root.rglob("*.py")):
        tree = ast.parse(f.read_text(encoding="utf-8-sig"))
        classes = {n.name for n in ast.walk(tree) if isinstance(n, ast.ClassDef)}
        aliases = {}
        for node in tree.body:
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                if isinstance(node.value, ast.Name):
                    aliases[node.targets[0].id] = node.value.id
        for node in ast.walk(tree):
            if isinstance(node, (ast.Assign, ast.AugAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if any(isinstance(t, ast.Name) and t.id == "EntryClass" for t in targets):
                    for n in ast.walk(node.value):
                        if isinstance(n, ast.Name) and n.id != "EntryClass":
                            name = n.id
                            while name in aliases and name not in classes:
                                name = aliases[name]
                            names.add(name)
    out[v] = sorted(names)
    print(v, len(names), file=sys.stderr)
json.dump(out, sys.stdout, indent=0)
