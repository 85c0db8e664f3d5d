"""What the SDK check scripts share: a tally of checks and failures, and `sdk_check`, which runs
one SDK call and counts any exception, warning or WARNING log record as a failure (the SDKs only
warn on some mistakes). `dump()` prints the one JSON object the Rust tests read:
{"checked": N, "failures": [{"case", "check", "error"}]}."""

import json
import logging
import warnings


class _Recorder(logging.Handler):
    def __init__(self):
        super().__init__(level=logging.WARNING)
        self.records = []

    def emit(self, record):
        self.records.append(record)


class Report:
    def __init__(self):
        self.failures = []
        self.checked = 0

    def fail(self, case, check, error):
        self.failures.append({"case": case, "check": check, "error": str(error)[:2000]})

    def sdk_check(self, case, check, fn):
        """Runs fn; any exception, warning or WARNING log record is a failure."""
        self.checked += 1
        recorder = _Recorder()
        root = logging.getLogger()
        root.addHandler(recorder)
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                try:
                    fn()
                except Exception as e:  # noqa: BLE001 - every kind of refusal counts
                    self.fail(case, check, f"{type(e).__name__}: {e}")
                for w in caught:
                    self.fail(case, check, f"warning {w.category.__name__}: {w.message}")
        finally:
            root.removeHandler(recorder)
        for r in recorder.records:
            self.fail(case, check, f"log {r.levelname} {r.name}: {r.getMessage()}")

    def dump(self):
        print(json.dumps({"checked": self.checked, "failures": self.failures}))
