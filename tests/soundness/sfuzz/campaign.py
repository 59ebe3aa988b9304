"""A fuzzing campaign: batches of seeded pairs until the seeds or the time budget run out, then
the report (counts per verdict, inputs, findings with reproducers), optional minimisation of
the findings and fixtures for them. Shared by the CI test and bench/soundness-fuzz."""
import json
import os
import time

from . import fixtures
from .minimise import minimise, size
from .pipeline import evaluate, make_pair

VERDICTS = ("EQ", "NEQ", "MAYBE_EQ", "MAYBE_NEQ", "UNKNOWN", "DEPTH_LIMITED", "TIMEOUT", "ERROR", "HANG")
FINDINGS = {"false_eq": "FALSE EQ", "false_neq": "FALSE NEQ", "false_neq_partition": "FALSE NEQ PARTITION"}


class Campaign:
    def __init__(self, settings, features, size_, workdir, log=print):
        self.settings, self.features, self.size, self.workdir, self.log = settings, features, size_, workdir, log
        self.results = []
        self.stats = {}
        self.batches = 0
        self.started = time.time()

    def add_stats(self, st):
        for k, v in st.items():
            if isinstance(v, (int, float)):
                self.stats[k] = self.stats.get(k, 0) + v
            elif isinstance(v, list):
                self.stats.setdefault(k, []).extend(v)

    def run(self, seeds, batch=40, budget=None):
        deadline = None if budget is None else self.started + budget
        self.skipped_seeds = []
        for start in range(0, len(seeds), batch):
            if deadline is not None and time.time() > deadline:
                self.skipped_seeds = seeds[start:]
                self.log("time budget reached: %d seeds not run" % len(self.skipped_seeds))
                break
            chunk = seeds[start:start + batch]
            pairs = [make_pair(s, self.features, self.size, self.settings.modes) for s in chunk]
            res, st = evaluate(pairs, self.settings, os.path.join(self.workdir, "batch"), seed=chunk[0])
            self.batches += 1
            self.results += res
            self.add_stats(st)
            found = sum(1 for r in res if r.finding)
            self.log("batch %d: seeds %d..%d, %d pasda runs, %d inputs, %d findings, %.0f s elapsed"
                     % (self.batches, chunk[0], chunk[-1], st["pasda_runs"], st["inputs"], found,
                        time.time() - self.started))
        self.fuzz_seconds = time.time() - self.started
        return self

    def findings(self):
        return [r for r in self.results if r.finding]

    # ----------------------------------------------------------------- minimisation
    def minimise_findings(self, per_class=1, seconds=300, fixture_dir=None, id_prefix="f", limit=None):
        """Minimise up to per_class findings of each (type, model), at most `limit` in all; save
        fixtures if asked."""
        done = {}
        saved = []
        for r in self.findings():
            if limit is not None and sum(done.values()) >= limit:
                break
            key = (r.finding["type"], r.mode)
            if done.get(key, 0) >= per_class:
                continue
            done[key] = done.get(key, 0) + 1
            self.log("minimising %s %s (%s, size %d)" % (r.pair.pid, r.mode, r.finding["type"], size(r.pair)))
            pair = r.pair
            if r.finding["type"] == "false_eq":
                pair.extra_inputs = [r.finding["input"]]

            def batch(pairs, mode=r.mode):
                out, _ = evaluate(pairs, self.settings, os.path.join(self.workdir, "minimise"), seed=0)
                return [x for x in out if x.mode == mode]
            best = minimise(pair, r.mode, r.finding["type"], batch, time.time() + seconds, log=self.log)
            final = getattr(best, "last_result", r)
            r.minimised = best
            r.minimised_result = final
            if fixture_dir:
                fid = "%s_%s_%s_%s" % (id_prefix, r.pair.pid, r.mode, r.finding["type"])
                oracle = {"static_inputs": self.settings.static_inputs,
                          "compare_output": self.settings.compare_output}
                saved.append(fixtures.save(fixture_dir, fid, best, r.mode, final.finding, oracle=oracle))
        return saved

    # ----------------------------------------------------------------- report
    def summary(self):
        s = self.stats
        elapsed = getattr(self, "fuzz_seconds", None) or time.time() - self.started
        modes = sorted({r.mode for r in self.results})
        counts = {m: {} for m in modes}
        for r in self.results:
            counts[r.mode][r.verdict] = counts[r.mode].get(r.verdict, 0) + 1
        neq = {"confirmed": 0, "refuted": 0, "unjudged": 0, "no_witness": 0}
        judged = skipped = 0
        rewrites_differ = 0
        for r in self.results:
            for k in neq:
                neq[k] += r.neq[k]
            judged += r.inputs_judged
            skipped += r.inputs_skipped
            if r.random_differs and r.pair.desc.startswith("rewrite"):
                rewrites_differ += 1
        errors = {}
        for r in self.results:
            if r.verdict in ("ERROR", "HANG"):
                msg = (r.run.get("error") or "").strip().splitlines()
                errors[msg[0][:160] if msg else "?"] = errors.get(msg[0][:160] if msg else "?", 0) + 1
        by_type = {}
        for r in self.findings():
            by_type.setdefault("%s [%s]" % (r.finding["type"], r.mode), []).append(r.pair.pid)
        return {"pairs": s.get("pairs", 0), "compile_failed": s.get("compile_failed", 0),
                "compile_failed_ids": s.get("compile_failed_ids", []),
                "pasda_runs": s.get("pasda_runs", 0), "inputs": s.get("inputs", 0),
                "jvm_runs": s.get("driver_runs", 0), "inputs_judged": judged, "inputs_skipped": skipped,
                "verdicts": counts, "neq_partitions": neq, "findings": by_type, "errors": errors,
                "checked_mismatch": s.get("checked_mismatch", 0), "rewrite_pairs_differing": rewrites_differ,
                "seconds": round(elapsed, 1), "pairs_per_s": round(s.get("pairs", 0) / elapsed, 3) if elapsed else 0,
                "t_compile": round(s.get("t_compile", 0), 1), "t_pasda": round(s.get("t_pasda", 0), 1),
                "t_jvm": round(s.get("t_jvm", 0), 1)}

    def report(self, out=print):
        sm = self.summary()
        out("soundness fuzz: %d pairs (%d did not compile), %d pasda-jvm runs, %d inputs (%d JVM runs), %.1f s, "
            "%.2f pairs/s" % (sm["pairs"], sm["compile_failed"], sm["pasda_runs"], sm["inputs"], sm["jvm_runs"],
                              sm["seconds"], sm["pairs_per_s"]))
        if getattr(self, "skipped_seeds", None):
            out("  the time budget left %d seeds unrun (from %d)" % (len(self.skipped_seeds), self.skipped_seeds[0]))
        out("  time: compile %.1f s, pasda-jvm %.1f s, JVM %.1f s" % (sm["t_compile"], sm["t_pasda"], sm["t_jvm"]))
        for m, c in sm["verdicts"].items():
            out("  --arith %-4s: %s" % (m, ", ".join("%s %d" % (v, c[v]) for v in VERDICTS if c.get(v))))
        n = sm["neq_partitions"]
        out("  NEQ partitions checked in the JVM: %d confirmed, %d refuted, %d not judgeable, %d without a witness" %
            (n["confirmed"], n["refuted"], n["unjudged"], n["no_witness"]))
        out("  random/boundary inputs judged: %d (skipped: %d: math-model overflow, timeout or driver error)" %
            (sm["inputs_judged"], sm["inputs_skipped"]))
        if sm["rewrite_pairs_differing"]:
            out("  rewrites that changed behaviour (generator note, not a failure): %d" % sm["rewrite_pairs_differing"])
        if sm["checked_mismatch"]:
            out("  FUZZER BUG: the checked copy disagreed with the plain one on %d runs" % sm["checked_mismatch"])
        if sm["compile_failed"]:
            out("  FUZZER BUG: pairs that do not compile: %s" % " ".join(sm["compile_failed_ids"][:20]))
        for e, k in sorted(sm["errors"].items(), key=lambda kv: -kv[1]):
            out("  ERROR x%d: %s" % (k, e))
        if not self.findings():
            out("  no false EQ, no false NEQ")
        for t, ids in sorted(sm["findings"].items()):
            out("  %s: %d (%s)" % (t, len(ids), " ".join(ids[:12]) + (" ..." if len(ids) > 12 else "")))
        for r in self.findings()[:20]:
            self.describe(r, out)
        return sm

    def describe(self, r, out=print):
        f = r.finding
        out("")
        out("%s %s [--arith %s]: %s" % (FINDINGS[f["type"]], r.pair.pid, r.mode, r.pair.desc))
        out("  reproduce: tests/soundness/fuzz.py --seeds %s --features %s --modes %s --keep" %
            (r.pair.seed, ",".join(r.pair.features), r.mode))
        if f["type"] == "false_eq":
            out("  pasda-jvm: EQ; the JVM differs on input %s" % json.dumps(f["input"], separators=(",", ":")))
            out("    " + "; ".join(f["explain"]))
        else:
            out("  pasda-jvm: NEQ; partition %s's witness %s" % (f["partition"], ", ".join(
                "%s=%s" % (w["name"], w["literal"]) for w in f.get("witness") or [])))
            out("    path condition: %s" % (f.get("path_condition") or "")[:300])
            if f.get("open"):
                out("    the witness left open: %s (completed several ways)" % ", ".join(f["open"]))
            out("    the JVM gives the same on both: %s" % json.dumps(f["old"], separators=(",", ":"))[:300])
            for rp in f.get("pasda_replays") or []:
                out("    (pasda-jvm's own replay, for comparison: %s)" % json.dumps(rp, separators=(",", ":"))[:200])
        m = getattr(r, "minimised", None)
        if m is not None:
            from .ast import render
            out("  minimised (size %d): old / new" % size(m))
            for line in render(m.old).splitlines():
                out("    | " + line)
            out("    ---- new")
            for line in render(m.new).splitlines():
                out("    | " + line)
