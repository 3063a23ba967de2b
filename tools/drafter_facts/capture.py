import ast, json, pathlib
res = {}
for v in ["0.4.10.post2", "0.5.6.post2", "0.5.14", "0.5.23"]:
    root = pathlib.Path(f"/tmp/sgl/src_{v}/sglang/srt/models")
    fam = {"plus_one": set(), "deepseek_first_id": set(), "gpt_oss_max": set(), "shifted_default": set()}
    for f in sorted(root.rglob("*.py")):
        text = f.read_text(encoding="utf-8-sig")
        if "def set_eagle3_layers_to_capture" not in text:
            continue
        tree = ast.parse(text)
        names = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "EntryClass" for t in node.targets):
                names |= {n.id for n in ast.walk(node.value) if isinstance(n, ast.Name)}
        if "layer_ids[0] == 1" in text: key = "deepseek_first_id"
        elif "max(layer_ids) == num_layers" in text: key = "gpt_oss_max"
        elif "num_layers // 2 + 1" in text: key = "shifted_default"
        else: key = "plus_one"
        if f.name == "kimi_k25.py" and v in ("0.5.14", "0.5.23"): key = "deepseek_first_id"
        fam[key] |= names
        print(v, f.name, key, sorted(names))
    res[v] = {k: sorted(s) for k, s in fam.items()}
json.dump(res, open("/tmp/drf/capture.json", "w"), indent=1)
