"""A pytest plugin that runs Triton's own language tests (kept unmodified
in ``../shared/triton-tests``) and records each case's outcome, for
``run.py``. It works the same under the real Triton and under tritium, so
both are measured with one harness.

Options:
  --suite-sample N     run a deterministic 1-in-N sample of the cases
                       (those whose node id hashes to 0 mod N)
  --suite-log FILE     append one JSON line per case: node id, file,
                       outcome (passed/failed/skipped/error/na), and a
                       failure class; a "started" line comes before each
                       case, so a crash leaves its case named
  --suite-skip FILE    node ids (one per line) not to run (done already)
  --suite-timeout S    a case still running after S seconds fails
                       ("timeout"; the default is 120)

Cases that fail only on a check of Triton's own generated text (PTX
idioms of its code generator) are not applicable to another compiler;
NOT_APPLICABLE lists them with reasons and they are reported as "na".
"""

import json
import os
import re
import signal
import zlib

import pytest

# (node id pattern, failure pattern, reason): a case whose id matches and
# that fails with a message matching the failure pattern checks Triton's own
# generated text, not behaviour; it runs in full, and its outcome is "na"
# only when that check is what fails. At most 5% of the cases may be so.
NOT_APPLICABLE = [
    (r"test_core\.py::test_atomic_rmw\[",
     r"assert 'atom\.global\.gpu\.(relaxed|acquire|release|acq_rel)' in",
     "checks the modifier order of Triton's inline-asm atomics; LLVM's "
     "NVPTX back end writes the same instruction in the PTX ISA's order, "
     "atom.<sem>.gpu.global.<op>"),
]
_NA = [(re.compile(p), re.compile(f), r) for p, f, r in NOT_APPLICABLE]


def pytest_configure(config):
    # Under the real Triton, the suite's own copy of the helper module
    # (run.py names it) stands in for the installed one.
    path = os.environ.get("TRITON_SUITE_INTERNAL_TESTING")
    if path:
        import importlib.util
        import sys
        spec = importlib.util.spec_from_file_location(
            "triton._internal_testing", path)
        module = importlib.util.module_from_spec(spec)
        sys.modules["triton._internal_testing"] = module
        spec.loader.exec_module(module)


def pytest_addoption(parser):
    group = parser.getgroup("triton-suite")
    group.addoption("--suite-sample", type=int, default=1)
    group.addoption("--suite-log", default=None)
    group.addoption("--suite-skip", default=None)
    group.addoption("--suite-timeout", type=float, default=120.0)


def _sampled(nodeid, n):
    return n <= 1 or zlib.crc32(nodeid.encode()) % n == 0


def pytest_collection_modifyitems(config, items):
    n = config.getoption("--suite-sample")
    skip = set()
    path = config.getoption("--suite-skip")
    if path and os.path.exists(path):
        with open(path) as f:
            skip = {line.strip() for line in f if line.strip()}
    keep, drop = [], []
    for item in items:
        nid = _short(item.nodeid)
        (keep if _sampled(nid, n) and nid not in skip else drop).append(item)
    items[:] = keep
    if drop:
        config.hook.pytest_deselected(items=drop)


def _short(nodeid):
    """The node id from the test file's name on."""
    m = re.search(r"(test_[^/]*\.py::.*)$", nodeid)
    return m.group(1) if m else nodeid


def _classify(report):
    """A short failure class: the exception type and the first line of
    its message, with numbers and quoted names folded."""
    text = report.longreprtext or ""
    lines = [l for l in text.splitlines() if l.startswith("E ")]
    head = lines[0][1:].strip() if lines else text.strip().splitlines()[-1:]
    if isinstance(head, list):
        head = head[0] if head else ""
    head = re.sub(r"0x[0-9a-fA-F]+", "0x#", head)
    head = re.sub(r"\d+(\.\d+)?", "#", head)
    head = re.sub(r"/[^\s:'\"]+", "<path>", head)
    return head[:160]


class _Log:
    def __init__(self, path):
        self.path = path

    def write(self, record):
        if not self.path:
            return
        with open(self.path, "a") as f:
            f.write(json.dumps(record) + "\n")
            f.flush()
            os.fsync(f.fileno())


class _Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise _Timeout("the case ran past its time limit")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    log = _Log(item.config.getoption("--suite-log"))
    nid = _short(item.nodeid)
    log.write({"id": nid, "file": nid.split("::")[0], "outcome": "started"})
    item._suite_log = log
    item._suite_outcome = None
    timeout = item.config.getoption("--suite-timeout")
    old = None
    if timeout and hasattr(signal, "SIGALRM"):
        old = signal.signal(signal.SIGALRM, _alarm)
        signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        yield
    finally:
        if old is not None:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old)
    outcome, klass = item._suite_outcome or ("error", "no report")
    if outcome == "failed":
        for pattern, failure, reason in _NA:
            if pattern.search(nid) and failure.search(
                    getattr(item, "_suite_failure_text", "")):
                outcome, klass = "na", reason
                break
    log.write({"id": nid, "file": nid.split("::")[0], "outcome": outcome,
               "class": klass})


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    result = yield
    report = result.get_result()
    outcome = None
    if report.when == "call" or (report.when == "setup" and
                                 report.outcome != "passed"):
        if report.skipped:
            text = str(report.longrepr[2]) if isinstance(
                report.longrepr, tuple) else ""
            outcome = ("skipped", text[:160])
        elif report.failed:
            outcome = ("failed" if report.when == "call" else "error",
                       _classify(report))
            item._suite_failure_text = report.longreprtext or ""
        else:
            outcome = ("passed", "")
    elif report.when == "teardown" and report.failed:
        outcome = ("error", _classify(report))
    if outcome is not None and (getattr(item, "_suite_outcome", None) is None
                                or outcome[0] == "error"):
        item._suite_outcome = outcome
