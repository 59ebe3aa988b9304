"""The second version of a pair: one random mutation (an operator, a constant, a condition, a
swapped statement, a changed field update, a changed printed value) or semantics-preserving
rewrites (commuting and reassociating pure int operands, extracting a helper method, inverting
an if/else, renaming locals, a for loop as a while loop, De Morgan, ...)."""
from .ast import BOOL, INT, STR, Method, N

PURE_LIBS = {"Math.abs", "Math.max", "Math.min", "Integer.compare", "Integer.bitCount", "Integer.reverse",
             "Integer.highestOneBit", "Character.isDigit", "Integer.valueOf", "String.valueOf"}
COMMUTATIVE = ("+", "*", "&", "|", "^")


def live_methods(prog):
    """The target and the helpers it calls (transitively): where a change can show."""
    seen, todo = set(), [prog.target]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        todo += [x.v for x in prog.method(name).body.walk() if x.k == "call"]
    return seen


def slots(prog, live_only=False):
    """Every node of every method body: (parent kids list, index, node, method)."""
    out = []
    live = live_methods(prog) if live_only else None

    def rec(node, m):
        for i, c in enumerate(node.kids):
            if c is not None:
                out.append((node.kids, i, c, m))
                rec(c, m)
    for m in prog.methods:
        if live is None or m.name in live:
            rec(m.body, m)
    return out


def pure(e):
    """No side effect and no exception: safe to evaluate in another order or twice."""
    if e.k in ("lit", "var", "fld", "sfld", "neg", "rel", "refeq", "and", "or", "not", "cond"):
        return all(pure(c) for c in e.kids)
    if e.k == "bin":
        return e.v not in ("/", "%") and all(pure(c) for c in e.kids)
    if e.k == "lib":
        return e.v in PURE_LIBS and all(pure(c) for c in e.kids)
    return False


def is_expr(n):
    return n.t is not None and n.k not in ("decl", "assign", "fset", "sset", "block")


# --------------------------------------------------------------------------- mutations
def mutate(prog, rng):
    """Apply one mutation in place; returns its description or None if none applies."""
    nodes = slots(prog, live_only=True)
    kinds = ["operator", "constant", "condition", "swap", "field_update", "print", "delete", "variable"]
    rng.shuffle(kinds)
    for kind in kinds:
        desc = MUTATIONS[kind](prog, nodes, rng)
        if desc:
            return "mutation " + kind + ": " + desc
    return None


def m_operator(prog, nodes, rng):
    cands = [s for s in nodes if s[2].k in ("bin", "rel", "and", "or")]
    if not cands:
        return None
    lst, i, n, _ = rng.choice(cands)
    if n.k == "bin":
        new = rng.choice([o for o in ("+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>", ">>>") if o != n.v])
    elif n.k == "rel":
        new = rng.choice([o for o in ("<", "<=", ">", ">=", "==", "!=") if o != n.v])
    else:
        lst[i] = N("or" if n.k == "and" else "and", n.t, n.kids, n.v)
        return "%s -> %s" % (n.k, lst[i].k)
    old = n.v
    n.v = new
    return "%s -> %s" % (old, new)


def m_constant(prog, nodes, rng):
    cands = [s for s in nodes if s[2].k == "lit" and s[2].t in (INT, BOOL, STR)]
    if not cands:
        return None
    _, _, n, _ = rng.choice(cands)
    old = n.v
    if n.t == INT:
        n.v = rng.choice([old + 1, old - 1, 0 if old else 1, -old if old else 2])
        n.v = max(-2**31, min(2**31 - 1, n.v))
    elif n.t == BOOL:
        n.v = not old
    elif old is not None:
        n.v = old + "x" if rng.random() < 0.5 or not old else old[1:]
    if n.v == old:
        return None
    return "%r -> %r" % (old, n.v)


def m_condition(prog, nodes, rng):
    cands = [s for s in nodes if s[2].k in ("if", "cond")]
    if not cands:
        return None
    _, _, n, _ = rng.choice(cands)
    c = n.kids[0]
    if c.k == "rel" and rng.random() < 0.5:
        flip = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=", "!=": "=="}
        c.v = flip[c.v]
        return "condition operator -> " + c.v
    n.kids[0] = N("not", BOOL, [c])
    return "condition negated"


def m_swap(prog, nodes, rng):
    blocks = [s[2] for s in nodes if s[2].k == "block" and len(s[2].kids) >= 2]
    live = live_methods(prog)
    blocks += [m.body for m in prog.methods if len(m.body.kids) >= 2 and m.name in live]
    rng.shuffle(blocks)
    for b in blocks:
        idx = list(range(len(b.kids) - 1))
        rng.shuffle(idx)
        for j in idx:
            a, c = b.kids[j], b.kids[j + 1]
            if c.k in ("ret", "throw") or a.k in ("ret", "throw"):
                continue
            if a.k == "decl" and any(x.k in ("var", "assign") and x.v == a.v for x in c.walk()):
                continue
            if a.to_json() == c.to_json():
                continue
            b.kids[j], b.kids[j + 1] = c, a
            return "statements %d and %d swapped" % (j, j + 1)
    return None


def m_field_update(prog, nodes, rng):
    cands = [s for s in nodes if s[2].k in ("fset", "sset", "nset")]
    if not cands:
        return None
    _, _, n, _ = rng.choice(cands)
    val = n.kids[-1]
    same_type = [f for f in prog.fields if f.t == n.t and f.static == (n.k == "sset") and not f.final and f.name != n.v]
    if n.k in ("fset", "sset") and same_type and rng.random() < 0.4:
        old = n.v
        n.v = rng.choice(same_type).name
        return "field %s -> %s" % (old, n.v)
    if val.t == INT:
        n.kids[-1] = N("bin", INT, [val, N("lit", INT, v=rng.choice((1, -1, 2)))], "+")
    elif val.t == BOOL:
        n.kids[-1] = N("not", BOOL, [val])
    elif val.t == STR:
        n.kids[-1] = N("lit", STR, v="z")
    else:
        n.kids[-1] = N("lit", val.t, v=None)
    return "value stored in %s changed" % n.v


def m_print(prog, nodes, rng):
    cands = [s for s in nodes if s[2].k == "print"]
    if not cands:
        return None
    _, _, n, _ = rng.choice(cands)
    e = n.kids[0]
    if e.t == INT:
        n.kids[0] = N("bin", INT, [e, N("lit", INT, v=1)], "+")
    elif e.t == BOOL:
        n.kids[0] = N("not", BOOL, [e])
    else:
        n.kids[0] = N("lit", STR, v="changed")
    return "printed value changed"


def m_delete(prog, nodes, rng):
    cands = [s for s in nodes if s[2].k in ("assign", "fset", "sset", "nset", "aset", "print", "expr")]
    if not cands:
        return None
    lst, i, n, _ = rng.choice(cands)
    del lst[i]
    return "statement %s deleted" % n.k


def m_variable(prog, nodes, rng):
    """An operand read from another variable or field of the same type."""
    cands = [sl for sl in nodes if sl[2].k in ("var", "fld", "sfld")]
    rng.shuffle(cands)
    for lst, i, n, m in cands:
        alts = [N("var", n.t, v=p) for p, t in m.params if t == n.t]
        alts += [N("fld" if not f.static else "sfld", n.t, v=f.name) for f in prog.fields
                 if f.t == n.t and (f.static or not m.static)]
        alts = [a for a in alts if (a.k, a.v) != (n.k, n.v)]
        if alts:
            lst[i] = rng.choice(alts)
            return "%s read instead of %s" % (lst[i].v, n.v)
    return None


MUTATIONS = {"variable": m_variable, "operator": m_operator, "constant": m_constant, "condition": m_condition, "swap": m_swap,
             "field_update": m_field_update, "print": m_print, "delete": m_delete}


# --------------------------------------------------------------------------- rewrites
def rewrite(prog, rng):
    """Apply one semantics-preserving rewrite in place; returns its description or None."""
    kinds = list(REWRITES)
    rng.shuffle(kinds)
    for kind in kinds:
        desc = REWRITES[kind](prog, rng)
        if desc:
            return "rewrite " + kind + ": " + desc
    return None


def r_commute(prog, rng):
    cands = [s for s in slots(prog) if s[2].k == "bin" and s[2].v in COMMUTATIVE and all(pure(c) for c in s[2].kids)]
    cands += [s for s in slots(prog) if s[2].k in ("and", "or") and all(pure(c) for c in s[2].kids)]
    cands += [s for s in slots(prog) if s[2].k == "rel" and s[2].v in ("==", "!=")]
    if not cands:
        return None
    _, _, n, _ = rng.choice(cands)
    n.kids = [n.kids[1], n.kids[0]]
    return "operands of %s swapped" % (n.v or n.k)


def r_reassociate(prog, rng):
    cands = [s for s in slots(prog) if s[2].k == "bin" and s[2].v in COMMUTATIVE and s[2].kids[0].k == "bin"
             and s[2].kids[0].v == s[2].v]
    if not cands:
        return None
    lst, i, n, _ = rng.choice(cands)
    (a, b), c = n.kids[0].kids, n.kids[1]
    lst[i] = N("bin", INT, [a, N("bin", INT, [b, c], n.v)], n.v)
    return "(a %s b) %s c -> a %s (b %s c)" % ((n.v,) * 4)


def r_extract(prog, rng):
    target = prog.method(prog.target)
    cands = [s for s in slots(prog) if s[3] is target and s[2].t == INT and is_expr(s[2])
             and s[2].k not in ("lit", "var", "decl", "assign") and sum(1 for _ in s[2].walk()) >= 3]
    if not cands:
        return None
    lst, i, n, m = rng.choice(cands)
    free = []
    for x in n.walk():
        if x.k == "var" and (x.v, x.t) not in free:
            free.append((x.v, x.t))
    uses_this = any(x.k == "fld" for x in n.walk()) or any(
        x.k == "call" and not prog.method(x.v).static for x in n.walk())
    if uses_this and m.static:
        return None
    name = "x%d" % (len(prog.methods) + 1)
    while any(mm.name == name for mm in prog.methods):
        name += "x"
    ren = {v: "e_" + v for v, _ in free}
    body = _rename(n, ren)
    helper = Method(name, not uses_this, INT, [(ren[v], t) for v, t in free], N("block", kids=[N("ret", kids=[body])]))
    prog.methods.insert(0, helper)
    lst[i] = N("call", INT, [N("var", t, v=v) for v, t in free], name)
    return "expression extracted into %s" % name


def _rename(n, ren):
    import copy
    c = copy.deepcopy(n)
    for x in c.walk():
        if x.k in ("var", "decl", "assign", "for", "while") and x.v in ren:
            x.v = ren[x.v]
    return c


def r_invert_if(prog, rng):
    cands = [s for s in slots(prog) if s[2].k == "if"]
    if not cands:
        return None
    lst, i, n, _ = rng.choice(cands)
    els = n.kids[2] if n.kids[2] is not None else N("block", kids=[])
    lst[i] = N("if", None, [N("not", BOOL, [n.kids[0]]), els, n.kids[1]])
    return "if/else inverted"


def r_rename(prog, rng):
    m = prog.method(prog.target)
    names = sorted({x.v for x in m.body.walk() if x.k in ("decl", "for", "while")})
    if not names:
        return None
    ren = {v: "r" + v for v in names}
    m.body = _rename(m.body, ren)
    return "locals renamed"


def r_loop(prog, rng):
    cands = [s for s in slots(prog) if s[2].k == "for" and not (s[2].kids[1].kids and s[2].kids[1].kids[-1].k in ("ret", "throw"))]
    if not cands:
        return None
    _, _, n, _ = rng.choice(cands)
    n.k = "while"
    return "for loop as while loop"


def r_demorgan(prog, rng):
    cands = [s for s in slots(prog) if s[2].k in ("and", "or")]
    if not cands:
        return None
    lst, i, n, _ = rng.choice(cands)
    other = "or" if n.k == "and" else "and"
    lst[i] = N("not", BOOL, [N(other, BOOL, [N("not", BOOL, [c]) for c in n.kids])])
    return "De Morgan"


def r_sub_neg(prog, rng):
    cands = [s for s in slots(prog) if s[2].k == "bin" and s[2].v == "-" and s[2].kids[1].k == "lit"
             and s[2].kids[1].v != -2**31]
    if not cands:
        return None
    _, _, n, _ = rng.choice(cands)
    n.v = "+"
    n.kids[1] = N("lit", INT, v=-n.kids[1].v)
    return "a - c -> a + (-c)"


def r_double(prog, rng):
    cands = [s for s in slots(prog) if s[2].k == "bin" and s[2].v == "*" and s[2].kids[1].k == "lit"
             and s[2].kids[1].v == 2 and pure(s[2].kids[0])]
    cands += [s for s in slots(prog) if s[2].t == INT and is_expr(s[2]) and s[2].k in ("var", "fld") and s[0] is not None]
    if not cands:
        return None
    lst, i, n, _ = rng.choice(cands)
    if n.k == "bin":
        lst[i] = N("bin", INT, [n.kids[0], n.kids[0]], "+")
        return "x * 2 -> x + x"
    lst[i] = N("bin", INT, [N("bin", INT, [n, N("lit", INT, v=3)], "+"), N("lit", INT, v=3)], "-")
    return "x -> (x + 3) - 3"


REWRITES = {"commute": r_commute, "reassociate": r_reassociate, "extract": r_extract, "invert_if": r_invert_if,
            "rename": r_rename, "loop": r_loop, "demorgan": r_demorgan, "sub_neg": r_sub_neg, "double": r_double}


def derive(prog, rng, kind):
    """The new version of `prog` and a description: kind is 'mutation' or 'rewrite'."""
    new = prog.clone()
    descs = []
    if kind == "mutation":
        d = mutate(new, rng)
        if d:
            descs.append(d)
        if rng.random() < 0.3:
            d = rewrite(new, rng)
            if d:
                descs.append(d)
    else:
        for _ in range(rng.randint(1, 3)):
            d = rewrite(new, rng)
            if d:
                descs.append(d)
    return new, "; ".join(descs) or "unchanged"
