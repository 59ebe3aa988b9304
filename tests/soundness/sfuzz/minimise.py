"""Minimisation of a pair that produces a false verdict: greedy reduction rounds over both
versions (delete a statement, inline an if, drop a loop, simplify an expression, drop unused
helpers and fields); every round's candidates are judged in one batch, and the smallest one that
still yields the same kind of finding in the same model wins."""
import copy
import time

from .ast import BOOL, INT, N, STR
from .variants import slots

STATEMENTS = ("decl", "assign", "fset", "sset", "nset", "aset", "if", "for", "while", "print", "expr", "throw", "ret")


def size(pair):
    return sum(sum(1 for _ in m.body.walk()) for prog in (pair.old, pair.new) for m in prog.methods) + \
        len(pair.old.fields) + len(pair.old.methods)


def _edit(prog, k, fn):
    """Apply fn to the k-th slot of prog (same traversal order in every copy); False if none."""
    s = slots(prog)
    if k >= len(s):
        return False
    return fn(*s[k])


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


def candidates(pair, limit):
    """Reduced copies of the pair: each applies one reduction to both versions where the node is
    the same in both, or to one version only."""
    out = []
    so, sn = slots(pair.old), slots(pair.new)
    same = {}
    for k, (_, _, n, m) in enumerate(so):
        same[k] = k < len(sn) and sn[k][2] == n and sn[k][3].name == m.name
    for k, (_, _, node, _) in enumerate(so):
        for desc, fn in _reductions(node):
            for which in (("old", "new") if same[k] else ("old",)):
                out.append((k, which, desc, fn))
    for k, (_, _, node, _) in enumerate(sn):
        if not same.get(k):
            for desc, fn in _reductions(node):
                out.append((k, ("new",), desc, fn))
    result = []
    for k, which, desc, fn in out:
        c = copy.deepcopy(pair)
        ok = all(_edit(getattr(c, w), k, fn) for w in which)
        if ok:
            c.desc = desc
            result.append(c)
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
    for name in [m.name for m in pair.old.methods if m.name != pair.old.target and m.name not in used]:
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
    unused = [f.name for f in pair.old.fields if f.name not in refs]
    if unused:
        c = copy.deepcopy(pair)
        for prog in (c.old, c.new):
            prog.fields = [f for f in prog.fields if f.name not in unused or f.init is not None and f.static and
                           any(x.k == "call" for x in f.init.walk())]
        out.append(c)
    if pair.old.uses_node and not any(x.k in ("newnode", "nget", "nset") for prog in (pair.old, pair.new)
                                      for m in prog.methods for x in m.body.walk()) and \
            all(t != "Node" for prog in (pair.old, pair.new) for m in prog.methods for _, t in m.params) and \
            all(f.t != "Node" for f in pair.old.fields):
        c = copy.deepcopy(pair)
        c.old.uses_node = c.new.uses_node = False
        out.append(c)
    return out


def minimise(pair, mode, ftype, evaluate_batch, deadline, per_round=36, log=print):
    """The smallest pair found that keeps a finding of type `ftype` under `mode`.

    evaluate_batch(pairs) -> list of Result (one per pair, in `mode`)."""
    from .pipeline import Pair
    best = pair
    rounds = 0
    while time.time() < deadline:
        rounds += 1
        cands = candidates(best, per_round)
        if not cands:
            break
        batch = []
        for i, c in enumerate(cands):
            p = Pair("%sr%dc%d" % (pair.pid, rounds, i), c.old, c.new, c.desc, (mode,), pair.seed, pair.features)
            p.extra_inputs = getattr(best, "extra_inputs", [])
            batch.append(p)
        results = evaluate_batch(batch)
        keep = [r for r in results if r.finding and r.finding["type"] == ftype]
        if not keep:
            break
        win = min(keep, key=lambda r: size(r.pair))
        if size(win.pair) >= size(best):
            break
        best = win.pair
        best.extra_inputs = [win.finding["input"]] + [x for x in getattr(win.pair, "extra_inputs", [])][:3]
        best.last_result = win
        log("  minimise round %d: size %d (%s)" % (rounds, size(best), win.pair.desc))
    return best
