"""The sweep's tab-separated lines (pasda_study/jobs.py): what is written is read back."""
import argparse
import dataclasses
import unittest

import _common  # noqa: F401
from pasda_study.jobs import Job, JobLine

JOB = Job("Airy/MAX/Eq", "EQ", "snippet", "demo.Airy.oldV", "demo.Airy.newV", "pasda", 2.5, 3, 10, "math")


class JobTest(unittest.TestCase):
    def test_a_job_line_is_read_back(self):
        line = JOB.format()
        self.assertEqual(line.split("\t")[6], "2.5")
        self.assertEqual(Job.parse(line + "\n"), JOB)
        whole = dataclasses.replace(JOB, timeout=10.0)
        self.assertIn("\tpasda\t10\t3\t", whole.format())  # as the engine's --timeout takes it
        self.assertEqual(Job.parse(whole.format()), whole)

    def test_a_short_line_is_refused(self):
        with self.assertRaises(ValueError):
            Job.parse("Airy/MAX/Eq\tEQ\tsnippet")

    def test_parallel_hands_the_columns_to_the_worker_as_its_arguments(self):
        p = argparse.ArgumentParser()
        Job.add_arguments(p)
        self.assertEqual(len(Job.placeholders()), len(JOB.format().split("\t")))
        self.assertEqual(Job.placeholders()[:2], ["{1}", "{2}"])
        self.assertEqual(Job.from_args(p.parse_args(JOB.format().split("\t"))), JOB)


class JobLineTest(unittest.TestCase):
    def test_the_workers_line_is_read_back(self):
        line = JobLine.of(JOB, "TIMEOUT", "killed", 8.25, "limit 7.75 s")
        text = line.format()
        self.assertTrue(text.startswith("JOB\tAiry/MAX/Eq\tpasda\t2.5\t3\tTIMEOUT\tkilled\t8.250\t"), text)
        self.assertEqual(JobLine.parse(text + "\n"), line)

    def test_a_note_stays_on_its_line(self):
        line = JobLine.of(JOB, "ERROR", "died", 0.5, "exit status 2:\tpasda-jvm: error:\nx.class\n" + "y" * 400)
        back = JobLine.parse(line.format())
        self.assertEqual(back.status, "died")
        self.assertTrue(back.note.startswith("exit status 2: pasda-jvm: error: x.class yyy"), back.note)
        self.assertEqual(len(back.note), JobLine.NOTE_MAX)

    def test_other_lines_are_not_job_lines(self):
        for text in ("", "Result: EQ", "JOB\tonly\tthree", "JOB\ta\tpasda\tten\t1\tEQ\tok\t0.1\t",
                     "ssh: connect to host h port 22: Connection refused"):
            self.assertIsNone(JobLine.parse(text), text)


if __name__ == "__main__":
    unittest.main()
