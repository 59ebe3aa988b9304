import unittest

import _common  # noqa: F401
from pasda_study.majority import majority


class MajorityTest(unittest.TestCase):
    def test_most_frequent_wins(self):
        self.assertEqual(majority(["NEQ", "TIMEOUT", "TIMEOUT", "TIMEOUT", "NEQ"]), "TIMEOUT")
        self.assertEqual(majority(["MAYBE_EQ", "EQ", "MAYBE_EQ"]), "MAYBE_EQ")

    def test_single_run(self):
        self.assertEqual(majority(["UNKNOWN"]), "UNKNOWN")

    def test_tie_prefers_eq_then_neq(self):
        self.assertEqual(majority(["TIMEOUT", "EQ", "TIMEOUT", "EQ"]), "EQ")
        self.assertEqual(majority(["NEQ", "EQ"]), "EQ")
        self.assertEqual(majority(["MAYBE_NEQ", "NEQ", "NEQ", "MAYBE_NEQ"]), "NEQ")
        self.assertEqual(majority(["TIMEOUT", "NEQ", "UNKNOWN", "NEQ", "TIMEOUT"]), "NEQ")

    def test_tie_among_undecided_is_deterministic(self):
        self.assertEqual(majority(["TIMEOUT", "MAYBE_EQ"]), "MAYBE_EQ")
        self.assertEqual(majority(["MAYBE_EQ", "TIMEOUT"]), "MAYBE_EQ")
        self.assertEqual(majority(["ERROR", "DEPTH_LIMITED"]), "DEPTH_LIMITED")

    def test_order_does_not_matter(self):
        runs = ["NEQ", "MAYBE_NEQ", "NEQ", "MAYBE_NEQ", "MAYBE_NEQ"]
        self.assertEqual(majority(runs), "MAYBE_NEQ")
        self.assertEqual(majority(reversed(runs)), "MAYBE_NEQ")

    def test_empty_is_an_error(self):
        with self.assertRaises(ValueError):
            majority([])


if __name__ == "__main__":
    unittest.main()
