"""Feature sets. ALL is every construct the generator knows. CI is the set on which the engine
is sound today; every feature left out is listed in OFF_IN_CI with the reason (the finding class
of docs/soundness-fuzzer.md), so that it can be switched on when the engine catches up."""
from .gen import FEATURES

ALL = tuple(FEATURES)

OFF_IN_CI = {
    "static_objects": "static reference fields are compared by object identity, so objects that each "
                      "version's <clinit> (or the method) creates always differ: false NEQ (issue 11, "
                      "state up to isomorphism)",
    "array_fields": "an array read through a field has no elements: every access throws "
                    "ArrayIndexOutOfBoundsException in both versions: false EQ (issue 11)",
    "strings": "String methods are uninterpreted functions of their primitive arguments only (the "
               "receiver is dropped: s.length() == t.length()), and results are assumed fresh "
               "(s.concat(\"\") != s): false EQ (issue 11, library models)",
    "string_concat": "needs strings; invokedynamic concatenation yields an opaque object",
    "boxing": "Integer.intValue() ignores its receiver and Integer.valueOf never returns a cached "
              "box, so == on small boxes is false: false EQ (issue 11, boxing)",
    "jdk_effects": "library calls have no effect on their arguments (Arrays.fill/sort leave the "
                   "array unchanged): false EQ (issue 11, unknown calls with effects)",
}

CI = tuple(f for f in ALL if f not in OFF_IN_CI)


def parse(spec):
    """'all', 'ci', or a comma list; '-x' removes x from what precedes ('all,-strings')."""
    out = []
    for part in spec.split(","):
        part = part.strip()
        if not part:
            continue
        if part == "all":
            out += [f for f in ALL if f not in out]
        elif part == "ci":
            out += [f for f in CI if f not in out]
        elif part.startswith("-"):
            if part[1:] not in ALL:
                raise ValueError("unknown feature " + part[1:])
            out = [f for f in out if f != part[1:]]
        else:
            if part not in ALL:
                raise ValueError("unknown feature " + part)
            if part not in out:
                out.append(part)
    return tuple(f for f in ALL if f in out)
