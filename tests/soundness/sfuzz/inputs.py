"""Inputs for the JVM driver: random and boundary inputs within pasda-jvm's input space (at most
--heap-bound objects per class, arrays up to --max-array-length), and the inputs a pasda-jvm
witness describes (parameter values, receiver fields, heap shape from the path condition).

An input is {"heap": [objects], "this": value, "args": [values], "set_statics": {name: value}};
a value is a number, a boolean, null or {"r": heap index}; an object is {"k": "obj", "cls":
"C"|"Node", "f": {field: value}}, {"k": "arr", "e": [ints]}, {"k": "str", "s": text} or
{"k": "box", "v": int, "fresh": bool} (fresh: `new Integer`, else `Integer.valueOf`)."""
import re

from .ast import BOOL, BOX, IARR, INT, NODE, NODE_FIELDS, STR

BOUNDARY = (0, 1, -1, 2, -2, 3, 7, 10, 100, 127, 128, -128, -129, 1000, 2147483647, -2147483648,
            2147483646, -2147483647, 65535, 32767)
STRINGS = ("", "a", "b", "ab", "ba", "abc", "10", "-3", " a ", "aa", "0", "a1")


def kind_of(t):
    return {STR: "str", BOX: "box", IARR: "arr", NODE: "Node"}[t]


class Space:
    """What the inputs of a program's target method are: parameters, receiver fields, statics."""

    def __init__(self, prog):
        m = prog.method(prog.target)
        self.params = list(m.params)
        self.instance = not m.static
        self.fields = {f.name: f.t for f in prog.fields if not f.static}
        self.statics = {f.name: f.t for f in prog.fields if f.static}
        self.mutable_statics = {f.name: f.t for f in prog.fields if f.static and not f.final}

    def field_type(self, owner, name):
        if owner == "C":
            return self.fields.get(name)
        if owner == NODE:
            return dict(NODE_FIELDS).get(name)
        return None


class Builder:
    """Random inputs, one heap per input; objects per class bounded like pasda-jvm's heap."""

    def __init__(self, space, rng, heap_bound=2, max_len=8, boundary_bias=0.4):
        self.space, self.rng = space, rng
        self.heap_bound, self.max_len, self.bias = heap_bound, max_len, boundary_bias

    def int_value(self):
        r = self.rng.random()
        if r < self.bias:
            return self.rng.choice(BOUNDARY)
        if r < 0.85:
            return self.rng.randint(-10, 10)
        return self.rng.randint(-2**31, 2**31 - 1)

    def value(self, t, heap, null_p=0.15):
        if t == INT:
            return self.int_value()
        if t == BOOL:
            return self.rng.random() < 0.5
        kind = "obj" if t == NODE else kind_of(t)
        same = [i for i, o in enumerate(heap) if o["k"] == kind and (t != NODE or o.get("cls") == NODE)]
        r = self.rng.random()
        if r < null_p:
            return None
        if same and (len(same) >= self.heap_bound or r < null_p + 0.15):
            return {"r": self.rng.choice(same)}
        idx = len(heap)
        if t == STR:
            heap.append({"k": "str", "s": self.rng.choice(STRINGS) if self.rng.random() < 0.7 else
                         "".join(self.rng.choice("ab1 ") for _ in range(self.rng.randint(0, 5)))})
        elif t == BOX:
            v = self.int_value() if self.rng.random() < 0.5 else self.rng.randint(-130, 130)
            heap.append({"k": "box", "v": v, "fresh": self.rng.random() < 0.5})
        elif t == IARR:
            n = self.rng.choice((0, 1, 1, 2, 2, 3, 3, 4, 5, self.max_len))
            heap.append({"k": "arr", "e": [self.int_value() for _ in range(n)]})
        else:
            heap.append({"k": "obj", "cls": NODE, "f": {}})
            for name, ft in NODE_FIELDS:
                heap[idx]["f"][name] = self.value(ft, heap, 0.5)
        return {"r": idx}

    def build(self, static_inputs=False):
        heap = []
        inp = {"heap": heap, "this": None, "args": [], "set_statics": {}}
        if self.space.instance:
            heap.append({"k": "obj", "cls": "C", "f": {}})
            inp["this"] = {"r": 0}
            for name, t in sorted(self.space.fields.items()):
                heap[0]["f"][name] = self.value(t, heap)
        for _, t in self.space.params:
            inp["args"].append(self.value(t, heap))
        if static_inputs:
            for name, t in sorted(self.space.mutable_statics.items()):
                inp["set_statics"][name] = self.value(t, heap)
        return inp


# --------------------------------------------------------------------------- witnesses
PATH = r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*|\[\d+\])*"


def split_top(pc):
    """Conjuncts of a path condition at parenthesis depth 0."""
    out, depth, cur, i = [], 0, [], 0
    while i < len(pc):
        c = pc[i]
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        if depth == 0 and pc.startswith(" && ", i):
            out.append("".join(cur).strip())
            cur = []
            i += 4
            continue
        cur.append(c)
        i += 1
    if cur:
        out.append("".join(cur).strip())
    return out


def parse_literal(text, t):
    """A witness literal as a value of type t; None if it does not say (e.g. "?")."""
    text = text.strip()
    if t == BOOL:
        if text in ("true", "false"):
            return text == "true"
        if re.fullmatch(r"-?\d+", text):
            return text != "0"
        return None
    m = re.fullmatch(r"(?:\((?:byte|short|char|int)\)\s*)?(-?\d+)[lL]?", text)
    if m:
        return int(m.group(1))
    m = re.fullmatch(r"'(.)'", text)
    if m:
        return ord(m.group(1))
    return None


def unquote_java(text):
    if len(text) < 2 or text[0] != '"' or text[-1] != '"':
        return None
    body, out, i = text[1:-1], [], 0
    while i < len(body):
        c = body[i]
        if c == "\\" and i + 1 < len(body):
            n = body[i + 1]
            if n == "u":
                out.append(chr(int(body[i + 2:i + 6], 16)))
                i += 6
                continue
            out.append({"n": "\n", "t": "\t", "r": "\r", "0": "\0"}.get(n, n))
            i += 2
            continue
        out.append(c)
        i += 1
    return "".join(out)


class Witness:
    """A pasda-jvm witness read back into the driver's input format.

    `complete` is False when something the driver needs was left open (string contents,
    boxed values, a value printed as "?"); `completions(k)` then fills the gaps in k ways."""

    def __init__(self, space, partition):
        self.space = space
        self.values = {w["name"]: w["literal"] for w in partition.get("witness_values") or []}
        self.facts = {}
        self.lengths = {}
        self.str_lengths = {}  # strings whose length the path fixed: s.length() == 5
        for conj in split_top(partition.get("path_condition") or ""):
            m = re.fullmatch(r"(%s)\.length == (\d+)" % PATH, conj)
            if m:
                self.lengths[m.group(1)] = int(m.group(2))
                continue
            m = re.fullmatch(r"(%s)\.length\(\) == (\d+)" % PATH, conj)
            if m:
                self.str_lengths[m.group(1)] = int(m.group(2))
                continue
            m = re.fullmatch(r"(%s) (==|!=) (%s|null)" % (PATH, PATH), conj)
            if m and self.type_of(m.group(1)) in (STR, BOX, IARR, NODE, "C"):
                self.facts[m.group(1)] = ("null" if m.group(3) == "null" and m.group(2) == "==" else
                                          "new" if m.group(2) == "!=" else ("alias", m.group(3)))
        self.open = []      # descriptions of what the witness left open
        self.unknown = []   # (heap index, kind) whose content must be completed
        # A length the driver cannot build: the input built instead leaves the witness's path,
        # so what the JVM does with it says nothing about the partition (not judgeable).
        self.unbuildable = False

    def type_of(self, path):
        parts = re.findall(r"[A-Za-z_$][\w$]*|\[\d+\]", path)
        if not parts:
            return None
        root = parts[0]
        if root == "this":
            t = "C"
        elif root == "C" and len(parts) > 1 and parts[1] in self.space.statics:
            t = self.space.statics[parts[1]]
            parts = parts[1:]
        else:
            t = dict(self.space.params).get(root)
        for p in parts[1:]:
            if t is None:
                return None
            if p.startswith("["):
                t = INT if t == IARR else None
            elif t == "C":
                t = self.space.fields.get(p)
            elif t == NODE:
                t = dict(NODE_FIELDS).get(p)
            else:
                return None
        return t

    def shape(self, path):
        if path in self.facts:
            return self.facts[path]
        lit = self.values.get(path)
        if lit == "null":
            return "null"
        if lit == "new object":
            return "new"
        if lit and lit.startswith("same object as "):
            return ("alias", lit[len("same object as "):])
        if lit and lit.startswith('"'):
            return "new"
        if lit and re.fullmatch(r"[\w$.]+\{.*\}", lit):  # an object as the replay builds it: Box{v = 1}
            return "new"
        return None

    def spelled(self, path):
        """A string the witness gives as "new object" with its length in the path condition and
        its characters as `path.charAt(i)` values (None when a character is not given as a
        number): built from them, so that the input follows the partition's path (completing it
        with random strings left the path: seed 6941's NEQ on what a 5-character string printed
        was judged "false" on strings of other lengths)."""
        chars = []
        for i in range(self.str_lengths[path]):
            lit = self.values.get("%s.charAt(%d)" % (path, i))
            v = parse_literal(lit, INT) if lit is not None else 0  # (a character the path never read)
            if v is None or not 0 <= v <= 0xFFFF:
                return None
            chars.append(chr(v))
        return "".join(chars)

    def build(self):
        heap, made = [], {}
        inp = {"heap": heap, "this": None, "args": [], "set_statics": {}}
        self.open, self.unknown, self.unbuildable = [], [], False

        def ref(path, t, depth=0):
            sh = self.shape(path)
            if sh is None or sh == "null" or depth > 6:
                return None
            if isinstance(sh, tuple):
                target = sh[1]
                if target not in made:
                    ref(target, t, depth + 1)
                return {"r": made[target]} if target in made else None
            idx = len(heap)
            made[path] = idx
            if t == STR:
                text = unquote_java(self.values.get(path) or "")
                if text is None and path in self.str_lengths:
                    text = self.spelled(path)
                heap.append({"k": "str", "s": text or ""})
                if text is None:
                    self.open.append(path + " (string contents)")
                    self.unknown.append((idx, "str"))
            elif t == BOX:
                v = parse_literal(self.values.get(path + ".value", ""), INT)
                if v is None:  # the box's own literal: Integer{value = 5}
                    m = re.fullmatch(r"[\w$.]+\{value = (.*)\}", self.values.get(path, ""))
                    v = parse_literal(m.group(1), INT) if m else parse_literal(self.values.get(path, ""), INT)
                heap.append({"k": "box", "v": v or 0, "fresh": True})
                if v is None:
                    self.open.append(path + " (boxed value)")
                    self.unknown.append((idx, "box"))
            elif t == IARR:
                n = self.lengths.get(path)
                if n is None:  # an array past --max-array-length: its length is a witness value
                    n = parse_literal(self.values.get(path + ".length", ""), INT) or 0
                    if n > 1 << 16:
                        self.open.append(path + ".length = %d (too long to build)" % n)
                        self.unbuildable = True
                        n = 0
                heap.append({"k": "arr", "e": [prim(path + "[%d]" % i, INT) for i in range(n)]})
            else:
                cls = "C" if t == "C" else NODE
                fields = self.space.fields if t == "C" else dict(NODE_FIELDS)
                heap.append({"k": "obj", "cls": cls, "f": {}})
                for name, ft in sorted(fields.items()):
                    fp = path + "." + name
                    heap[idx]["f"][name] = prim(fp, ft) if ft in (INT, BOOL) else ref(fp, ft, depth + 1)
            return {"r": idx}

        def prim(path, t):
            lit = self.values.get(path)
            v = parse_literal(lit, t) if lit is not None else None
            if lit is not None and v is None:
                self.open.append(path + " = " + lit)
            if v is None:
                return False if t == BOOL else 0
            if t == INT:
                v = (v + 2**31) % 2**32 - 2**31
            return v

        if self.space.instance:
            made_this = ref("this", "C") if self.shape("this") else None
            if made_this is None:  # the receiver is never null
                self.facts["this"] = "new"
                made_this = ref("this", "C")
            inp["this"] = made_this
        for name, t in self.space.params:
            inp["args"].append(prim(name, t) if t in (INT, BOOL) else ref(name, t))
        for name, t in sorted(self.space.mutable_statics.items()):
            path = "C." + name
            if path in self.values or path in self.facts:
                inp["set_statics"][name] = prim(path, t) if t in (INT, BOOL) else ref(path, t)
        return inp

    def completions(self, rng, k):
        """The witness input, and k - 1 more with random contents for what it left open."""
        base = self.build()
        out = [base]
        if not self.unknown:
            return out
        import copy
        for _ in range(k - 1):
            c = copy.deepcopy(base)
            for idx, kind in self.unknown:
                if kind == "str":
                    c["heap"][idx]["s"] = rng.choice(STRINGS)
                else:
                    c["heap"][idx]["v"] = rng.choice(BOUNDARY + tuple(range(-5, 6)))
            out.append(c)
        return out
