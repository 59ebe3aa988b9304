"""Feature sets. ALL is every construct the generator knows. CI is the set on which the engine
is sound today; every feature left out is listed in OFF_IN_CI with the reason (the finding class
of docs/soundness-fuzzer.md), so that it can be switched on when the engine catches up."""
from .gen import FEATURES

ALL = tuple(FEATURES)

OFF_IN_CI = {
    # Every construct is in the CI set since the real-code models of issue 11 (statics compared
    # as graphs, arrays behind fields, strings, boxing, library effects). A feature found unsound
    # again goes here with the finding class, until the engine is fixed.
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
