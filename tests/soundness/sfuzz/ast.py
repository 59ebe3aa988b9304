"""The generated programs: a small typed AST of one Java class, rendered to source (plain, or
"checked" with every int operation that can overflow routed through Ck, for the math model),
and serialised to JSON so that a fixture keeps the exact program."""
import copy
import json

INT, BOOL, STR, BOX, IARR, NODE = "int", "boolean", "String", "Integer", "int[]", "Node"
REF_TYPES = (STR, BOX, IARR, NODE)
NODE_FIELDS = (("next", NODE), ("v", INT))


class N:
    """One expression or statement: kind, type (expressions, declarations), children, payload."""
    __slots__ = ("k", "t", "kids", "v")

    def __init__(self, k, t=None, kids=(), v=None):
        self.k, self.t, self.kids, self.v = k, t, list(kids), v

    def to_json(self):
        return [self.k, self.t, self.v, [None if c is None else c.to_json() for c in self.kids]]

    @staticmethod
    def from_json(j):
        return N(j[0], j[1], [None if c is None else N.from_json(c) for c in j[3]], j[2])

    def walk(self):
        yield self
        for c in self.kids:
            if c is not None:
                yield from c.walk()

    def __eq__(self, o):
        return isinstance(o, N) and self.to_json() == o.to_json()

    def __hash__(self):
        return hash(json.dumps(self.to_json()))


class Field:
    def __init__(self, name, t, static=False, final=False, init=None):
        self.name, self.t, self.static, self.final, self.init = name, t, static, final, init

    def to_json(self):
        return {"name": self.name, "t": self.t, "static": self.static, "final": self.final,
                "init": None if self.init is None else self.init.to_json()}

    @staticmethod
    def from_json(j):
        return Field(j["name"], j["t"], j["static"], j["final"], None if j["init"] is None else N.from_json(j["init"]))


class Method:
    def __init__(self, name, static, ret, params, body):
        self.name, self.static, self.ret, self.params, self.body = name, static, ret, params, body

    def to_json(self):
        return {"name": self.name, "static": self.static, "ret": self.ret, "params": self.params,
                "body": self.body.to_json()}

    @staticmethod
    def from_json(j):
        return Method(j["name"], j["static"], j["ret"], [tuple(p) for p in j["params"]], N.from_json(j["body"]))

    def descriptor(self):
        code = {INT: "I", BOOL: "Z", STR: "Ljava/lang/String;", BOX: "Ljava/lang/Integer;", IARR: "[I"}
        return "(" + "".join(code.get(t, "?") for _, t in self.params) + ")" + ("V" if self.ret == "void" else code.get(self.ret, "?"))


class Program:
    """One version of the class `pkg.C` (with the nested class `C.Node` when used)."""

    def __init__(self, pkg, fields, methods, uses_node=False, target="target"):
        self.pkg, self.fields, self.methods, self.uses_node, self.target = pkg, fields, methods, uses_node, target

    def clone(self):
        return copy.deepcopy(self)

    def method(self, name):
        return next(m for m in self.methods if m.name == name)

    def field(self, name):
        return next((f for f in self.fields if f.name == name), None)

    def to_json(self):
        return {"pkg": self.pkg, "target": self.target, "uses_node": self.uses_node,
                "fields": [f.to_json() for f in self.fields], "methods": [m.to_json() for m in self.methods]}

    @staticmethod
    def from_json(j):
        return Program(j["pkg"], [Field.from_json(f) for f in j["fields"]],
                       [Method.from_json(m) for m in j["methods"]], j["uses_node"], j["target"])

    @property
    def class_name(self):
        return self.pkg + ".C"


# Library calls: key -> (template, result type, argument types, feature). `{0}` is an argument.
LIB = {
    "Math.abs": ("Math.abs({0})", INT, (INT,), "jdk_math"),
    "Math.max": ("Math.max({0}, {1})", INT, (INT, INT), "jdk_math"),
    "Math.min": ("Math.min({0}, {1})", INT, (INT, INT), "jdk_math"),
    "Integer.compare": ("Integer.compare({0}, {1})", INT, (INT, INT), "jdk_math"),
    "Integer.bitCount": ("Integer.bitCount({0})", INT, (INT,), "jdk_unknown"),
    "Integer.reverse": ("Integer.reverse({0})", INT, (INT,), "jdk_unknown"),
    "Integer.highestOneBit": ("Integer.highestOneBit({0})", INT, (INT,), "jdk_unknown"),
    "Character.isDigit": ("Character.isDigit((char) {0})", BOOL, (INT,), "jdk_unknown"),
    "Integer.parseInt": ("Integer.parseInt({0})", INT, (STR,), "strings"),
    "String.valueOf": ("String.valueOf({0})", STR, (INT,), "strings"),
    "s.length": ("{0}.length()", INT, (STR,), "strings"),
    "s.charAt": ("{0}.charAt({1})", INT, (STR, INT), "strings"),
    "s.equals": ("{0}.equals({1})", BOOL, (STR, STR), "strings"),
    "s.isEmpty": ("{0}.isEmpty()", BOOL, (STR,), "strings"),
    "s.indexOf": ("{0}.indexOf({1})", INT, (STR, STR), "strings"),
    "s.concat": ("{0}.concat({1})", STR, (STR, STR), "strings"),
    "s.substring": ("{0}.substring({1})", STR, (STR, INT), "strings"),
    "s.startsWith": ("{0}.startsWith({1})", BOOL, (STR, STR), "strings"),
    "s.compareTo": ("{0}.compareTo({1})", INT, (STR, STR), "strings"),
    "b.equals": ("{0}.equals({1})", BOOL, (BOX, BOX), "boxing"),
    "b.intValue": ("{0}.intValue()", INT, (BOX,), "boxing"),
    "Integer.valueOf": ("Integer.valueOf({0})", BOX, (INT,), "boxing"),
    "Arrays.fill": ("java.util.Arrays.fill({0}, {1})", "void", (IARR, INT), "jdk_effects"),
    "Arrays.sort": ("java.util.Arrays.sort({0})", "void", (IARR,), "jdk_effects"),
    "Arrays.copyOf": ("java.util.Arrays.copyOf({0}, {1})", IARR, (IARR, INT), "jdk_effects"),
}
CHECKED = {"+": "add", "-": "sub", "*": "mul", "/": "div", "%": "rem"}


def java_string(s):
    out = []
    for ch in s:
        if ch in "\\\"":
            out.append("\\" + ch)
        elif 32 <= ord(ch) < 127:
            out.append(ch)
        else:
            out.append("\\u%04x" % ord(ch))
    return '"' + "".join(out) + '"'


def render_lit(e):
    if e.t == BOOL:
        return "true" if e.v else "false"
    if e.t == INT:
        return str(e.v) if e.v >= 0 else "(%d)" % e.v
    if e.t == STR and e.v is not None:
        return java_string(e.v)
    return "((%s) null)" % e.t


def render_expr(e, ck=False):
    r = lambda x: render_expr(x, ck)  # noqa: E731
    k = e.k
    if k == "lit":
        return render_lit(e)
    if k == "var":
        return e.v
    if k == "fld":
        return "this." + e.v
    if k == "sfld":
        return "C." + e.v
    if k == "nget":
        return "%s.%s" % (r(e.kids[0]), e.v)
    if k == "bin":
        if ck and e.v in CHECKED:
            return "Ck.%s(%s, %s)" % (CHECKED[e.v], r(e.kids[0]), r(e.kids[1]))
        return "(%s %s %s)" % (r(e.kids[0]), e.v, r(e.kids[1]))
    if k == "neg":
        return "Ck.neg(%s)" % r(e.kids[0]) if ck else "(-%s)" % r(e.kids[0])
    if k in ("rel", "refeq"):
        return "(%s %s %s)" % (r(e.kids[0]), e.v, r(e.kids[1]))
    if k == "and":
        return "(%s && %s)" % (r(e.kids[0]), r(e.kids[1]))
    if k == "or":
        return "(%s || %s)" % (r(e.kids[0]), r(e.kids[1]))
    if k == "not":
        return "(!%s)" % r(e.kids[0])
    if k == "cond":
        return "(%s ? %s : %s)" % tuple(r(c) for c in e.kids)
    if k == "aget":
        return "%s[%s]" % (array_operand(e.kids[0], ck), r(e.kids[1]))
    if k == "alen":
        return "%s.length" % array_operand(e.kids[0], ck)
    if k == "newarr":
        return "new int[%s]" % r(e.kids[0])
    if k == "arrlit":
        return "new int[] {%s}" % ", ".join(r(c) for c in e.kids)
    if k == "newnode":
        return "new Node()"
    if k == "call":
        return "%s(%s)" % (e.v, ", ".join(r(c) for c in e.kids))
    if k == "lib":
        if ck and e.v == "Math.abs":
            return "Ck.abs(%s)" % r(e.kids[0])
        return LIB[e.v][0].format(*[r(c) for c in e.kids])
    if k == "concat":
        return "(%s + %s)" % (r(e.kids[0]), r(e.kids[1]))
    if k == "cast":
        return "((%s) %s)" % (e.v, r(e.kids[0]))
    raise ValueError("unknown expression kind " + k)


def array_operand(e, ck):
    """`new int[1][0]` would declare a two-dimensional array: creations are parenthesised."""
    text = render_expr(e, ck)
    return "(%s)" % text if e.k in ("newarr", "arrlit") else text


def render_block(b, ind, ck, out):
    for s in b.kids:
        render_stmt(s, ind, ck, out)


def render_stmt(s, ind, ck, out):
    p = "    " * ind
    r = lambda x: render_expr(x, ck)  # noqa: E731
    k = s.k
    if k == "decl":
        out.append("%s%s %s = %s;" % (p, s.t, s.v, r(s.kids[0])))
    elif k == "assign":
        out.append("%s%s = %s;" % (p, s.v, r(s.kids[0])))
    elif k == "fset":
        out.append("%sthis.%s = %s;" % (p, s.v, r(s.kids[0])))
    elif k == "sset":
        out.append("%sC.%s = %s;" % (p, s.v, r(s.kids[0])))
    elif k == "nset":
        out.append("%s%s.%s = %s;" % (p, r(s.kids[0]), s.v, r(s.kids[1])))
    elif k == "aset":
        out.append("%s%s[%s] = %s;" % (p, array_operand(s.kids[0], ck), r(s.kids[1]), r(s.kids[2])))
    elif k == "if":
        out.append("%sif (%s) {" % (p, r(s.kids[0])))
        render_block(s.kids[1], ind + 1, ck, out)
        if s.kids[2] is not None:
            out.append(p + "} else {")
            render_block(s.kids[2], ind + 1, ck, out)
        out.append(p + "}")
    elif k == "for":
        out.append("%sfor (int %s = 0; %s < %s; %s++) {" % (p, s.v, s.v, r(s.kids[0]), s.v))
        render_block(s.kids[1], ind + 1, ck, out)
        out.append(p + "}")
    elif k == "while":
        out.append("%sint %s = 0;" % (p, s.v))
        out.append("%swhile (%s < %s) {" % (p, s.v, r(s.kids[0])))
        render_block(s.kids[1], ind + 1, ck, out)
        out.append("%s    %s = %s + 1;" % (p, s.v, s.v))
        out.append(p + "}")
    elif k == "try":
        out.append(p + "try {")
        render_block(s.kids[0], ind + 1, ck, out)
        out.append("%s} catch (%s e%d) {" % (p, s.v, ind))  # (nested handlers need distinct names)
        render_block(s.kids[1], ind + 1, ck, out)
        out.append(p + "}")
    elif k == "switch":
        # v: [[label or None for default, ends with break], ...], one per case block kids[1:]
        # (an int expression may be a char, "ab".charAt(0), which a negative label does not
        # fit: the cast widens it, and compiles to nothing for an int)
        out.append("%sswitch ((int) (%s)) {" % (p, r(s.kids[0])))
        for (label, brk), body in zip(s.v, s.kids[1:]):
            out.append("%s    %s:" % (p, "default" if label is None else "case %d" % label))
            render_block(body, ind + 2, ck, out)
            if brk:
                out.append(p + "        break;")
        out.append(p + "}")
    elif k == "block":
        out.append(p + "{")
        render_block(s, ind + 1, ck, out)
        out.append(p + "}")
    elif k == "print":
        out.append("%sSystem.out.println(%s);" % (p, r(s.kids[0])))
    elif k == "expr":
        out.append("%s%s;" % (p, r(s.kids[0])))
    elif k == "ret":
        out.append("%sreturn%s;" % (p, "" if not s.kids else " " + r(s.kids[0])))
    elif k == "throw":
        out.append("%sthrow new %s();" % (p, s.v))
    else:
        raise ValueError("unknown statement kind " + k)


def render(prog, ck=False):
    """The Java source of `prog` (file C.java of package prog.pkg)."""
    out = ["package %s;" % prog.pkg, "", "public class C {"]
    for f in prog.fields:
        mods = ("static " if f.static else "") + ("final " if f.final else "")
        init = "" if f.init is None else " = " + render_expr(f.init, ck)
        out.append("    %s%s %s%s;" % (mods, f.t, f.name, init))
    if prog.uses_node:
        out.append("")
        out.append("    static class Node {")
        for name, t in NODE_FIELDS:
            out.append("        %s %s;" % (t, name))
        out.append("    }")
    for m in prog.methods:
        out.append("")
        params = ", ".join("%s %s" % (t, n) for n, t in m.params)
        vis = "public " if m.name == prog.target else ""
        out.append("    %s%s%s %s(%s) {" % (vis, "static " if m.static else "", m.ret, m.name, params))
        render_block(m.body, 2, ck, out)
        out.append("    }")
    out.append("}")
    return "\n".join(out) + "\n"


CK_SOURCE = """package {pkg};

// Overflow detection for the math model: the checked copy of C routes every int operation that
// can leave the int range through here; an overflow ends the run with Ck.Overflow.
final class Ck {{
    static final class Overflow extends Error {{ }}

    private static int fit(long v) {{
        if (v != (int) v) throw new Overflow();
        return (int) v;
    }}

    static int add(int a, int b) {{ return fit((long) a + b); }}
    static int sub(int a, int b) {{ return fit((long) a - b); }}
    static int mul(int a, int b) {{ return fit((long) a * b); }}
    static int div(int a, int b) {{ return fit(b == 0 ? a / b : (long) a / b); }}
    static int rem(int a, int b) {{ return a % b; }}
    static int neg(int a) {{ return fit(-(long) a); }}
    static int abs(int a) {{ return fit(Math.abs((long) a)); }}
}}
"""


def render_ck(pkg):
    return CK_SOURCE.format(pkg=pkg)
