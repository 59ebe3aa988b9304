#!/usr/bin/env python3
"""The stages' include graph follows the build's dependency graph (docs/architecture.md).

Every `#include "pasda/<stage>/..."` in a stage's sources (src/<stage>/, include/pasda/<stage>/)
must name the stage itself or one it depends on, directly or not, according to the
`pasda_stage(... DEPS ...)` lines of the top-level CMakeLists.txt; jvm-frontend includes no
other stage. An include against that order is a dependency cycle waiting to happen (a stage
using a header of a stage that links it), which the linker does not always catch.
Exit 0 when the graph is clean, 1 with one line per offending include otherwise.
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
INCLUDE = re.compile(r'^\s*#\s*include\s+"pasda/([a-z_]+)/')


def stage_deps(cmake_text):
    """{stage folder: set of stage folders it depends on directly}."""
    deps = {"jvm": set()}
    for m in re.finditer(r"pasda_stage\(pasda_(\w+)\s+src/\w+([^)]*)\)", cmake_text):
        names = re.findall(r"\b(?:pasda_(\w+)|jvm_frontend)\b", m.group(2))
        deps[m.group(1)] = {n if n else "jvm" for n in names}
    return deps


def closure(deps):
    out = {}
    for stage in deps:
        seen, todo = set(), [stage]
        while todo:
            for d in deps.get(todo.pop(), ()):
                if d not in seen:
                    seen.add(d)
                    todo.append(d)
        out[stage] = seen | {stage}
    return out


def stage_files(stage):
    if stage == "jvm":
        yield from (ROOT / "jvm-frontend").rglob("*.[ch]pp")
        return
    for base in (ROOT / "src" / stage, ROOT / "include" / "pasda" / stage):
        yield from base.rglob("*.[ch]pp")


def violations(allowed):
    for stage, ok in sorted(allowed.items()):
        for f in sorted(stage_files(stage)):
            for n, line in enumerate(f.read_text(errors="replace").splitlines(), 1):
                m = INCLUDE.match(line)
                if m and m.group(1) != stage and m.group(1) not in ok:
                    yield f"{f.relative_to(ROOT)}:{n}: stage {stage} includes pasda/{m.group(1)}/, " \
                          f"a stage it does not depend on (its dependencies: {', '.join(sorted(ok - {stage})) or 'none'})"


def main():
    deps = stage_deps((ROOT / "CMakeLists.txt").read_text())
    if len(deps) < 10:
        print(f"check_layers: found only {len(deps)} stages in CMakeLists.txt; the pattern is out of date")
        return 1
    bad = list(violations(closure(deps)))
    for b in bad:
        print(b)
    print(f"check_layers: {len(deps)} stages, {len(bad)} includes against the dependency order")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
