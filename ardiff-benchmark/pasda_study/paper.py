"""The PASDA paper's published numbers (../shared/docs/paper-numbers.md), as data.

141 cases (73 EQ, 68 NEQ), depth limit 10, 5 runs per configuration reduced by majority.
Values are per timeout, in the order of TIMEOUTS.
"""
TIMEOUTS = (10, 30, 90, 300, 900, 3600)
TOOLS = ("pasda", "ardiff", "dse", "prv")
TOOL_NAMES = {"pasda": "PASDA", "ardiff": "ARDiff", "dse": "DSE", "prv": "PRV"}
CASES = {"EQ": 73, "NEQ": 68}
RUNS = 5

# Table 5: program-level EQ / NEQ / undecided (MAYBE_EQ + MAYBE_NEQ + UNKNOWN), per expected class.
TABLE5 = {
    ("pasda", "EQ"): {"EQ": (38, 41, 45, 47, 50, 51), "NEQ": (0,) * 6, "undecided": (32, 31, 27, 25, 23, 22)},
    ("pasda", "NEQ"): {"EQ": (0,) * 6, "NEQ": (48, 50, 50, 52, 52, 53), "undecided": (17, 17, 17, 15, 16, 14)},
    ("ardiff", "EQ"): {"EQ": (45, 48, 48, 48, 48, 49), "NEQ": (0,) * 6, "undecided": (16, 16, 18, 19, 19, 18)},
    ("ardiff", "NEQ"): {"EQ": (0,) * 6, "NEQ": (33, 35, 35, 36, 37, 37), "undecided": (27, 26, 26, 24, 22, 21)},
    ("dse", "EQ"): {"EQ": (30,) * 6, "NEQ": (0,) * 6, "undecided": (32, 36, 38, 38, 37, 37)},
    ("dse", "NEQ"): {"EQ": (0,) * 6, "NEQ": (21,) * 6, "undecided": (39, 40, 40, 40, 40, 41)},
    ("prv", "EQ"): {"EQ": (34, 37, 39, 41, 41, 42), "NEQ": (0,) * 6, "undecided": (36, 35, 33, 31, 32, 31)},
    ("prv", "NEQ"): {"EQ": (0,) * 6, "NEQ": (48, 50, 50, 52, 52, 53), "undecided": (17, 17, 17, 15, 16, 15)},
}

CORRECT_PROOFS = {
    "pasda": (86, 91, 95, 99, 102, 104),
    "ardiff": (78, 83, 83, 84, 85, 86),
    "dse": (51,) * 6,
    "prv": (82, 87, 89, 93, 93, 95),
}
FALSE_PROOFS = {t: (0,) * 6 for t in TOOLS}

# Table 6: DEPTH_LIMITED / TIMEOUT / ERROR.
TABLE6 = {
    ("pasda", "EQ"): {"DEPTH_LIMITED": (1, 0, 0, 1, 0, 0), "TIMEOUT": (2, 1, 1, 0, 0, 0), "ERROR": (0,) * 6},
    ("pasda", "NEQ"): {"DEPTH_LIMITED": (1, 0, 0, 1, 0, 0), "TIMEOUT": (2, 1, 1, 0, 0, 0), "ERROR": (0, 0, 0, 0, 0, 1)},
    ("ardiff", "EQ"): {"DEPTH_LIMITED": (0,) * 6, "TIMEOUT": (12, 9, 7, 6, 4, 4), "ERROR": (0, 0, 0, 0, 2, 2)},
    ("ardiff", "NEQ"): {"DEPTH_LIMITED": (0,) * 6, "TIMEOUT": (8, 7, 7, 7, 6, 5), "ERROR": (0, 0, 0, 1, 3, 5)},
    ("dse", "EQ"): {"DEPTH_LIMITED": (0,) * 6, "TIMEOUT": (11, 7, 5, 5, 5, 4), "ERROR": (0, 0, 0, 0, 1, 2)},
    ("dse", "NEQ"): {"DEPTH_LIMITED": (0,) * 6, "TIMEOUT": (8, 7, 7, 7, 6, 5), "ERROR": (0, 0, 0, 0, 1, 1)},
    ("prv", "EQ"): {"DEPTH_LIMITED": (1, 0, 0, 1, 0, 0), "TIMEOUT": (2, 1, 1, 0, 0, 0), "ERROR": (0,) * 6},
    ("prv", "NEQ"): {"DEPTH_LIMITED": (1, 0, 0, 1, 0, 0), "TIMEOUT": (2, 1, 1, 0, 0, 0), "ERROR": (0,) * 6},
}

# Table 7: best-effort classes of the undecided cases.
TABLE7 = {
    ("pasda", "EQ"): {"MAYBE_EQ": (28, 28, 23, 19, 20, 19), "MAYBE_NEQ": (2, 2, 3, 4, 1, 1), "UNKNOWN": (2, 1, 1, 2, 2, 2)},
    ("pasda", "NEQ"): {"MAYBE_EQ": (10, 9, 8, 7, 7, 8), "MAYBE_NEQ": (4, 4, 5, 5, 5, 4), "UNKNOWN": (3, 4, 4, 3, 4, 2)},
    ("ardiff", "EQ"): {"MAYBE_EQ": (8, 9, 10, 11, 11, 11), "MAYBE_NEQ": (5, 1, 1, 1, 0, 0), "UNKNOWN": (3, 6, 7, 7, 8, 7)},
    ("ardiff", "NEQ"): {"MAYBE_EQ": (2,) * 6, "MAYBE_NEQ": (16, 10, 10, 8, 7, 6), "UNKNOWN": (9, 14, 14, 14, 13, 13)},
    ("dse", "EQ"): {"MAYBE_EQ": (5, 6, 6, 6, 6, 6), "MAYBE_NEQ": (19, 20, 21, 21, 21, 21), "UNKNOWN": (8, 10, 11, 11, 10, 10)},
    ("dse", "NEQ"): {"MAYBE_EQ": (2,) * 6, "MAYBE_NEQ": (32, 33, 33, 33, 34, 35), "UNKNOWN": (5, 5, 5, 5, 4, 4)},
    ("prv", "EQ"): {"MAYBE_EQ": (33, 32, 30, 28, 29, 28), "MAYBE_NEQ": (0,) * 6, "UNKNOWN": (3,) * 6},
    ("prv", "NEQ"): {"MAYBE_EQ": (11, 10, 9, 8, 8, 8), "MAYBE_NEQ": (2, 2, 3, 3, 3, 3), "UNKNOWN": (4, 5, 5, 4, 5, 4)},
}

BEST_EFFORT_TEXT = "PASDA: MAYBE_EQ correct for 70-75% of such cases, MAYBE_NEQ for 55-85%"

# Table 9: partition-level results, all 5 runs x 141 cases pooled. None = not reported.
TABLE9_COLUMNS = ("EQ", "NEQ", "MAYBE_EQ", "MAYBE_NEQ", "UNKNOWN", "DEPTH_LIMITED")
TABLE9 = {
    ("pasda", 10): (3298, (52.5, 23.1, 0.0, 2.8, 5.3, 16.3)),
    ("pasda", 30): (4724, (47.8, 20.7, 0.1, 2.1, 6.0, 23.2)),
    ("pasda", 90): (5155, (52.6, 20.0, 0.1, 3.2, 6.1, 18.0)),
    ("pasda", 300): (5502, (50.8, 20.5, 0.1, 3.5, 6.1, 18.9)),
    ("pasda", 900): (5430, (52.3, 20.9, 0.1, 1.3, 6.1, 19.3)),
    ("pasda", 3600): (5535, (51.4, 20.4, 0.1, 1.5, 5.7, 20.9)),
    ("prv", 10): (3500, (51.4, 21.8, None, None, 7.8, 19.0)),
    ("prv", 3600): (5809, (47.4, 19.7, None, None, 6.4, 26.5)),
}

# Table 10: PASDA's mean runtime per step (s). Step numbers as in the results db.
STEPS = ((1, "initialization"), (2, "instrumentation"), (3, "symbolic-execution"),
         (4, "partition-classification"), (5, "program-classification"), (6, "refinement"),
         (7, "finalization"))
TABLE10 = {
    1: (1.1, 1.0, 1.1, 1.2, 1.1, 1.2),
    2: (0.2, 0.3, 0.3, 0.3, 0.3, 0.4),
    3: (4.5, 11.4, 26.4, 67.1, 147.3, 454.3),
    4: (0.3, 1.1, 4.0, 14.0, 36.1, 115.4),
    5: (0.0,) * 6,
    6: (0.0, 0.1, 0.6, 2.5, 10.1, 31.4),
    7: (0.0,) * 6,
}

RUNTIME_TEXT = ("median runtime per case 2.2-4.8 s across tools and timeouts; mean about 5 s at 10 s, "
                "300-700 s at 3600 s")
MEDIAN_RANGE_S = (2.2, 4.8)
MEAN_AT_10_S = 5.0


def at(values, timeout):
    """The published value at `timeout`, or None when the paper did not use that timeout."""
    t = float(timeout)
    for i, pt in enumerate(TIMEOUTS):
        if abs(pt - t) < 1e-9:
            return values[i]
    return None
