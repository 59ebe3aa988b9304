"""ardiff-benchmark/eq-audit: it runs the EQ methods of a release diff on random inputs in a
real JVM and must report the one whose releases differ (a false EQ planted in a made-up diff),
not the ones that are the same, the one returning a shared constant of an own class, or the
one that reads the clock; an instance method runs on receivers its class's constructor builds
alike in both releases."""
import json
import os
import shutil
import subprocess
import tempfile
import unittest
import zipfile

from _common import CI, HARNESS

JAVA = os.environ.get("PASDA_JAVA", shutil.which("java") or "")
JAVAC = os.environ.get("PASDA_JAVAC", shutil.which("javac") or "")
MISSING = None if JAVA and JAVAC and os.access(JAVA, os.X_OK) and os.access(JAVAC, os.X_OK) else \
    f"java ({JAVA!r}) or javac ({JAVAC!r}) is missing (with CI=true the test fails instead)"

SOURCE = """package audit;
public class Ops {
    public static int twice(int x) { return %s; }
    public static String trim(String s) { return s == null ? null : s.strip(); }
    public static int[] fill(int[] a, int v) { if (a != null) java.util.Arrays.fill(a, v); return a; }
    public static long now() { return System.nanoTime(); }
    public static Ops shared() { return ONE; }
    public int own() { return %s; }
    public static int id(Ops o) { return 0; }
    private static final Ops ONE = new Ops();
}
"""


def jar(work, side, twice, own):
    src = os.path.join(work, side, "src", "audit")
    os.makedirs(src)
    with open(os.path.join(src, "Ops.java"), "w", encoding="utf-8") as f:
        f.write(SOURCE % (twice, own))
    classes = os.path.join(work, side, "classes")
    subprocess.run([JAVAC, "-d", classes, os.path.join(src, "Ops.java")], check=True)
    path = os.path.join(work, side + ".jar")
    with zipfile.ZipFile(path, "w") as z:
        z.write(os.path.join(classes, "audit", "Ops.class"), "audit/Ops.class")
    return path


def method(name, desc, category="changed", result="EQ"):
    return {"class": "audit.Ops", "method": name, "descriptor": desc, "category": category, "result": result}


@unittest.skipIf(MISSING is not None and not CI, MISSING or "")
class EqAudit(unittest.TestCase):
    def setUp(self):
        self.assertIsNone(MISSING)
        self.work = tempfile.mkdtemp(prefix="eq-audit-test-")

    def tearDown(self):
        shutil.rmtree(self.work, ignore_errors=True)

    def audit(self, methods, old_twice="x * 2", new_twice="x << 1", new_own="1"):
        old, new = jar(self.work, "old", old_twice, "1"), jar(self.work, "new", new_twice, new_own)
        diff = os.path.join(self.work, "diff.json")
        with open(diff, "w", encoding="utf-8") as f:
            json.dump({"kind": "release", "settings": {"old_path": old, "new_path": new}, "methods": methods}, f)
        return subprocess.run([os.path.join(HARNESS, "eq-audit"), "--json", diff, "--inputs", "200",
                               "--java", JAVA, "--javac", JAVAC],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def test_a_planted_false_eq_is_contradicted(self):
        # twice: x * 2 against x + 1 differs on almost every input; the rest are the same.
        p = self.audit([method("twice", "(I)I"), method("trim", "(Ljava/lang/String;)Ljava/lang/String;"),
                        method("fill", "([II)[I"), method("shared", "()Laudit/Ops;"), method("now", "()J"),
                        method("own", "()I"), method("id", "(Laudit/Ops;)I")],
                       new_twice="x + 1")
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        self.assertIn("CONTRADICTED EQ: audit.Ops.twice(I)I", p.stdout)
        self.assertIn("contradicted EQ verdicts: 1", p.stdout)
        self.assertIn("run 6 ", p.stdout)  # own() on a receiver its constructor builds
        self.assertIn("a parameter of type audit.Ops", p.stdout)  # id(Ops) is skipped, with its reason

    def test_an_instance_method_runs_on_receivers_built_alike(self):
        p = self.audit([method("own", "()I")], new_own="2")
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        self.assertIn("CONTRADICTED EQ: audit.Ops.own()I", p.stdout)

    def test_equal_releases_contradict_nothing(self):
        # x * 2 and x << 1 agree on every int, overflow included; now() differs from call to
        # call (unstable); shared() returns one object of the release's own class per release.
        p = self.audit([method("twice", "(I)I"), method("now", "()J"), method("shared", "()Laudit/Ops;"),
                        method("fill", "([II)[I"), method("twice", "(I)I", result="MAYBE_NEQ")])
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertIn("contradicted EQ verdicts: 0", p.stdout)
        self.assertIn("run 4 ", p.stdout)  # the MAYBE_NEQ entry is not an EQ verdict to check

    def test_bad_input_is_one_line_and_exit_2(self):
        p = subprocess.run([os.path.join(HARNESS, "eq-audit"), "--json", os.path.join(self.work, "absent.json")],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.assertEqual(p.returncode, 2)
        self.assertEqual(len(p.stderr.strip().splitlines()), 1, p.stderr)
        self.assertIn("absent.json", p.stderr)


if __name__ == "__main__":
    unittest.main()
