"""Study harness for pasda-jvm: sweeps over the ARDiff benchmark and the paper's tables.

Modules: cases (benchmark list), compile (javac cache), db (results database helpers; the
schema is the engine's, pasda-jvm --init-db), jobs (the job file's and the worker's lines),
worker (one run, bounded from outside), study (run-study), majority/analysis (reduction
of runs), paper (published numbers), report (tables and plots), bench (quick sweep).
Standard library only; matplotlib is optional (plots are skipped without it).
"""
