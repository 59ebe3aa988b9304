#!/usr/bin/python3
"""A stand-in for pasda-jvm in the harness tests; behaviour from FAKE_ENGINE_MODE.

`--db F --init-db` is the real engine's (PASDA_JVM, which must be set): the fake has no schema
of its own. Otherwise, ok: records an EQ run like the engine (one transaction, in a database
the real engine created) and exits 0; hang: sleeps; stubborn: ignores SIGTERM and sleeps
(needs timeout's --kill-after); die: exits 2 with an error message and records nothing;
crash: killed by SIGSEGV.
"""
import os
import signal
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                                "ardiff-benchmark"))
from pasda_study import db as dbm  # noqa: E402

ENGINE = os.environ.get("PASDA_JVM", "")


def opt(name):
    args = sys.argv[1:]
    return args[args.index(name) + 1]


def record_eq_run():
    dbm.init_db(ENGINE, opt("--db"))
    con = dbm.connect(opt("--db"))
    with dbm.transaction(con):
        con.execute("INSERT OR IGNORE INTO benchmark VALUES(?, ?)", (opt("--benchmark"), opt("--expected")))
        rid = con.execute("INSERT INTO run(benchmark, result, has_timed_out, is_depth_limited, has_uif, "
                          "iteration_count, runtime) VALUES(?, 'EQ', 0, 0, 0, 1, 0.01)",
                          (opt("--benchmark"),)).lastrowid
        con.execute("INSERT INTO settings VALUES(?,?,?,1000,?,?,2)",
                    (rid, opt("--mode"), float(opt("--timeout")), int(opt("--depth-limit")), opt("--arith")))
        if "--deepen" in sys.argv:  # recorded like the engine does (table deepening, schema 5)
            con.execute("INSERT INTO deepening VALUES(?,?,?,1,NULL)",
                        (rid, 1 if opt("--deepen") == "on" else 0, int(opt("--depth-limit"))))
    print("Result: EQ")


if "--init-db" in sys.argv:
    if not ENGINE:
        sys.exit("fake_engine: --init-db needs PASDA_JVM, the real engine")
    os.execv(ENGINE, [ENGINE, *sys.argv[1:]])
mode = os.environ.get("FAKE_ENGINE_MODE", "ok")
if mode == "ok":
    record_eq_run()
    sys.exit(0)
if mode == "hang":
    time.sleep(60)
if mode == "stubborn":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    time.sleep(60)
if mode == "die":
    print("pasda-jvm: error: x.class: method snippet not found", file=sys.stderr)
    sys.exit(2)
if mode == "crash":
    os.kill(os.getpid(), signal.SIGSEGV)
sys.exit(9)
