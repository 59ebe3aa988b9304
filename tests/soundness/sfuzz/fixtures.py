"""Regression fixtures: a minimised pair that gave a false verdict, kept under
tests/fixtures/soundness/<id>/ as old/C.java, new/C.java (readable, compiled by the
java_fixtures target) and case.json (the programs as AST, the models to run it in, the oracle options,
the inputs that showed the difference, the finding as first seen, and why it is unsound)."""
import json
import os

from .ast import Program, render
from .pipeline import Pair


def save(root, fid, pair, mode, finding, reason="", oracle=None, modes=None):
    d = os.path.join(root, fid)
    os.makedirs(os.path.join(d, "old"), exist_ok=True)
    os.makedirs(os.path.join(d, "new"), exist_ok=True)
    modes = list(modes or [mode])
    p = Pair(fid, pair.old.clone(), pair.new.clone(), pair.desc, modes, pair.seed, pair.features)
    with open(os.path.join(d, "old", "C.java"), "w") as f:
        f.write(render(p.old))
    with open(os.path.join(d, "new", "C.java"), "w") as f:
        f.write(render(p.new))
    inputs = [finding["input"]] if finding.get("type") == "false_eq" else []
    case = {"modes": modes, "finding": finding.get("type"), "reason": reason, "oracle": oracle or {},
            "seed": pair.seed, "features": list(pair.features), "desc": pair.desc,
            "seen": {k: finding[k] for k in ("explain", "witness", "path_condition", "open") if k in finding},
            "inputs": inputs, "old": p.old.to_json(), "new": p.new.to_json()}
    with open(os.path.join(d, "case.json"), "w") as f:
        f.write(dumps(case))
    return d


def dumps(case):
    """One top-level key per line, values compact (the programs stay diffable per version)."""
    lines = ["  %s: %s" % (json.dumps(k), json.dumps(case[k], sort_keys=True)) for k in sorted(case)]
    return "{\n" + ",\n".join(lines) + "\n}\n"


def load(root):
    """All fixtures under root: list of (id, Pair, case dict, problems with the committed sources)."""
    out = []
    if not os.path.isdir(root):
        return out
    for fid in sorted(os.listdir(root)):
        path = os.path.join(root, fid, "case.json")
        if not os.path.isfile(path):
            continue
        with open(path) as f:
            case = json.load(f)
        old, new = Program.from_json(case["old"]), Program.from_json(case["new"])
        modes = case.get("modes") or [case["mode"]]
        pair = Pair(fid, old, new, case.get("desc", ""), modes, case.get("seed"), case.get("features", ()))
        pair.extra_inputs = case.get("inputs", [])
        problems = []
        for v, prog in (("old", pair.old), ("new", pair.new)):
            src = os.path.join(root, fid, v, "C.java")
            if not os.path.isfile(src) or open(src).read() != render(prog):
                problems.append("%s/C.java does not match case.json" % v)
        out.append((fid, pair, case, problems))
    return out
