"""Minimisation of a pair that produces a false verdict: greedy reduction rounds over both
versions (delete a statement, inline an if, drop a loop, simplify an expression, drop unused
helpers and fields); every round's candidates are judged in one batch, and the smallest one that
still yields the same kind of finding in the same model wins."""
import copy
import time

from .ast import BOOL, INT, N, STR
from .variants import slots

STATEMENTS = ("decl", "assign", "fset", "sset", "nset", "aset", "if", "for", "while", "print", "expr", "throw", "ret",
              "try", "switch")


def size(pair):
    return sum(sum(1 for _ in m.body.walk()) for prog in (pair.old, pair.new) for m in prog.methods) + \
        len(pair.old.fields) + len(pair.old.methods)


def _edit(prog, k, fn, node):
    """Apply fn to the k-th slot of prog (same traversal order in every copy) if it still holds
    `node`; False otherwise."""
    s = slots(prog)
    if k >= len(s) or s[k][2] != node:
        return False
    lst, i, _, _ = s[k]
    return fn(lst, i)


def _reductions(node):
    """Replacements for one node: (description, function(list, index) -> bool)."""
    out = []
    if node.k in STATEMENTS:
        out.append(("delete " + node.k, lambda lst, i: lst.pop(i) is not None))
    if node.k == "if":
        def inline(branch):
            def f(lst, i):
                b = lst[i].kids[branch]
                if b is None:
                    return False
                lst[i:i + 1] = b.kids
                return True
            return f
        out.append(("inline then", inline(1)))
        out.append(("inline else", inline(2)))
    if node.k == "try":
        def unwrap(lst, i):
            lst[i:i + 1] = lst[i].kids[0].kids
            return True
        out.append(("try body only", unwrap))
    if node.k in ("for", "while"):
        def once(lst, i):
            loop = lst[i]
            lst[i:i + 1] = [N("decl", INT, [N("lit", INT, v=0)], loop.v)] + loop.kids[1].kids
            return True
        out.append(("loop body once", once))
    if node.t in (INT, BOOL, STR) and node.k not in STATEMENTS and node.k != "lit":
        lit = {INT: 0, BOOL: False, STR: ""}[node.t]
        out.append(("literal", lambda lst, i: lst.__setitem__(i, N("lit", lst[i].t, v=lit)) is None))
        for j, c in enumerate(node.kids):
            if c is not None and c.t == node.t:
                out.append(("operand %d" % j, lambda lst, i, j=j: lst.__setitem__(i, lst[i].kids[j]) is None))
    return out


def operations(pair):
    """Single reductions: (targets, description, edit), targets being (version, slot, node).
    A reduction applies to both versions where the new version holds an equal node in the same
    method (the nearest one: a mutation shifts the slot numbers after it), else to one only."""
    out = []
    so, sn = slots(pair.old), slots(pair.new)
    matched = set()
    for k, (_, _, node, m) in enumerate(so):
        same = [j for j, (_, _, n2, m2) in enumerate(sn) if m2.name == m.name and n2 == node]
        targets = [("old", k, copy.deepcopy(node))]
        if same:
            j = min(same, key=lambda j: abs(j - k))
            matched.add(j)
            targets.append(("new", j, copy.deepcopy(node)))
        for desc, fn in _reductions(node):
            out.append((targets, desc, fn))
    for j, (_, _, node, _) in enumerate(sn):
        if j not in matched:
            for desc, fn in _reductions(node):
                out.append(([("new", j, copy.deepcopy(node))], desc, fn))
    return out


def apply_ops(pair, ops):
    """A copy of pair with the operations applied, deepest slot first in each version (so that
    the slot numbers of the others stay valid); None if a single operation does not apply."""
    c = copy.deepcopy(pair)
    edits = sorted(((v, k, node, fn) for targets, _, fn in ops for v, k, node in targets), key=lambda e: -e[1])
    applied = sum(1 for v, k, node, fn in edits if _edit(getattr(c, v), k, fn, node))
    if applied < len(edits) and len(ops) == 1:
        return None
    c.desc = "; ".join(o[1] for o in ops[:3]) + (" ..." if len(ops) > 3 else "")
    c.ops = ops
    return c


def candidates(pair, limit):
    result = [c for c in (apply_ops(pair, [op]) for op in operations(pair)) if c is not None]
    result += _drop_members(pair)
    result.sort(key=size)
    return result[:limit]


def _drop_members(pair):
    out = []
    used = set()
    for prog in (pair.old, pair.new):
        for m in prog.methods:
            for x in m.body.walk():
                if x.k == "call":
                    used.add(x.v)
    names = {m.name for prog in (pair.old, pair.new) for m in prog.methods}
    for name in sorted(n for n in names if n != pair.old.target and n not in used):
        c = copy.deepcopy(pair)
        for prog in (c.old, c.new):
            prog.methods = [m for m in prog.methods if m.name != name]
        out.append(c)
    refs = set()
    for prog in (pair.old, pair.new):
        for m in prog.methods:
            for x in m.body.walk():
                if x.k in ("fld", "sfld", "fset", "sset"):
                    refs.add(x.v)
    for name in [f.name for f in pair.old.fields if f.name not in refs]:
        c = copy.deepcopy(pair)
        for prog in (c.old, c.new):
            prog.fields = [f for f in prog.fields if f.name != name]
        out.append(c)
    if pair.old.uses_node and not any(x.k in ("newnode", "nget", "nset") for prog in (pair.old, pair.new)
                                      for m in prog.methods for x in m.body.walk()) and \
            all(t != "Node" for prog in (pair.old, pair.new) for m in prog.methods for _, t in m.params) and \
            all(f.t != "Node" for f in pair.old.fields):
        c = copy.deepcopy(pair)
        c.old.uses_node = c.new.uses_node = False
        out.append(c)
    return out


def minimise(pair, mode, ftype, evaluate_batch, deadline, per_round=30, log=print):
    """The smallest pair found that keeps a finding of type `ftype` under `mode`.

    evaluate_batch(pairs) -> list of Result (one per pair, in `mode`). Each round judges the
    single reductions in one batch, then the combination of all that kept the finding (and of
    half of them), and moves to the smallest pair that still fails."""
    from .pipeline import Pair
    best = pair
    rounds = 0

    def judge(cands, tag):
        batch = []
        for i, c in enumerate(cands):
            p = Pair("%sr%d%s%d" % (pair.pid, rounds, tag, i), c.old, c.new, c.desc, (mode,), pair.seed, pair.features)
            p.extra_inputs = getattr(best, "extra_inputs", [])
            p.ops = getattr(c, "ops", None)
            batch.append(p)
        return [r for r in evaluate_batch(batch) if r.finding and r.finding["type"] == ftype]

    while time.time() < deadline:
        rounds += 1
        keep = judge(candidates(best, per_round), "c")
        if not keep:
            break
        good_ops = [r.pair.ops[0] for r in keep if getattr(r.pair, "ops", None)]
        if len(good_ops) >= 2 and time.time() < deadline:
            combos = [apply_ops(best, good_ops), apply_ops(best, good_ops[:len(good_ops) // 2])]
            keep += judge([c for c in combos if c is not None], "m")
        win = min(keep, key=lambda r: size(r.pair))
        if size(win.pair) >= size(best):
            break
        best = win.pair
        best.extra_inputs = [win.finding["input"]] + list(getattr(win.pair, "extra_inputs", []))[:3]
        best.last_result = win
        log("  minimise round %d: size %d (%s)" % (rounds, size(best), win.pair.desc))
    return best
