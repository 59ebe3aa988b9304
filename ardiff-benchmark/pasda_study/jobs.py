"""The tab-separated lines of a sweep, each written and read through one dataclass.

Job: one run to do, a line of the job file GNU parallel reads (--colsep TAB); its columns are
the worker's positional arguments ({1} ... {10}), in field order.
JobLine: what the worker prints when the run is over, one line on stdout, read by run-study.
"""
from dataclasses import astuple, dataclass, fields
from typing import ClassVar, Optional

SEP = "\t"


def fmt_timeout(t):
    """Seconds as the engine's --timeout takes them: 10, not 10.0."""
    return str(int(t)) if float(t).is_integer() else repr(float(t))


def _text(value):
    return fmt_timeout(value) if isinstance(value, float) else str(value)


def _typed(cls, texts):
    """An instance of the dataclass cls from one text per field (converted to the field's type)."""
    return cls(*(f.type(t) for f, t in zip(fields(cls), texts)))


@dataclass(frozen=True)
class Job:
    case: str          # e.g. Airy/MAX/Eq
    expected: str      # EQ or NEQ
    method: str
    old_class: str     # dotted class names
    new_class: str
    tool: str
    timeout: float
    run: int           # run index of this configuration, from 1
    depth: int
    arith: str

    def format(self):
        return SEP.join(_text(v) for v in astuple(self))

    @classmethod
    def parse(cls, line):
        texts = line.rstrip("\n").split(SEP)
        if len(texts) != len(fields(cls)):
            raise ValueError(f"a job line has {len(fields(cls))} columns, not {len(texts)}: {line!r}")
        return _typed(cls, texts)

    @classmethod
    def placeholders(cls):
        """GNU parallel's column placeholders, one per field: {1} {2} ..."""
        return [f"{{{i}}}" for i in range(1, len(fields(cls)) + 1)]

    @classmethod
    def add_arguments(cls, parser):
        """The fields as positional arguments of an argparse parser (the worker's command line)."""
        for f in fields(cls):
            parser.add_argument(f.name, type=f.type)

    @classmethod
    def from_args(cls, args):
        return cls(*(getattr(args, f.name) for f in fields(cls)))


@dataclass(frozen=True)
class JobLine:
    """status: `ok` (the engine recorded the run), `killed` (the harness killed it and recorded
    TIMEOUT), `died` (the engine exited without recording; the harness recorded ERROR), `failed`
    (nothing could be recorded; the run is done again on resume) or `interrupted` (the sweep was
    stopped; nothing recorded)."""
    TAG: ClassVar[str] = "JOB"
    NOTE_MAX: ClassVar[int] = 300

    case: str
    tool: str
    timeout: float
    run: int
    result: str        # the run's class, `-` when nothing was recorded
    status: str
    seconds: float
    note: str = ""

    def format(self):
        note = " ".join(self.note.split())[:self.NOTE_MAX]  # one line, no tab
        return SEP.join([self.TAG, self.case, self.tool, fmt_timeout(self.timeout), str(self.run), self.result,
                         self.status, f"{self.seconds:.3f}", note])

    @classmethod
    def parse(cls, line) -> Optional["JobLine"]:
        """The job line in `line`, or None when it is something else (e.g. a message of ssh)."""
        texts = line.rstrip("\n").split(SEP)
        if texts[0] != cls.TAG or len(texts) != 1 + len(fields(cls)):
            return None
        try:
            return _typed(cls, texts[1:])
        except ValueError:
            return None

    @classmethod
    def of(cls, job, result, status, seconds, note=""):
        return cls(job.case, job.tool, job.timeout, job.run, result, status, seconds, note)
