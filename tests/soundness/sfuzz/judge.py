"""What counts as a difference between the two versions on one input, matching pasda-jvm's
notion of equivalence (docs/heap.md §5, docs/soundness-fuzzer.md): the kind of end (return,
void, exception class — never the message), the primitive result, the reachable state as a
graph up to isomorphism (receiver, reference parameters, a reference result, the analysed
class's static fields), and — when the option says so — the console output."""

OVERFLOW = "Ck$Overflow"


class Oracle:
    def __init__(self, compare_output=False):
        self.compare_output = compare_output

    def differs(self, a, b):
        """True/False, or None when the input cannot be judged (timeout, driver error)."""
        if a is None or b is None or a["kind"] in ("error", "timeout") or b["kind"] in ("error", "timeout"):
            return None
        return bool(self.explain(a, b))

    def explain(self, a, b):
        """The differences, as short strings (empty when the runs agree)."""
        out = []
        if a["kind"] != b["kind"] or (a["kind"] == "throw" and a["detail"] != b["detail"]):
            return ["end: %s vs %s" % (end(a), end(b))]
        if a.get("ret") != b.get("ret"):
            out.append("result: %s vs %s" % (a.get("ret"), b.get("ret")))
        sa, sb = a.get("state", []), b.get("state", [])
        if sa != sb:
            da = [x for x in sa if x not in sb]
            db = [x for x in sb if x not in sa]
            out.append("state: %s vs %s" % ("; ".join(da[:4]) or "-", "; ".join(db[:4]) or "-"))
        if self.compare_output and a.get("out") != b.get("out"):
            out.append("output: %r vs %r" % (a.get("out"), b.get("out")))
        return out


def end(o):
    if o["kind"] == "throw":
        return "throws " + o["detail"]
    return o["kind"] + ("" if o.get("ret") is None else " " + o["ret"])


def overflowed(o):
    return o is not None and o["kind"] == "throw" and o["detail"].endswith(OVERFLOW)


def checked_agrees(plain, checked):
    """The checked copy must behave exactly like the plain one unless it overflowed."""
    if checked is None or overflowed(checked):
        return True
    keys = ("kind", "detail", "ret", "state", "out")
    return all(plain.get(k) == checked.get(k) for k in keys)
