"""bench's settings (issue 13): the engine's mechanisms beyond the paper are on by default, as
in pasda-jvm; --paper turns them all off for the replication's figures."""
import unittest

import _common  # noqa: F401  (puts ardiff-benchmark on the path)
from pasda_study import bench

MECHANISMS = ("deepen", "induction", "split_time", "deep_search")


def settings(argv):
    """The four switches bench passes to pasda-jvm for `argv`."""
    a = bench.parse_args(argv)
    return tuple(getattr(a, m) for m in MECHANISMS)


class BenchSettingsTest(unittest.TestCase):
    def test_mechanisms_are_on_by_default(self):
        self.assertEqual(settings([]), ("on",) * 4)
        self.assertEqual(settings(["--beyond"]), ("on",) * 4)

    def test_paper_turns_every_mechanism_off(self):
        self.assertEqual(settings(["--paper"]), ("off",) * 4)
        self.assertEqual(settings(["--deepen", "off"]), ("off", "on", "on", "on"))

    def test_paper_and_beyond_contradict(self):
        with self.assertRaises(SystemExit):
            bench.parse_args(["--paper", "--beyond"])


if __name__ == "__main__":
    unittest.main()
