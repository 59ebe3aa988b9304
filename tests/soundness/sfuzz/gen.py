"""Random generation of one class version: fields (instance, static, arrays behind fields),
helper methods, and the analysed method `target` with loops, calls, strings, boxing and a few
JDK calls. Deterministic for a seed; every construct sits behind a feature switch."""
import random

from .ast import BOOL, BOX, IARR, INT, LIB, NODE, STR, Field, Method, N, Program

# Every feature the generator knows. ALL turns everything on; the CI set is in features.py.
FEATURES = (
    "instance",        # instance target method, instance fields, instance helpers with effects
    "static_fields",   # non-final static int/boolean fields read and written
    "static_final",    # static final int/String constants
    "static_objects",  # static arrays created by <clinit> (final and not)
    "array_fields",    # int[] instance fields (arrays behind fields)
    "array_params",    # int[] parameters, local arrays
    "strings",         # String parameters/fields and String methods
    "string_concat",   # `s + x` (invokedynamic makeConcatWithConstants)
    "boxing",          # Integer parameters/fields, valueOf/intValue, == and equals on boxes
    "loops",           # bounded for loops
    "calls",           # helper methods of the same class
    "jdk_math",        # Math.abs/min/max, Integer.compare (modelled exactly)
    "jdk_unknown",     # Integer.bitCount/reverse/highestOneBit, Character.isDigit (not modelled)
    "jdk_effects",     # Arrays.fill/sort/copyOf (library calls that write or allocate)
    "print",           # System.out.println
    "nodes",           # a nested class Node {Node next; int v;} as parameter/field
    "exceptions",      # explicit throw statements, division, early returns
    "try_catch",       # try { } catch (some RuntimeException) { }
    "switch",          # switch on an int with and without fall-through (tableswitch/lookupswitch)
    "casts",           # (byte), (short), (char) conversions of ints
)

INT_LITS = (0, 1, 2, 3, -1, 5, 7, 10, 100, 127, 128, -128, 1000, -7, 2147483647, -2147483648, 65535)
STR_LITS = ("", "a", "ab", "b", "10", "-3", "abc", " a")
INT_OPS = ("+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>", ">>>")
REL_OPS = ("<", "<=", ">", ">=", "==", "!=")


class Gen:
    def __init__(self, seed, features, size=8, math_safe=False):
        self.rng = random.Random(seed)
        self.seed = seed
        self.f = set(features)
        self.size = size
        self.math_safe = math_safe
        self.fields = []
        self.helpers = []     # Method objects generated so far (callable from later code)
        self.scope = []       # list of dicts name -> type
        self.readonly = set()  # loop variables
        self.counter = 0
        self.loop_arrays = {}  # loop variable -> JSON of the array whose length bounds it
        self.in_static = True
        self.cur_ret = INT

    # ----------------------------------------------------------------- names, scope
    def fresh(self, prefix):
        self.counter += 1
        return "%s%d" % (prefix, self.counter)

    def on(self, feat):
        return feat in self.f

    def chance(self, p):
        return self.rng.random() < p

    def pick(self, xs):
        return self.rng.choice(list(xs))

    def vars_of(self, t, assignable=False):
        out = []
        for sc in self.scope:
            for n, vt in sc.items():
                if vt == t and not (assignable and n in self.readonly):
                    out.append(n)
        return out

    def fields_of(self, t, static, assignable=False):
        return [f for f in self.fields if f.t == t and f.static == static
                and not (assignable and (f.final or f.name in self.readonly)) and (static or not self.in_static)]

    def ref_types(self):
        ts = []
        if self.on("strings"):
            ts.append(STR)
        if self.on("boxing"):
            ts.append(BOX)
        if self.on("array_params") or self.on("array_fields") or self.on("static_objects"):
            ts.append(IARR)
        if self.on("nodes"):
            ts.append(NODE)
        return ts

    # ----------------------------------------------------------------- expressions
    def leaves(self, t):
        """Expressions of type t that read a variable or a field."""
        out = [N("var", t, v=v) for v in self.vars_of(t)]
        out += [N("fld", t, v=f.name) for f in self.fields_of(t, False)]
        out += [N("sfld", t, v=f.name) for f in self.fields_of(t, True)]
        return out

    def lit(self, t):
        if t == INT:
            return N("lit", INT, v=self.pick(INT_LITS) if self.chance(0.5) else self.rng.randint(-4, 12))
        if t == BOOL:
            return N("lit", BOOL, v=self.chance(0.5))
        if t == STR:
            return N("lit", STR, v=self.pick(STR_LITS))
        return N("lit", t, v=None)  # null

    def libs(self, t):
        return [k for k, (_, rt, _, feat) in LIB.items() if rt == t and self.on(feat)]

    def expr(self, t, d=2):
        if t == INT:
            return self.int_expr(d)
        if t == BOOL:
            return self.bool_expr(d)
        return self.ref_expr(t, d)

    def int_expr(self, d):
        leaves = self.leaves(INT)
        if d <= 0 or self.chance(0.25):
            if leaves and self.chance(0.75):
                return self.pick(leaves)
            return self.lit(INT)
        r = self.rng.random()
        if r < 0.35:
            ops = INT_OPS
            if self.math_safe:
                ops = ("+", "-", "+", "-", "*", "/", "%", "&", "|", "^")
            op = self.pick(ops)
            b = self.int_expr(d - 1)
            if op in ("<<", ">>", ">>>") and self.chance(0.6):
                b = N("lit", INT, v=self.rng.randint(0, 33))
            if op == "*" and self.math_safe and self.chance(0.7):
                b = N("lit", INT, v=self.rng.randint(-3, 5))
            return N("bin", INT, [self.int_expr(d - 1), b], op)
        if r < 0.40:
            return N("neg", INT, [self.int_expr(d - 1)])
        if r < 0.50:
            return N("cond", INT, [self.bool_expr(d - 1), self.int_expr(d - 1), self.int_expr(d - 1)])
        if r < 0.60 and self.arrays_available():
            arr = self.ref_expr(IARR, d - 1, non_null_bias=True)
            return N("aget", INT, [arr, self.index_expr(arr)])
        if r < 0.65 and self.arrays_available():
            return N("alen", INT, [self.ref_expr(IARR, d - 1, non_null_bias=True)])
        if r < 0.75 and self.callable(INT):
            return self.call_expr(INT, d)
        if r < 0.88 and self.libs(INT):
            return self.lib_expr(self.pick(self.libs(INT)), d)
        if r < 0.94 and self.on("nodes") and self.leaves(NODE):
            return N("nget", INT, [self.ref_expr(NODE, d - 1, non_null_bias=True)], "v")
        if r < 0.955 and self.on("boxing") and self.leaves(BOX):
            return N("lib", INT, [self.pick(self.leaves(BOX))], "b.intValue")
        if r < 0.97 and self.on("strings") and self.leaves(STR):
            return N("lib", INT, [self.pick(self.leaves(STR))], "s.length")
        if r < 0.98 and self.on("casts"):
            return N("cast", INT, [self.int_expr(d - 1)], self.pick(("byte", "short", "char")))
        if leaves:
            return self.pick(leaves)
        return self.lit(INT)

    def index_expr(self, arr):
        """Mostly in bounds (an index out of bounds on every path hides everything after it)."""
        if arr.k in ("newarr", "arrlit"):
            n = arr.kids[0].v if arr.k == "newarr" else len(arr.kids)
            if n and self.chance(0.9):
                return N("lit", INT, v=self.rng.randint(0, n - 1))
        over = [v for v, a in self.loop_arrays.items() if a == arr.to_json()]
        r = self.rng.random()
        if over and r < 0.7:
            return N("var", INT, v=self.pick(over))
        if r < 0.75:
            return N("lit", INT, v=self.pick((0, 0, 0, 1, 1, 2)))
        if r < 0.9:
            return N("bin", INT, [self.int_expr(0), N("lit", INT, v=1)], "&")
        return self.int_expr(1)

    def arrays_available(self):
        return bool(self.leaves(IARR))

    def bool_expr(self, d):
        leaves = self.leaves(BOOL)
        if d <= 0 or self.chance(0.15):
            if leaves and self.chance(0.6):
                return self.pick(leaves)
            return N("rel", BOOL, [self.int_expr(0), self.int_expr(0)], self.pick(REL_OPS))
        r = self.rng.random()
        if r < 0.45:
            return N("rel", BOOL, [self.int_expr(d - 1), self.int_expr(d - 1)], self.pick(REL_OPS))
        if r < 0.55:
            return N(self.pick(("and", "or")), BOOL, [self.bool_expr(d - 1), self.bool_expr(d - 1)])
        if r < 0.60:
            return N("not", BOOL, [self.bool_expr(d - 1)])
        if r < 0.75 and self.libs(BOOL):
            return self.lib_expr(self.pick(self.libs(BOOL)), d)
        if r < 0.85:
            rts = [t for t in self.ref_types() if self.leaves(t)]
            if rts:
                t = self.pick(rts)
                a = self.ref_expr(t, d - 1)
                b = self.lit(t) if self.chance(0.5) or t == NODE else self.ref_expr(t, d - 1)
                return N("refeq", BOOL, [a, b], self.pick(("==", "!=")))
        if r < 0.9 and self.callable(BOOL):
            return self.call_expr(BOOL, d)
        return N("rel", BOOL, [self.int_expr(d - 1), self.int_expr(d - 1)], self.pick(REL_OPS))

    def ref_expr(self, t, d, non_null_bias=False):
        leaves = self.leaves(t)
        if t == NODE:
            if leaves and (d <= 0 or self.chance(0.7)):
                return self.pick(leaves)
            if leaves and self.chance(0.7):
                return N("nget", NODE, [self.pick(leaves)], "next")
            return N("newnode", NODE)
        if d <= 0 or self.chance(0.4):
            if leaves and (self.chance(0.8) or non_null_bias):
                return self.pick(leaves)
            if t == IARR:
                return N("newarr", IARR, [N("lit", INT, v=self.rng.randint(1, 4))])
            if t == BOX:
                return N("lib", BOX, [self.int_expr(0)], "Integer.valueOf")
            if non_null_bias or self.chance(0.85):
                return self.lit(t) if t == STR else N("lit", t, v=None)
            return N("lit", t, v=None)
        r = self.rng.random()
        if t == STR:
            if r < 0.35 and self.on("string_concat"):
                other = self.int_expr(d - 1) if self.chance(0.6) else self.ref_expr(STR, d - 1)
                return N("concat", STR, [self.ref_expr(STR, d - 1), other])
            if r < 0.7 and self.libs(STR):
                return self.lib_expr(self.pick(self.libs(STR)), d)
            if r < 0.8:
                return N("cond", STR, [self.bool_expr(d - 1), self.ref_expr(STR, d - 1), self.ref_expr(STR, d - 1)])
        if t == BOX:
            if r < 0.5:
                return N("lib", BOX, [self.int_expr(d - 1)], "Integer.valueOf")
            if r < 0.65:
                return N("cond", BOX, [self.bool_expr(d - 1), self.ref_expr(BOX, d - 1), self.ref_expr(BOX, d - 1)])
        if t == IARR:
            if r < 0.3:
                return N("newarr", IARR, [N("lit", INT, v=self.rng.randint(0, 4))])
            if r < 0.45:
                return N("arrlit", IARR, [self.int_expr(0) for _ in range(self.rng.randint(1, 3))])
            if r < 0.55 and self.on("jdk_effects"):
                return N("lib", IARR, [self.ref_expr(IARR, d - 1, True), N("lit", INT, v=self.rng.randint(0, 4))],
                         "Arrays.copyOf")
        if r < 0.9 and self.callable(t):
            return self.call_expr(t, d)
        if leaves:
            return self.pick(leaves)
        return self.ref_expr(t, 0, non_null_bias)

    def lib_expr(self, key, d):
        _, rt, ats, _ = LIB[key]
        args = []
        for i, at in enumerate(ats):
            if at == STR and i > 0 and key in ("s.indexOf", "s.startsWith") and self.chance(0.7):
                args.append(self.lit(STR))
            elif key == "s.charAt" and i == 1:
                args.append(N("lit", INT, v=self.rng.randint(0, 2)) if self.chance(0.6) else self.int_expr(0))
            elif key == "s.substring" and i == 1:
                args.append(N("lit", INT, v=self.rng.randint(0, 3)))
            else:
                args.append(self.expr(at, d - 1) if at in (INT, BOOL) else self.ref_expr(at, d - 1, True))
        return N("lib", rt, args, key)

    def callable(self, t):
        return [h for h in self.helpers if h.ret == t and (h.static or not self.in_static)]

    def call_expr(self, t, d):
        h = self.pick(self.callable(t))
        return N("call", t, [self.expr(pt, d - 1) for _, pt in h.params], h.name)

    # ----------------------------------------------------------------- statements
    def block(self, n, depth, allow_exit):
        self.scope.append({})
        stmts = []
        for _ in range(n):
            s = self.stmt(depth)
            if s is not None:
                stmts.append(s)
        if allow_exit and self.on("exceptions") and self.chance(0.25):
            stmts.append(self.exit_stmt())
        self.scope.pop()
        return N("block", kids=stmts)

    def exit_stmt(self):
        if self.chance(0.3):
            return N("throw", v=self.pick(("IllegalStateException", "IllegalArgumentException")))
        if self.cur_ret == "void":
            return N("ret")
        return N("ret", kids=[self.expr(self.cur_ret, 2)])

    def assignable_types(self):
        return [INT, BOOL] + self.ref_types()

    def stmt(self, depth):
        """One statement, drawn by weight among the kinds that apply here."""
        kinds = [("decl", 20), ("assign", 12), ("field", 13), ("update", 8)]
        if self.arrays_available():
            kinds.append(("aset", 10))
        if self.on("nodes") and self.leaves(NODE):
            kinds.append(("nset", 6))
        if depth < 2:
            kinds.append(("if", 12))
            if self.on("loops"):
                kinds.append(("loop", 10))
        if self.on("print"):
            kinds.append(("print", 6))
        if [h for h in self.helpers if h.ret == "void" and (h.static or not self.in_static)]:
            kinds.append(("call", 6))
        if self.on("jdk_effects") and self.arrays_available():
            kinds.append(("jdk_effect", 6))
        if depth < 2 and self.on("try_catch"):
            kinds.append(("try", 6))
        if depth < 2 and self.on("switch"):
            kinds.append(("switch", 6))
        total = sum(w for _, w in kinds)
        x = self.rng.random() * total
        for kind, w in kinds:
            x -= w
            if x < 0:
                break
        made = getattr(self, "s_" + kind)(depth)
        return made if made is not None else self.s_update(depth)

    def s_decl(self, depth):
        t = self.pick([INT, INT, INT, INT, INT, BOOL] + self.ref_types())
        name = self.fresh("v")
        e = self.expr(t, 2)
        self.scope[-1][name] = t
        return N("decl", t, [e], name)

    def s_assign(self, depth):
        t = self.pick(self.assignable_types())
        vs = self.vars_of(t, assignable=True)
        return N("assign", t, [self.expr(t, 2)], self.pick(vs)) if vs else None

    def s_field(self, depth):
        t = self.pick(self.assignable_types())
        fs = self.fields_of(t, False, True) + self.fields_of(t, True, True)
        if not fs:
            return None
        f = self.pick(fs)
        return N("sset" if f.static else "fset", t, [self.expr(t, 2)], f.name)

    def s_aset(self, depth):
        arr = self.pick(self.leaves(IARR))
        return N("aset", None, [arr, self.index_expr(arr), self.int_expr(2)])

    def s_nset(self, depth):
        if self.chance(0.7):
            return N("nset", None, [self.ref_expr(NODE, 1, True), self.int_expr(2)], "v")
        return N("nset", None, [self.ref_expr(NODE, 1, True), self.ref_expr(NODE, 1)], "next")

    def s_if(self, depth):
        then = self.block(self.rng.randint(1, 3), depth + 1, allow_exit=True)
        els = None
        if self.chance(0.4):
            els = self.block(self.rng.randint(1, 2), depth + 1, allow_exit=False)
        return N("if", None, [self.bool_expr(2), then, els])

    def s_try(self, depth):
        body = self.block(self.rng.randint(1, 3), depth + 1, allow_exit=False)
        handler = self.block(self.rng.randint(0, 2), depth + 1, allow_exit=False)
        exc = self.pick(("ArithmeticException", "ArrayIndexOutOfBoundsException", "NullPointerException",
                         "RuntimeException", "IllegalStateException"))
        return N("try", None, [body, handler], exc)

    def s_switch(self, depth):
        sel = self.int_expr(1)
        if self.chance(0.6):
            sel = N("bin", INT, [sel, N("lit", INT, v=self.pick((3, 7)))], "&")
        labels = sorted(self.rng.sample((0, 1, 2, 3, 5, 100, -1), self.rng.randint(1, 3)))
        cases = [[lab, self.chance(0.8)] for lab in labels]
        if self.chance(0.6):
            cases.append([None, True])
        bodies = [self.block(self.rng.randint(0, 2), depth + 1, allow_exit=False) for _ in cases]
        return N("switch", None, [sel] + bodies, cases)

    def s_loop(self, depth):
        return self.loop(depth)

    def s_print(self, depth):
        t = self.pick([INT, BOOL] + [x for x in self.ref_types() if x in (STR, BOX)])
        return N("print", None, [self.expr(t, 1)])

    def s_call(self, depth):
        h = self.pick([h for h in self.helpers if h.ret == "void" and (h.static or not self.in_static)])
        return N("expr", None, [N("call", "void", [self.expr(pt, 1) for _, pt in h.params], h.name)])

    def s_jdk_effect(self, depth):
        arr = self.pick(self.leaves(IARR))
        if self.chance(0.6):
            return N("expr", None, [N("lib", "void", [arr, self.int_expr(1)], "Arrays.fill")])
        return N("expr", None, [N("lib", "void", [arr], "Arrays.sort")])

    def s_update(self, depth):
        vs = self.vars_of(INT, assignable=True)
        if vs:
            v = self.pick(vs)
            return N("assign", INT, [N("bin", INT, [N("var", INT, v=v), self.int_expr(1)], self.pick(("+", "-", "^")))], v)
        name = self.fresh("v")
        e = self.int_expr(2)
        self.scope[-1][name] = INT
        return N("decl", INT, [e], name)

    def loop(self, depth):
        iv = self.fresh("i")
        r = self.rng.random()
        over = None
        if r < 0.35 and self.arrays_available():
            over = self.pick(self.leaves(IARR))
            bound = N("alen", INT, [over])
        elif r < 0.6:
            bound = N("bin", INT, [self.int_expr(0), N("lit", INT, v=self.pick((3, 7)))], "&")
        elif r < 0.75 and self.on("strings") and self.vars_of(STR):
            # (a local or parameter: a helper called in the body could grow a field's string)
            bound = N("lib", INT, [N("var", STR, v=self.pick(self.vars_of(STR)))], "s.length")
        else:
            bound = N("lit", INT, v=self.rng.randint(1, 4))
        self.scope.append({iv: INT})
        self.readonly.add(iv)
        # What the bound reads stays unassigned in the body, so that the loop ends.
        frozen = {x.v for x in bound.walk() if x.k in ("var", "fld", "sfld")}
        self.readonly |= frozen
        if over is not None:
            self.loop_arrays[iv] = over.to_json()
        body = self.block(self.rng.randint(1, 3), depth + 1, allow_exit=False)
        self.scope.pop()
        self.readonly -= frozen | {iv}
        self.loop_arrays.pop(iv, None)
        return N("for", None, [bound, body], iv)

    # ----------------------------------------------------------------- members
    def gen_fields(self):
        if self.on("instance"):
            for _ in range(self.rng.randint(1, 2)):
                self.fields.append(Field(self.fresh("f"), INT))
            if self.chance(0.3):
                self.fields.append(Field(self.fresh("f"), BOOL))
            if self.on("strings") and self.chance(0.5):
                self.fields.append(Field(self.fresh("s"), STR))
            if self.on("boxing") and self.chance(0.5):
                self.fields.append(Field(self.fresh("b"), BOX))
            if self.on("array_fields") and self.chance(0.7):
                self.fields.append(Field(self.fresh("a"), IARR))
            if self.on("nodes") and self.chance(0.6):
                self.fields.append(Field(self.fresh("n"), NODE))
        if self.on("static_fields"):
            for _ in range(self.rng.randint(1, 2)):
                init = self.lit(INT) if self.chance(0.5) else None
                self.fields.append(Field(self.fresh("g"), INT, static=True, init=init))
        if self.on("static_final"):
            self.fields.append(Field(self.fresh("K"), INT, True, True, self.lit(INT)))
            if self.on("strings") and self.chance(0.5):
                self.fields.append(Field(self.fresh("S"), STR, True, True, self.lit(STR)))
        if self.on("static_objects"):
            n = self.rng.randint(1, 3)
            init = N("arrlit", IARR, [N("lit", INT, v=self.rng.randint(-2, 9)) for _ in range(n)])
            self.fields.append(Field(self.fresh("T"), IARR, True, self.chance(0.5), init))
        if self.on("array_fields") and self.on("static_fields") and self.chance(0.5):
            self.fields.append(Field(self.fresh("ga"), IARR, True, False, None))

    def gen_helper(self):
        static = not self.on("instance") or self.chance(0.5)
        self.in_static = static
        kinds = [INT, INT, BOOL]
        if not static or self.fields_of(INT, True, True):
            kinds.append("void")
        ret = self.pick(kinds)
        params = [(self.fresh("q"), self.pick([INT, INT] + self.ref_types()[:1])) for _ in range(self.rng.randint(1, 2))]
        name = self.fresh("u" if ret == "void" else "h")
        self.cur_ret = ret
        self.scope = [dict(params)]
        body = self.block(self.rng.randint(1, 3), 1, allow_exit=False)
        if ret != "void":
            self.scope.append({n: t for s in body.kids if s.k == "decl" for n, t in [(s.v, s.t)]})
            body.kids.append(N("ret", kids=[self.mixed(ret)]))
            self.scope.pop()
        self.scope = []
        m = Method(name, static, ret, params, body)
        self.helpers.append(m)
        return m

    def mixed(self, t):
        """An expression of type t over the int variables in scope (the live values)."""
        live = [N("var", INT, v=n) for sc in self.scope for n, vt in sc.items() if vt == INT]
        self.rng.shuffle(live)
        mix = self.int_expr(1)
        for v in live[:3]:
            mix = N("bin", INT, [mix, v], self.pick(("+", "-", "^", "+")))
        if t == INT:
            return mix
        if t == BOOL:
            return N("rel", BOOL, [mix, self.int_expr(0)], self.pick(REL_OPS))
        return self.expr(t, 2)

    def gen_target(self):
        static = not self.on("instance") or self.chance(0.3)
        self.in_static = static
        ptypes = [INT, INT, INT, INT, BOOL]
        if self.on("array_params"):
            ptypes += [IARR]
        for t in (STR, BOX, NODE):
            if t in self.ref_types():
                ptypes.append(t)
        params = [("p%d" % i, self.pick(ptypes)) for i in range(self.rng.randint(1, 3))]
        rets = [INT, INT, INT, INT, BOOL, "void"] + [t for t in self.ref_types() if t != NODE]
        ret = self.pick(rets)
        self.cur_ret = ret
        self.scope = [dict(params)]
        body = self.block(self.size, 0, allow_exit=False)
        self.scope.append({s.v: s.t for s in body.kids if s.k == "decl"})
        # The end of the method observes what the body computed, so that a change in the body
        # shows in the result or the state more often than not.
        mix = self.mixed(INT)
        if ret == INT:
            body.kids.append(N("ret", kids=[mix]))
        elif ret == BOOL:
            body.kids.append(N("ret", kids=[N("rel", BOOL, [mix, self.int_expr(0)], self.pick(REL_OPS))]))
        else:
            fs = self.fields_of(INT, False, True) + self.fields_of(INT, True, True)
            if fs:
                f = self.pick(fs)
                body.kids.append(N("sset" if f.static else "fset", INT, [mix], f.name))
            if ret != "void":
                body.kids.append(N("ret", kids=[self.expr(ret, 2)]))
        self.scope = []
        return Method("target", static, ret, params, body)


def generate(seed, features, size=8, math_safe=False):
    """One program of package sfz.p<seed>."""
    g = Gen(seed, features, size, math_safe)
    g.gen_fields()
    methods = []
    if g.on("calls"):
        for _ in range(g.rng.randint(1, 2)):
            methods.append(g.gen_helper())
    methods.append(g.gen_target())
    uses_node = g.on("nodes")
    return Program("sfz.p%d" % seed, g.fields, methods, uses_node)
