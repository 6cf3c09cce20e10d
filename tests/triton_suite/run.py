"""Runs Triton's own language tests (``../shared/triton-tests/language``,
unmodified) against tritium or against the installed Triton, one pytest
process per test file, and reports per file how many cases passed, failed
and were skipped, with each failure class and its count.

    python tests/triton_suite/run.py --impl tritium --device cuda \\
        --sample 30 --out OUT [FILES...]
    python tests/triton_suite/run.py --impl tritium --device cpu \\
        --interpret ...                      # TRITON_INTERPRET=1
    python tests/triton_suite/run.py --impl triton ...   # the real Triton
    python tests/triton_suite/run.py --compare OUT/triton.jsonl \\
        OUT/tritium.jsonl                    # side by side

A case that crashes its process (a segfault, an abort) is recorded as
"crashed" and the file is run again without it. Each run appends to
OUT/<impl>[-interp].jsonl (one line per case, see plugin.py) and writes
OUT/<impl>[-interp].md.
"""

import argparse
import collections
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DEFAULT_SUITE = os.path.join(os.path.dirname(ROOT), "shared", "triton-tests")
DEFAULT_FILES = ["test_core.py", "test_standard.py", "test_random.py",
                 "test_tuple.py", "test_block_pointer.py"]


def read_log(path):
    """{case id: (outcome, class)} from a log; a case whose last line is
    "started" crashed its process."""
    cases = {}
    if not os.path.exists(path):
        return cases
    with open(path) as f:
        for line in f:
            try:
                r = json.loads(line)
            except ValueError:
                continue
            if r["outcome"] == "started":
                cases[r["id"]] = ("crashed", "the process died in this case")
            else:
                cases[r["id"]] = (r["outcome"], r.get("class", ""))
    return cases


def run_file(args, name, log, env):
    """Runs one test file until every sampled case has an outcome."""
    path = os.path.join(args.suite, "language", name)
    skip = log + ".skip"
    restarts = 0
    while True:
        done = read_log(log)
        with open(skip, "w") as f:
            f.write("\n".join(done) + "\n")
        cmd = [sys.executable, "-m", "pytest", "-p", "plugin",
               "-p", "no:cacheprovider", "-q", "-rN", "--tb=short",
               "--device", args.device, "--suite-log", log,
               "--suite-skip", skip, "--suite-sample", str(args.sample),
               "--suite-timeout", str(args.timeout), path]
        if args.k:
            cmd += ["-k", args.k]
        t0 = time.time()
        proc = subprocess.run(cmd, env=env, cwd=os.path.join(args.suite,
                                                              "language"),
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True, errors="replace")
        after = read_log(log)
        crashed = [c for c, (o, _) in after.items() if o == "crashed"
                   and c not in done]
        tail = proc.stdout.strip().splitlines()[-1:] or [""]
        print("  %s: exit %d in %.0f s, %d cases%s; %s" % (
            name, proc.returncode, time.time() - t0, len(after) - len(done),
            ", crashed in %s" % crashed[0] if crashed else "", tail[0]),
            flush=True)
        if proc.returncode in (2, 3, 4) and len(after) == len(done):
            # A collection or usage error: the whole file fails.
            lines = [l for l in proc.stdout.splitlines()
                     if l.startswith("E ")][:1] or tail
            with open(log, "a") as f:
                f.write(json.dumps({"id": name + "::<collection>",
                                    "file": name, "outcome": "error",
                                    "class": "collection: " + lines[0][:150]})
                        + "\n")
            return
        if not crashed or restarts >= args.max_restarts:
            return
        restarts += 1


def summarize(cases):
    per_file = collections.OrderedDict()
    classes = collections.Counter()
    for cid, (outcome, klass) in sorted(cases.items()):
        f = cid.split("::")[0]
        per_file.setdefault(f, collections.Counter())[outcome] += 1
        if outcome in ("failed", "error", "crashed"):
            classes[(outcome, klass)] += 1
    return per_file, classes


def report(cases, title):
    per_file, classes = summarize(cases)
    out = ["## " + title, "",
           "| file | passed | failed | error | crashed | skipped | n/a |",
           "|---|---|---|---|---|---|---|"]
    total = collections.Counter()
    for f, c in per_file.items():
        total.update(c)
        out.append("| %s | %d | %d | %d | %d | %d | %d |" % (
            f, c["passed"], c["failed"], c["error"], c["crashed"],
            c["skipped"], c["na"]))
    out.append("| **all** | %d | %d | %d | %d | %d | %d |" % (
        total["passed"], total["failed"], total["error"], total["crashed"],
        total["skipped"], total["na"]))
    out += ["", "Failure classes:", ""]
    for (outcome, klass), n in classes.most_common():
        out.append("- %d × %s: %s" % (n, outcome, klass))
    return "\n".join(out) + "\n"


def compare(a_path, b_path):
    a, b = read_log(a_path), read_log(b_path)
    files = sorted({c.split("::")[0] for c in a} | {c.split("::")[0]
                                                     for c in b})
    out = ["| file | A passed | A failed | A skipped | B passed | B failed |"
           " B skipped | B n/a | B passes of A's passes |",
           "|---|---|---|---|---|---|---|---|---|"]
    tot_a = tot_b = 0
    for f in files:
        ca = collections.Counter(o for c, (o, _) in a.items()
                                 if c.startswith(f + "::"))
        cb = collections.Counter(o for c, (o, _) in b.items()
                                 if c.startswith(f + "::"))
        pa = [c for c, (o, _) in a.items() if c.startswith(f + "::")
              and o == "passed"]
        pb = [c for c in pa if b.get(c, ("",))[0] in ("passed", "na")]
        tot_a += len(pa)
        tot_b += len(pb)
        out.append("| %s | %d | %d | %d | %d | %d | %d | %d | %d/%d |" % (
            f, ca["passed"], ca["failed"] + ca["error"] + ca["crashed"],
            ca["skipped"], cb["passed"],
            cb["failed"] + cb["error"] + cb["crashed"], cb["skipped"],
            cb["na"], len(pb), len(pa)))
    na = sum(1 for o, _ in b.values() if o == "na")
    out.append("")
    out.append("B passes %d of the %d cases A passes (%.1f%%); %d of B's %d "
               "cases (%.1f%%) are not applicable (plugin.py says why)" % (
                   tot_b, tot_a, 100.0 * tot_b / max(tot_a, 1), na, len(b),
                   100.0 * na / max(len(b), 1)))
    return "\n".join(out) + "\n"


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("files", nargs="*")
    p.add_argument("--impl", choices=("tritium", "triton"),
                   default="tritium")
    p.add_argument("--device", default="cuda")
    p.add_argument("--interpret", action="store_true",
                   help="TRITON_INTERPRET=1 (use with --device cpu)")
    p.add_argument("--sample", type=int, default=1)
    p.add_argument("--timeout", type=float, default=120.0)
    p.add_argument("--max-restarts", type=int, default=30)
    p.add_argument("-k", default=None)
    p.add_argument("--suite", default=DEFAULT_SUITE)
    p.add_argument("--out", default="triton-suite-report")
    p.add_argument("--compare", nargs=2, metavar=("A", "B"))
    args = p.parse_args()
    if args.compare:
        print(compare(*args.compare))
        return 0
    if not os.path.isdir(os.path.join(args.suite, "language")):
        print("run.py: no test suite at %s (--suite)" % args.suite,
              file=sys.stderr)
        return 2
    os.makedirs(args.out, exist_ok=True)
    tag = args.impl + ("-interp" if args.interpret else "")
    log = os.path.abspath(os.path.join(args.out, tag + ".jsonl"))
    env = dict(os.environ)
    paths = [HERE]
    if args.impl == "tritium":
        paths += [os.path.join(ROOT, "python"),
                  os.path.join(ROOT, "python", "compat")]
    else:
        # The installed Triton's own helper module lacks names the suite
        # imports; the suite's copy is loaded in its place (plugin.py).
        env["TRITON_SUITE_INTERNAL_TESTING"] = os.path.join(
            args.suite, "_internal_testing.py")
    env["PYTHONPATH"] = os.pathsep.join(
        paths + [x for x in [env.get("PYTHONPATH")] if x])
    env["PYTHONUNBUFFERED"] = "1"
    if args.interpret:
        env["TRITON_INTERPRET"] = "1"
    else:
        env.pop("TRITON_INTERPRET", None)
    t0 = time.time()
    for name in args.files or DEFAULT_FILES:
        run_file(args, name, log, env)
    text = report(read_log(log), "%s, device %s, 1 in %d, %.0f s" % (
        tag, args.device, args.sample, time.time() - t0))
    with open(os.path.join(args.out, tag + ".md"), "w") as f:
        f.write(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
