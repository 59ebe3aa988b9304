"""Compiles benchmark pairs with javac -g once, cached by source content.

All pairs share one output root (their packages are distinct). A stamp file per case holds
the SHA-256 of both sources; a case is recompiled only when the stamp differs or a class
file is missing. All stale cases are compiled in one javac invocation (javac's start-up
dominates for these small files).
"""
import hashlib
import os
import subprocess


class CompileError(Exception):
    pass


def source_hash(benchmark_dir, case):
    h = hashlib.sha256()
    for v in ("oldV", "newV"):
        with open(case.source(benchmark_dir, v), "rb") as f:
            data = f.read()
        h.update(v.encode() + b"\0" + str(len(data)).encode() + b"\0" + data)
    return h.hexdigest()


def _stamp_path(work_dir, case):
    return os.path.join(work_dir, "stamps", case.name.replace("/", "__") + ".sha256")


def compile_cases(benchmark_dir, cases, work_dir, javac="javac", log=None):
    """Ensures class files of all cases under <work_dir>/classes; returns that root.

    Returns (classes_root, number_compiled)."""
    root = os.path.join(work_dir, "classes")
    os.makedirs(root, exist_ok=True)
    os.makedirs(os.path.join(work_dir, "stamps"), exist_ok=True)
    stale = []
    for c in cases:
        for v in ("oldV", "newV"):
            if not os.path.isfile(c.source(benchmark_dir, v)):
                raise CompileError(f"{c.source(benchmark_dir, v)}: missing source of case {c.name}")
        digest = source_hash(benchmark_dir, c)
        stamp = _stamp_path(work_dir, c)
        fresh = (os.path.isfile(stamp) and open(stamp).read().strip() == digest
                 and all(os.path.isfile(c.class_file(root, k)) for k in (c.old_class, c.new_class)))
        if not fresh:
            stale.append((c, digest))
    if stale:
        if log:
            log(f"compiling {len(stale)} pair(s) with javac -g ...")
        sources = [c.source(benchmark_dir, v) for c, _ in stale for v in ("oldV", "newV")]
        argfile = os.path.join(work_dir, "javac-sources.txt")
        with open(argfile, "w") as f:
            f.write("\n".join('"' + s.replace("\\", "\\\\") + '"' for s in sources) + "\n")
        try:
            p = subprocess.run([javac, "-g", "-nowarn", "-encoding", "UTF-8", "-d", root, "@" + argfile],
                               capture_output=True, text=True)
        except OSError as e:
            raise CompileError(f"cannot run {javac}: {e}") from e
        if p.returncode != 0:
            raise CompileError(f"javac failed (exit {p.returncode}):\n{p.stderr.strip()[:4000]}")
        for c, digest in stale:
            for k in (c.old_class, c.new_class):
                if not os.path.isfile(c.class_file(root, k)):
                    raise CompileError(f"javac produced no {c.class_file(root, k)} for case {c.name}")
            with open(_stamp_path(work_dir, c), "w") as f:
                f.write(digest + "\n")
    return root, len(stale)
