"""``tritium check``: runs corpus kernels on each executor and on the float64
reference, diffs every output, prints a table (kernel x executor), writes
report.json and report.md, prints a replay command for every failure and
exits 1 when anything failed.

    python -m conformance.harness [KERNELS...] [--executors interp,cuda]
        [--seed S] [--cases N] [--case I] [--report-dir DIR] [--require cuda]

KERNELS are manifest names, shell patterns over them, corpus file stems, or
paths of kernel files outside the corpus (e.g. conformance/planted/*.py);
none means the whole corpus. Case inputs come from numpy's generator seeded
with (seed, kernel name, case index), so the same seed gives the same inputs
and the same verdict.
"""

import argparse
import contextlib
import ctypes
import fnmatch
import importlib.util
import json
import os
import sys
import tempfile
import time
import traceback
import zlib

import numpy as np

from . import compare, formats
from .executors import EXECUTORS
from .manifest import Bf16, Manifest

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "kernels")
DEFAULT_SEED = 1234


class Namespace(dict):
    """A dict whose keys read as attributes too (``p.n``, ``a.x``)."""

    def __getattr__(self, key):
        try:
            return self[key]
        except KeyError:
            raise AttributeError(key) from None


# -- loading -----------------------------------------------------------------

def load_file(path):
    """The manifests of one kernel file."""
    path = os.path.abspath(path)
    stem = os.path.splitext(os.path.basename(path))[0]
    in_corpus = os.path.dirname(path) == CORPUS
    modname = ("conformance.kernels." + stem if in_corpus
               else "conformance_extra_%08x_%s" % (zlib.crc32(
                   path.encode()), stem))
    if modname in sys.modules:
        module = sys.modules[modname]
    else:
        spec = importlib.util.spec_from_file_location(modname, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[modname] = module
        spec.loader.exec_module(module)
    found = list(getattr(module, "MANIFESTS", []))
    if hasattr(module, "MANIFEST"):
        found.insert(0, module.MANIFEST)
    for m in found:
        if not isinstance(m, Manifest):
            raise TypeError("%s: MANIFEST(S) must hold Manifest objects"
                            % path)
        m.file = path
        m.in_corpus = in_corpus
        m.stem = stem
    return found


def corpus_files():
    return sorted(os.path.join(CORPUS, f) for f in os.listdir(CORPUS)
                  if f.endswith(".py") and not f.startswith("_"))


def select(patterns):
    """(manifests, load errors) for the KERNELS arguments."""
    errors = []
    manifests = []
    explicit = [p for p in patterns if p.endswith(".py") or os.sep in p]
    names = [p for p in patterns if p not in explicit]
    for path in explicit:
        try:
            manifests.extend(load_file(path))
        except Exception:  # noqa: BLE001 - reported as a failure
            errors.append((path, traceback.format_exc()))
    if names or not patterns:
        for path in corpus_files():
            stem = os.path.splitext(os.path.basename(path))[0]
            try:
                found = load_file(path)
            except Exception:  # noqa: BLE001 - reported as a failure
                if not names or any(fnmatch.fnmatch(stem, n) for n in names):
                    errors.append((path, traceback.format_exc()))
                continue
            for m in found:
                if not names or any(fnmatch.fnmatchcase(m.name, n) or
                                    fnmatch.fnmatchcase(stem, n)
                                    for n in names):
                    manifests.append(m)
        unmatched = [n for n in names if not any(
            fnmatch.fnmatchcase(m.name, n) or fnmatch.fnmatchcase(m.stem, n)
            for m in manifests)]
        for n in unmatched:
            errors.append((n, "no corpus kernel matches '%s'" % n))
    seen, unique = set(), []
    for m in manifests:
        if (m.file, m.name) not in seen:
            seen.add((m.file, m.name))
            unique.append(m)
    return unique, errors


# -- one case ----------------------------------------------------------------

def case_rng(seed, name, index):
    return np.random.default_rng([seed, zlib.crc32(name.encode()), index])


SPECIAL_VALUES = (np.nan, np.inf, -np.inf, -0.0)


def inject_specials(host, names, rng):
    """Seeds the named float inputs with NaN, +Inf, -Inf and -0 at random
    positions (in place)."""
    for name in names:
        v = host[name]
        if isinstance(v, Bf16):
            vals = v.float()
        elif isinstance(v, np.ndarray) and v.dtype.kind == "f":
            vals = v.astype(np.float64)
        else:
            continue
        flat = vals.reshape(-1)
        if flat.size == 0:
            continue
        count = min(flat.size, len(SPECIAL_VALUES) * max(1, flat.size // 64))
        pos = rng.choice(flat.size, size=count, replace=False)
        for i, p in enumerate(pos):
            flat[p] = SPECIAL_VALUES[i % len(SPECIAL_VALUES)]
        if isinstance(v, Bf16):
            host[name] = Bf16.from_float(vals)
        else:
            host[name] = vals.astype(v.dtype)


def copy_inputs(host):
    return Namespace({k: (v.copy() if hasattr(v, "copy") else v)
                      for k, v in host.items()})


def _libc_flush():
    try:
        ctypes.CDLL(None).fflush(None)
    except Exception:  # noqa: BLE001 - best effort
        pass


@contextlib.contextmanager
def capture_stdout():
    """Captures what the process writes to file descriptor 1 (the C++
    interpreter's printf as well as Python's print)."""
    sys.stdout.flush()
    _libc_flush()
    saved = os.dup(1)
    box = {"text": ""}
    with tempfile.TemporaryFile(mode="w+b") as tmp:
        os.dup2(tmp.fileno(), 1)
        try:
            yield box
        finally:
            sys.stdout.flush()
            _libc_flush()
            os.dup2(saved, 1)
            os.close(saved)
            tmp.seek(0)
            box["text"] = tmp.read().decode("utf-8", "replace")


def output_format(value, out, p):
    if callable(out.fmt):
        return out.fmt(p)
    if out.fmt:
        return out.fmt
    if isinstance(value, Bf16):
        return "bf16"
    value = np.asarray(value)
    for name, st in formats.STORAGE.items():
        if name in ("bf16",) or name in formats.FP8:
            continue
        if value.dtype == np.dtype(st):
            return name
    raise TypeError("output of unsupported dtype %s" % value.dtype)


def output_values(value, fmt):
    if isinstance(value, Bf16):
        return value.float()
    if fmt in formats.FP8:
        return formats.decode(value, fmt)
    return np.asarray(value)


def run_case(m, index, seed, executor):
    """Runs case `index` of manifest `m` on `executor`; returns a dict
    (status: pass/fail/error/xfail/xpass, params, message, outputs)."""
    p = Namespace(m.case_params(index))
    record = {"case": index, "params": {k: _jsonable(v) for k, v in
                                        p.items()}}
    start = time.perf_counter()
    try:
        rng = case_rng(seed, m.name, index)
        host = Namespace(m.make(p, rng))
        if p.special:
            inject_specials(host, m.specials, rng)
        with np.errstate(all="ignore"):
            ref = m.reference(copy_inputs(host), p)
    except Exception:  # noqa: BLE001 - a broken manifest is a failure
        record.update(status="error", message="manifest error:\n" +
                      traceback.format_exc(limit=4))
        return _finish(record, m, index, start, executor.name)
    ok = True
    messages = []
    outputs = {}
    try:
        dev = Namespace({k: executor.to_device(v) for k, v in host.items()})
        if m.capture:
            with capture_stdout() as box:
                m.run(dev, p)
                executor.synchronize()
        else:
            m.run(dev, p)
            executor.synchronize()
        got = {k: executor.to_host(dev[k]) for k in m.outputs}
    except Exception as e:  # noqa: BLE001 - a kernel error is a failure
        msg = "%s: %s" % (type(e).__name__, e)
        record.update(status="error", message=msg.strip())
        return _finish(record, m, index, start, executor.name)
    for name, out in m.outputs.items():
        fmt = output_format(host.get(name, got[name]), out, p)
        tolerance = out.tol(p) if callable(out.tol) else out.tol
        tolerance = tolerance or compare.tol(fmt, out.k)
        with np.errstate(all="ignore"):
            res = compare.compare(output_values(got[name], fmt), ref[name],
                                  fmt, tolerance, unordered=out.unordered,
                                  scale=ref.get(name + ":scale"))
        outputs[name] = dict(fmt=fmt, tol=repr(tolerance), ok=res.ok,
                             message=res.message,
                             **{k: _jsonable(v) for k, v in
                                res.metrics.items()})
        if not res.ok:
            ok = False
            messages.append("%s: %s" % (name, res.message))
    if m.capture and m.check_stdout is not None:
        res = m.check_stdout(box["text"], copy_inputs(host), p)
        outputs["stdout"] = dict(fmt="text", tol="exact", ok=res.ok,
                                 message=res.message, rel_err=0.0 if res.ok
                                 else float("inf"))
        if not res.ok:
            ok = False
            messages.append("stdout: %s" % res.message)
    record.update(status="pass" if ok else "fail",
                  message="; ".join(messages), outputs=outputs)
    return _finish(record, m, index, start, executor.name)


def run_case_isolated(m, index, seed, executor):
    """run_case in a child process, so that a crash (a signal) of the
    executor is a failed case rather than the end of the run."""
    import subprocess
    target = m.name if m.in_corpus else m.file
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [sys.executable, "-m", "conformance.harness", target, "--case",
               str(index), "--seed", str(seed), "--executors", executor.name,
               "--report-dir", tmp, "--no-isolate"]
        start = time.perf_counter()
        proc = subprocess.run(cmd, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
        path = os.path.join(tmp, "report.json")
        if proc.returncode < 0 or not os.path.exists(path):
            why = ("killed by signal %d" % -proc.returncode
                   if proc.returncode < 0 else "exit %d" % proc.returncode)
            record = {"case": index, "params": {
                k: _jsonable(v) for k, v in m.case_params(index).items()},
                "status": "error",
                "message": "the run crashed (%s): %s" % (
                    why, proc.stdout.strip()[-300:])}
            return _finish(record, m, index, start, executor.name)
        with open(path) as f:
            report = json.load(f)
        for k in report["kernels"]:
            if k["kernel"] == m.name:
                return k["cases"][0]
    record = {"case": index, "status": "error",
              "message": "isolated run reported nothing"}
    return _finish(record, m, index, start, executor.name)


def _finish(record, m, index, start, executor):
    record["seconds"] = round(time.perf_counter() - start, 4)
    reason = m.xfail_reason(index, executor)
    if reason:
        record["xfail_reason"] = reason
        if record["status"] in ("fail", "error"):
            record["status"] = "xfail"
        elif record["status"] == "pass":
            record["status"] = "xpass"
    return record


def _jsonable(v):
    if isinstance(v, (np.generic,)):
        v = v.item()
    if isinstance(v, float) and not np.isfinite(v):
        return repr(v)
    if isinstance(v, (list, tuple)):
        return [_jsonable(x) for x in v]
    return v


# -- the run -----------------------------------------------------------------

def replay_command(prog, m, index, seed, executor):
    target = m.name if m.in_corpus else os.path.relpath(m.file)
    cmd = "%s %s --case %d --seed %d" % (prog, target, index, seed)
    if executor != "interp":
        cmd += " --executors %s" % executor
    return cmd


def worst_error(records):
    worst = None
    for r in records:
        for o in r.get("outputs", {}).values():
            e = o.get("rel_err")
            if isinstance(e, str):
                e = float(e)
            if e is not None and (worst is None or e > worst):
                worst = e
    return worst


def fmt_err(e, exact):
    if e is None:
        return "-"
    if exact and e == 0:
        return "exact"
    return "%.2e" % e


def _watchdog(seconds, prog, m, index, seed, executor):
    """A timer that ends the process when one case runs past `seconds`."""
    if not seconds or seconds <= 0:
        return None
    import threading

    def fire():
        sys.stdout.flush()
        print("TIMEOUT %s [%s] case %d after %g s\n  replay: %s" % (
            m.name, executor, index, seconds,
            replay_command(prog, m, index, seed, executor)), flush=True)
        os._exit(124)

    timer = threading.Timer(seconds, fire)
    timer.daemon = True
    timer.start()
    return timer


def parse_args(argv):
    ap = argparse.ArgumentParser(
        prog=os.environ.get("TRITIUM_CHECK_PROG", "tritium check"),
        description="Run the conformance corpus on each executor and diff "
                    "against float64 references.")
    ap.add_argument("kernels", nargs="*", metavar="KERNELS",
                    help="manifest names, patterns, corpus file stems or "
                         "kernel file paths (default: the whole corpus)")
    ap.add_argument("--executors", default="interp,cuda",
                    help="comma-separated executors (interp, cuda)")
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED)
    ap.add_argument("--cases", type=int, default=None,
                    help="cases per kernel, never fewer than the manifest's "
                         "covering set (the default)")
    ap.add_argument("--case", type=int, action="append", default=None,
                    help="run only this case index (repeatable)")
    ap.add_argument("--report-dir", default="conformance-report")
    ap.add_argument("--require", default="",
                    help="comma-separated executors that must be available "
                         "(an unavailable one fails instead of skipping)")
    ap.add_argument("--timeout", type=float, default=0,
                    help="seconds one case may take; past it the run stops "
                         "with exit status 124 and names the case and its "
                         "replay command (a hung GPU kernel cannot be "
                         "interrupted otherwise)")
    ap.add_argument("--isolate", action="store_true",
                    help="run every case in its own process (a crash fails "
                         "the case instead of ending the run)")
    ap.add_argument("--no-isolate", action="store_true",
                    help=argparse.SUPPRESS)
    ap.add_argument("--list", action="store_true",
                    help="list the selected kernels and their cases")
    ap.add_argument("-v", "--verbose", action="store_true",
                    help="print every case")
    return ap.parse_args(argv)


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    prog = os.environ.get("TRITIUM_CHECK_PROG", "tritium check")
    manifests, load_errors = select(args.kernels)
    if args.list:
        for m in manifests:
            print("%-28s %3d cases  %s" % (m.name, m.base_cases,
                                           os.path.relpath(m.file)))
        for path, err in load_errors:
            print("error: %s: %s" % (path, err.strip().splitlines()[-1]))
        return 1 if load_errors else 0
    names = [e for e in args.executors.split(",") if e]
    required = [e for e in args.require.split(",") if e]
    for e in names + required:
        if e not in EXECUTORS:
            print("error: unknown executor '%s' (known: %s)"
                  % (e, ", ".join(EXECUTORS)), file=sys.stderr)
            return 2
    for e in required:
        if e not in names:
            names.append(e)
    executors, skipped = [], {}
    for e in names:
        ex = EXECUTORS[e]()
        reason = ex.unavailable()
        if reason is None:
            executors.append(ex)
        else:
            skipped[e] = reason
    started = time.perf_counter()
    rows, failures, kernels_json = [], [], []
    for m in manifests:
        if args.case is not None:
            indices = args.case
        else:
            indices = range(max(args.cases or 0, m.base_cases))
        for ex in executors:
            t0 = time.perf_counter()
            records = []
            for i in indices:
                watchdog = _watchdog(args.timeout, prog, m, i, args.seed,
                                     ex.name)
                try:
                    if (m.isolate or args.isolate) and not args.no_isolate:
                        r = run_case_isolated(m, i, args.seed, ex)
                    else:
                        r = run_case(m, i, args.seed, ex)
                finally:
                    if watchdog:
                        watchdog.cancel()
                if r["status"] in ("fail", "error"):
                    r["replay"] = replay_command(prog, m, i, args.seed,
                                                 ex.name)
                    failures.append((m, ex.name, r))
                records.append(r)
                if args.verbose:
                    print("  %s[%d] %s %s %.2fs %s" % (
                        m.name, i, ex.name, r["status"], r["seconds"],
                        r.get("message", "")[:200]), flush=True)
            counts = {s: sum(1 for r in records if r["status"] == s)
                      for s in ("pass", "fail", "error", "xfail", "xpass")}
            exact = all(o.get("fmt") in formats.INTS + ("bool", "text")
                        for r in records for o in r.get("outputs",
                                                        {}).values())
            rows.append(dict(kernel=m.name, executor=ex.name,
                             cases=len(records), **counts,
                             worst=worst_error(records), exact=exact,
                             seconds=round(time.perf_counter() - t0, 3)))
            kernels_json.append(dict(kernel=m.name,
                                     file=os.path.relpath(m.file),
                                     executor=ex.name, cases=records))
    elapsed = time.perf_counter() - started
    missing = [e for e in required if e in skipped]
    failed = bool(failures or load_errors or missing)
    table = render_table(rows)
    print(table)
    for e, reason in skipped.items():
        print("%s: skipped: %s%s" % (e, reason, " (required: FAIL)"
                                     if e in missing else ""))
    for path, err in load_errors:
        print("LOAD ERROR %s:\n%s" % (os.path.relpath(path) if os.path.exists(
            path) else path, err))
    for m, e, r in failures:
        print("FAIL %s [%s] case %d %s: %s" % (m.name, e, r["case"],
                                              _short(r["params"]),
                                              r["message"]))
        print("  replay: %s" % r["replay"])
    summary = dict(kernels=len(manifests),
                   cases=sum(r.get("cases", 0) for r in rows),
                   failures=len(failures), load_errors=len(load_errors),
                   xfail=sum(r.get("xfail", 0) for r in rows),
                   xpass=sum(r.get("xpass", 0) for r in rows),
                   seconds=round(elapsed, 2))
    print("%d kernels, %d cases, %d failures, %d xfail, %d xpass in %.1f s"
          % (summary["kernels"], summary["cases"], summary["failures"],
             summary["xfail"], summary["xpass"], elapsed))
    write_reports(args, rows, kernels_json, failures, load_errors, skipped,
                  summary, table)
    if missing:
        print("required executor unavailable: %s" % ", ".join(missing))
    return 1 if failed else 0


def _short(params):
    return "(" + ", ".join("%s=%s" % (k, v) for k, v in params.items()
                           if not (k == "special" and not v)) + ")"


def render_table(rows):
    head = ("kernel", "executor", "cases", "pass", "fail", "xfail", "worst",
            "time")
    lines = []
    for r in rows:
        if "skipped" in r:
            lines.append((r["kernel"], r["executor"], "-", "-", "-", "-",
                          "skipped", "-"))
            continue
        lines.append((r["kernel"], r["executor"], str(r["cases"]),
                      str(r["pass"] + r["xpass"]),
                      str(r["fail"] + r["error"]), str(r["xfail"]),
                      fmt_err(r["worst"], r["exact"]),
                      "%.2fs" % r["seconds"]))
    widths = [max(len(h), *(len(x[i]) for x in lines)) if lines else len(h)
              for i, h in enumerate(head)]
    out = ["  ".join(h.ljust(w) for h, w in zip(head, widths)),
           "  ".join("-" * w for w in widths)]
    for x in lines:
        out.append("  ".join(v.ljust(w) for v, w in zip(x, widths)))
    return "\n".join(out)


def write_reports(args, rows, kernels_json, failures, load_errors, skipped,
                  summary, table):
    os.makedirs(args.report_dir, exist_ok=True)
    report = dict(seed=args.seed, executors=args.executors,
                  skipped=skipped, summary=summary,
                  table=[{k: _jsonable(v) for k, v in r.items()}
                         for r in rows],
                  load_errors=[dict(file=p, error=e) for p, e in
                               load_errors],
                  kernels=kernels_json)
    with open(os.path.join(args.report_dir, "report.json"), "w") as f:
        json.dump(report, f, indent=1, default=_jsonable)
    md = ["# Conformance report", "",
          "seed %d, executors %s; %d kernels, %d cases, %d failures, "
          "%d xfail, %.1f s" % (args.seed, args.executors,
                                summary["kernels"], summary["cases"],
                                summary["failures"], summary["xfail"],
                                summary["seconds"]), ""]
    for e, reason in skipped.items():
        md.append("- %s: skipped: %s" % (e, reason))
    md += ["", "| kernel | executor | cases | pass | fail | xfail | worst "
           "rel. error | time |", "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        if "skipped" in r:
            md.append("| %s | %s | - | - | - | - | skipped | - |"
                      % (r["kernel"], r["executor"]))
            continue
        md.append("| %s | %s | %d | %d | %d | %d | %s | %.2fs |" % (
            r["kernel"], r["executor"], r["cases"], r["pass"] + r["xpass"],
            r["fail"] + r["error"], r["xfail"],
            fmt_err(r["worst"], r["exact"]), r["seconds"]))
    if failures or load_errors:
        md += ["", "## Failures", ""]
        for m, e, r in failures:
            md.append("- **%s** [%s] case %d `%s`: %s  \n  replay: `%s`" % (
                m.name, e, r["case"], _short(r["params"]),
                r["message"].replace("\n", " "), r["replay"]))
        for p, err in load_errors:
            md.append("- load error `%s`: %s" % (
                p, err.strip().splitlines()[-1]))
    xf = [(k["kernel"], k["executor"], c) for k in kernels_json
          for c in k["cases"] if c["status"] in ("xfail", "xpass")]
    if xf:
        md += ["", "## Known failures (xfail)", ""]
        for name, e, c in xf:
            md.append("- %s [%s] case %d (%s): %s" % (
                name, e, c["case"], c["status"], c["xfail_reason"]))
    with open(os.path.join(args.report_dir, "report.md"), "w") as f:
        f.write("\n".join(md) + "\n")


if __name__ == "__main__":
    sys.exit(main())
