"""One fuzzing batch: generate pairs, compile them all in one JVM, run pasda-jvm on each pair
(both arithmetic models where the pair allows), run both versions in one JVM on random,
boundary and witness inputs, and judge every EQ and NEQ verdict."""
import concurrent.futures
import json
import os
import random
import re
import shutil
import subprocess
import time
import zlib

from .ast import render, render_ck
from .gen import generate
from .inputs import Builder, Space, Witness
from .judge import Oracle, checked_agrees, overflowed
from .variants import derive

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO = os.path.dirname(os.path.dirname(HERE))
BATCH_COMPILE = os.path.join(REPO, "tests", "tools", "BatchCompile.java")
DRIVER_DIR = os.path.join(HERE, "driver")


class Settings:
    """Everything a batch needs besides the pairs (the CLI of fuzz.py fills it)."""

    def __init__(self, pasda, **kw):
        self.pasda = pasda
        self.java = kw.get("java") or "java"
        self.modes = tuple(kw.get("modes") or ("java", "math"))
        self.timeout = kw.get("timeout", 5.0)
        self.jobs = kw.get("jobs", 2)
        self.heap_bound = kw.get("heap_bound", 2)
        self.max_len = kw.get("max_len", 8)
        self.inputs = kw.get("inputs", 24)
        self.completions = kw.get("completions", 4)
        self.max_neq_partitions = kw.get("max_neq_partitions", 4)
        self.static_inputs = kw.get("static_inputs", False)
        self.compare_output = kw.get("compare_output", False)
        self.pasda_args = list(kw.get("pasda_args") or [])


class Pair:
    def __init__(self, pid, old, new, desc, modes, seed=None, features=()):
        self.pid, self.old, self.new, self.desc, self.modes = pid, old, new, desc, tuple(modes)
        self.seed, self.features = seed, tuple(features)
        for prog in (old, new):
            prog.pkg = "sfz." + pid

    def to_json(self):
        return {"pid": self.pid, "old": self.old.to_json(), "new": self.new.to_json(), "desc": self.desc,
                "modes": list(self.modes), "seed": self.seed, "features": list(self.features)}


def make_pair(seed, features, size, modes):
    """The pair of a seed: a program and its mutated or rewritten second version. Odd seeds are
    generated in the math-safe profile and are also checked under --arith math."""
    rng = random.Random(seed * 7919 + 17)
    math = "math" in modes and (seed % 2 == 1 or "java" not in modes)
    pair_modes = [m for m in modes if m == "java" or math]
    prog = generate(seed, features, size, math_safe=math)
    kind = "mutation" if rng.random() < 0.55 else "rewrite"
    new, desc = derive(prog, rng, kind)
    return Pair("p%d" % seed, prog, new, desc, pair_modes, seed, features)


# --------------------------------------------------------------------------- compile
class Workspace:
    VARIANTS = ("old", "new", "old-ck", "new-ck")

    def __init__(self, root):
        self.root = root
        if os.path.exists(root):
            shutil.rmtree(root)
        os.makedirs(root)

    def src(self, variant, pid=None):
        d = os.path.join(self.root, "src", variant)
        return d if pid is None else os.path.join(d, "sfz", pid)

    def cls(self, variant):
        return os.path.join(self.root, "classes", variant)

    def class_file(self, pair, variant):
        return os.path.join(self.cls(variant), "sfz", pair.pid, "C.class")

    def write(self, pairs):
        for p in pairs:
            for variant, prog, ck in (("old", p.old, False), ("new", p.new, False), ("old-ck", p.old, True),
                                      ("new-ck", p.new, True)):
                if ck and "math" not in p.modes:
                    continue
                d = self.src(variant, p.pid)
                os.makedirs(d, exist_ok=True)
                with open(os.path.join(d, "C.java"), "w") as f:
                    f.write(render(prog, ck))
                if ck:
                    with open(os.path.join(d, "Ck.java"), "w") as f:
                        f.write(render_ck(prog.pkg))

    def compile(self, pairs, java, with_driver=True):
        """Compile everything in one JVM; returns the ids of pairs that do not compile."""
        units = []
        for v in self.VARIANTS:
            if os.path.isdir(self.src(v)):
                units += ["--unit", self.src(v), self.cls(v)]
        if with_driver:
            units += ["--unit", DRIVER_DIR, self.cls("driver")]
        r = subprocess.run([java, BATCH_COMPILE] + units, capture_output=True, text=True)
        if r.returncode == 0:
            return set()
        if with_driver and "compiling %s failed" % DRIVER_DIR in r.stderr:
            raise RuntimeError("the JVM driver does not compile:\n" + r.stderr[-3000:])
        # Some unit failed: javac names the files; leave those pairs out and compile the rest
        # (javac reports later phases, e.g. flow errors, only once earlier ones are gone: repeat).
        failed = set()
        for _ in range(8):
            bad = set(re.findall(r"sfz[/\\](\w+)[/\\](?:C|Ck)\.java:\d+: error", r.stderr))
            if not bad:
                raise RuntimeError("javac failed without naming a generated file:\n" + r.stderr[-3000:])
            failed |= bad
            for pid in bad:
                for v in self.VARIANTS:
                    shutil.rmtree(self.src(v, pid), ignore_errors=True)
            units = []
            for v in self.VARIANTS:
                if os.path.isdir(self.src(v)):
                    units += ["--unit", self.src(v), self.cls(v)]
            r = subprocess.run([java, BATCH_COMPILE] + units, capture_output=True, text=True)
            if r.returncode == 0:
                return failed
        raise RuntimeError("javac keeps failing:\n" + r.stderr[-3000:])


# --------------------------------------------------------------------------- pasda-jvm
def run_pasda(settings, ws, pair, mode):
    cmd = [settings.pasda, ws.class_file(pair, "old"), ws.class_file(pair, "new"), "--method", pair.old.target,
           "--format", "json", "--timeout", str(settings.timeout), "--arith", mode,
           "--heap-bound", str(settings.heap_bound), "--max-array-length", str(settings.max_len),
           # what counts as behaviour, as the judge sees it
           "--static-inputs", "on" if settings.static_inputs else "off",
           "--compare-output", "on" if settings.compare_output else "off"]
    cmd += settings.pasda_args
    t0 = time.time()
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=settings.timeout + 30)
    except subprocess.TimeoutExpired:
        return {"verdict": "HANG", "seconds": time.time() - t0, "error": "pasda-jvm did not end", "cmd": cmd}
    out = {"seconds": time.time() - t0, "rc": r.returncode, "cmd": cmd}
    try:
        j = json.loads(r.stdout)
        out["verdict"] = j.get("result", "ERROR")
        out["json"] = j
        if j.get("errors"):
            out["error"] = j["errors"]
    except ValueError:
        out["verdict"] = "ERROR"
        out["error"] = (r.stderr.strip().splitlines() or ["exit %d, no output" % r.returncode])[-1]
    return out


# --------------------------------------------------------------------------- the batch
class Result:
    """The judgement of one pair in one arithmetic model."""

    def __init__(self, pair, mode, run):
        self.pair, self.mode, self.run = pair, mode, run
        self.verdict = run.get("verdict", "ERROR")
        self.finding = None          # {"type": false_eq|false_neq|false_neq_partition, ...}
        self.inputs_judged = 0
        self.inputs_skipped = 0
        self.neq = {"confirmed": 0, "refuted": 0, "unjudged": 0, "no_witness": 0}
        self.random_differs = False
        self.witness_obs = {}        # NEQ partition index -> [(differs, info, input getter, observation)]


def static_names(pair):
    olds = {f.name: f.t for f in pair.old.fields if f.static}
    news = {f.name: f.t for f in pair.new.fields if f.static}
    return sorted(n for n in olds if news.get(n) == olds[n])


def evaluate(pairs, settings, workdir, seed=0, log=None):
    """Judge every pair in every one of its models; returns (results, stats)."""
    stats = {"pairs": len(pairs), "compile_failed": 0, "pasda_runs": 0, "inputs": 0, "driver_runs": 0,
             "checked_mismatch": 0, "t_compile": 0.0, "t_pasda": 0.0, "t_jvm": 0.0}
    ws = Workspace(workdir)
    ws.write(pairs)
    t0 = time.time()
    failed = ws.compile(pairs, settings.java)
    stats["t_compile"] = time.time() - t0
    stats["compile_failed"] = len(failed)
    stats["compile_failed_ids"] = sorted(failed)
    live = [p for p in pairs if p.pid not in failed]

    t0 = time.time()
    tasks = [(p, m) for p in live for m in p.modes]
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, settings.jobs)) as ex:
        runs = list(ex.map(lambda pm: run_pasda(settings, ws, pm[0], pm[1]), tasks))
    stats["t_pasda"] = time.time() - t0
    stats["pasda_runs"] = len(tasks)
    results = [Result(p, m, r) for (p, m), r in zip(tasks, runs)]

    jobs, tags = build_jobs(live, results, settings, ws, seed)
    stats["inputs"] = sum(len(j["inputs"]) for j in jobs)
    t0 = time.time()
    obs = run_driver(settings, ws, jobs)
    stats["t_jvm"] = time.time() - t0
    stats["driver_runs"] = sum(len([k for k in line if k not in ("id", "i")])
                               for per_pair in obs.values() for line in per_pair.values())
    oracle = Oracle(settings.compare_output)
    for p in live:
        mine = [r for r in results if r.pair is p]
        inputs = next(j for j in jobs if j["id"] == p.pid)["inputs"]
        for i, tag in enumerate(tags[p.pid]):
            o = obs.get(p.pid, {}).get(i)
            if o is None:
                continue
            for v in ("old", "new"):
                if "math" in p.modes and not checked_agrees(o.get(v), o.get(v + "_ck")):
                    stats["checked_mismatch"] += 1
            for r in mine:
                judge_one(r, tag, o, oracle, inputs[i])
    for r in results:
        finish(r)
    return results, stats


def build_jobs(live, results, settings, ws, seed):
    """The driver's jobs: per pair, random inputs (shared by its models) and the inputs of the
    witnesses of its NEQ partitions; tags say what each input is for."""
    jobs, tags = [], {}
    for p in live:
        rng = random.Random(zlib.crc32(("%d/%s" % (seed, p.pid)).encode()))
        space = Space(p.old)
        b = Builder(space, rng, settings.heap_bound, settings.max_len)
        inputs = [adapt(x, space) for x in getattr(p, "extra_inputs", [])]
        inputs += [b.build(settings.static_inputs) for _ in range(settings.inputs)]
        tag = [("random", None, None)] * len(inputs)
        for r in results:
            if r.pair is not p or r.verdict != "NEQ":
                continue
            parts = [q for q in r.run["json"].get("partitions", []) if q.get("result") == "NEQ"]
            for q in parts[:settings.max_neq_partitions]:
                if not q.get("witness_values"):
                    # NEQ without a model (e.g. Neq UNKNOWN, Eq UNSAT): nothing to replay.
                    r.neq["no_witness"] += 1
                    continue
                w = Witness(space, q)
                comps = w.completions(rng, settings.completions)
                if w.unbuildable:  # (seed 6048: a length of 33554442 built as 0 left the path)
                    r.neq["unjudged"] += 1
                    continue
                for c, inp in enumerate(comps):
                    inputs.append(inp)
                    tag.append(("witness", r, (q.get("index"), c, list(w.open))))
        versions = {"old": ws.cls("old"), "new": ws.cls("new")}
        if "math" in p.modes:
            versions.update({"old_ck": ws.cls("old-ck"), "new_ck": ws.cls("new-ck")})
        jobs.append({"id": p.pid, "cls": p.old.class_name, "method": p.old.target,
                     "params": [n for n, _ in p.old.method(p.old.target).params],
                     "versions": versions, "statics": static_names(p), "inputs": inputs})
        tags[p.pid] = tag
    return jobs, tags


def adapt(inp, space):
    """A stored input for a program whose fields may have been removed (minimisation)."""
    import copy
    inp = copy.deepcopy(inp)
    for o in inp["heap"]:
        if o["k"] == "obj" and o["cls"] == "C":
            o["f"] = {k: v for k, v in o["f"].items() if k in space.fields}
    inp["set_statics"] = {k: v for k, v in inp.get("set_statics", {}).items() if k in space.mutable_statics}
    return inp


def judge_one(r, tag, o, oracle, inp):
    kind, owner, info = tag
    if kind == "witness" and owner is not r:
        return
    if r.mode == "math" and (overflowed(o.get("old_ck")) or overflowed(o.get("new_ck"))):
        if kind == "random":
            r.inputs_skipped += 1
        else:
            r.witness_obs.setdefault(info[0], []).append(None)
        return
    d = oracle.differs(o.get("old"), o.get("new"))
    if kind == "random":
        if d is None:
            r.inputs_skipped += 1
            return
        r.inputs_judged += 1
        if d:
            r.random_differs = True
            if r.verdict == "EQ" and r.finding is None:
                r.finding = {"type": "false_eq", "input": inp,
                             "explain": oracle.explain(o["old"], o["new"]), "old": o["old"], "new": o["new"]}
        return
    r.witness_obs.setdefault(info[0], []).append((d, info, inp, o))


def finish(r):
    """Per NEQ partition: confirmed if some completion of its witness differs in the JVM."""
    wo = r.witness_obs
    refuted = []
    for part, lst in sorted(wo.items(), key=lambda kv: str(kv[0])):
        judged = [x for x in lst if x is not None and x[0] is not None]
        if any(x[0] for x in judged):
            r.neq["confirmed"] += 1
        elif judged:
            r.neq["refuted"] += 1
            refuted.append(judged[0])
        else:
            r.neq["unjudged"] += 1
    if r.verdict == "NEQ" and refuted:
        d, info, inp, o = refuted[0]
        part = next(q for q in r.run["json"]["partitions"] if q.get("index") == info[0])
        r.finding = {"type": "false_neq" if r.neq["confirmed"] == 0 else "false_neq_partition",
                     "partition": info[0], "open": info[2], "input": inp,
                     "witness": part.get("witness_values"), "path_condition": part.get("path_condition"),
                     "pasda_replays": part.get("replays"),
                     "old": o["old"], "new": o["new"]}
    if r.finding is not None and "json" in r.run:
        del r.run["json"]  # keep memory small; the finding holds what the report needs
    elif "json" in r.run:
        del r.run["json"]


def run_driver(settings, ws, jobs):
    jobs_file = os.path.join(ws.root, "jobs.jsonl")
    out_file = os.path.join(ws.root, "observations.jsonl")
    with open(jobs_file, "w") as f:
        for j in jobs:
            f.write(json.dumps(j) + "\n")
    r = subprocess.run([settings.java, "-Xss4m", "-XX:TieredStopAtLevel=1", "-cp", ws.cls("driver"),
                        "SoundnessDriver", jobs_file, out_file], capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("the JVM driver failed:\n" + r.stderr[-3000:])
    obs = {}
    with open(out_file) as f:
        for line in f:
            o = json.loads(line)
            obs.setdefault(o["id"], {})[o["i"]] = o
    return obs
