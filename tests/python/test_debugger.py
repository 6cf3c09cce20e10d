"""The interpreter's debugging commands on one small kernel:
`tritium debug`, driven through a pseudo-terminal (it stops before the first
op of program (0, 0, 0); breakpoints with a pid condition, continue, step,
next, print LINE, print NAME[SUBSCRIPTS] and where; quit stops the launch; with --sanitize it stops
at each report), and `tritium run --trace-all OUT.npz [--pid X,Y,Z]` (every
value one program computes, in the order its ops ran, keyed
"file:line:col op", " #k" on a loop's later runs, in an .npz numpy reads)."""

import os
import pty
import select
import subprocess
import time

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BINARY = os.environ.get("TRITIUM_BIN") or os.path.join(ROOT, "build", "bin", "tritium")

KERNEL = '''import triton
import triton.language as tl


@triton.jit
def k(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for i in range(2):
        acc += x * (i + 1)
    tl.store(out_ptr + offs, acc.to(tl.float16), mask=offs < n)
'''
LAUNCH = ["-k", "k", "-g", "2", "--arg", "x_ptr=ones:f32[12]", "--arg", "out_ptr=zeros:f16[16]",
          "--arg", "n=12", "--constexpr", "BLOCK=8"]
needs_binary = pytest.mark.skipif(not os.path.exists(BINARY),
                                  reason="no tritium binary (set TRITIUM_BIN)")


class DebugTerminal:
    """tritium debug on a pseudo-terminal."""

    def __init__(self, src, *options):
        self.master, slave = pty.openpty()
        self.proc = subprocess.Popen([BINARY, "debug", str(src), *LAUNCH, *options],
                                     stdin=slave, stdout=slave, stderr=slave, close_fds=True)
        os.close(slave)

    def read_until(self, marker, timeout=20):
        out = b""
        end = time.time() + timeout
        while marker.encode() not in out:
            left = end - time.time()
            assert left > 0, "no %r in %r" % (marker, out)
            ready, _, _ = select.select([self.master], [], [], left)
            if ready:
                try:
                    chunk = os.read(self.master, 4096)
                except OSError:
                    break
                if not chunk:
                    break
                out += chunk
        return out.decode().replace("\r\n", "\n")

    def send(self, line):
        os.write(self.master, (line + "\n").encode())
        # The echo of the line, then what it printed up to the next prompt.
        return self.read_until("(tritium) ").split("\n", 1)[-1]

    def close(self):
        self.proc.wait(timeout=20)
        os.close(self.master)
        return self.proc.returncode


@needs_binary
def test_breakpoint_step_next_print_continue(tmp_path):
    src = tmp_path / "k.py"
    src.write_text(KERNEL)
    s = DebugTerminal(src)
    first = s.read_until("(tritium) ")
    assert "program (0, 0, 0), %s:7: before tile.get_program_id" % src in first
    assert "breakpoint 1 at line 11 if pid == (1, 0, 0)" in s.send(
        "break 11 if pid == (1, 0, 0)")
    out = s.send("continue")
    assert "program (1, 0, 0), %s:11: before" % src in out
    out = s.send("print 8")
    assert "tile.load (f32[8])\n[1, 1, 1, 1, --, --, --, --]" in out
    assert "line 11 has computed nothing in program (1, 0, 0) yet" in s.send("print 11")
    out = s.send("step")
    assert "program (1, 0, 0), %s:11: before" % src in out
    assert "program (1, 0, 0), %s:12: before" % src in s.send("next")
    assert "arith.addf (f32[8])\n[3, 3, 3, 3, 0, 0, 0, 0]" in s.send("print 11")
    assert "program (1, 0, 0), %s:12" % src in s.send("where")
    assert "unknown command 'frobnicate'" in s.send("frobnicate")
    os.write(s.master, b"continue\n")
    rest = s.read_until("launch:")
    assert "kernel k grid [2, 1, 1]" in rest
    assert s.close() == 0


@needs_binary
def test_print_variables_by_name_and_part(tmp_path):
    src = tmp_path / "k.py"
    src.write_text(KERNEL.replace("BLOCK: tl.constexpr):", "BLOCK: tl.constexpr):\n"
                                  "    grid = tl.arange(0, 4)[:, None] * 4 + tl.arange(0, 4)[None, :]\n"
                                  "    tl.store(out_ptr + grid, grid.to(tl.float16), mask=grid < 0)"))
    s = DebugTerminal(src)
    s.read_until("(tritium) ")
    assert "'x' has no value yet in program (0, 0, 0)" in s.send("print x")
    # A kernel parameter has its value from the start.
    assert "n (i32, given at %s:6)\n12" % src in s.send("p n")
    s.send("break 13 if pid == (1, 0, 0)")
    s.send("continue")
    # A load, with its masked-off lanes.
    assert "x (f32[8], given at %s:10)\n[1, 1, 1, 1, --, --, --, --]" % src in s.send("p x")
    assert "x[2:6] (f32[4], given at %s:10)\n[1, 1, --, --]" % src in s.send("p x[2:6]")
    assert "x[-1] (f32, given at %s:10)\n--" % src in s.send("p x[-1]")
    # The loop-carried variable as the first iteration starts; its update
    # at the last op of the line; the next iteration's; the loop's result.
    assert "acc (f32[8], given at %s:12)\n[0, 0, 0, 0, 0, 0, 0, 0]" % src in s.send("p acc")
    while "before arith.addf" not in s.send("where"):
        s.send("step")
    s.send("step")
    assert "acc (f32[8], given at %s:12)\n[1, 1, 1, 1, 0, 0, 0, 0]" % src in s.send("p acc")
    assert "program (1, 0, 0), %s:14" % src in s.send("next")
    assert "acc (f32[8], given at %s:12)\n[3, 3, 3, 3, 0, 0, 0, 0]" % src in s.send("p acc")
    # Two dimensions: rows, columns, steps.
    assert "grid[1:3, ::2] (i32[2, 2], given at %s:7)\n[[4, 6],\n [8, 10]]" % src in s.send(
        "p grid[1:3, ::2]")
    assert "grid[:, 3] (i32[4], given at %s:7)\n[3, 7, 11, 15]" % src in s.send("p grid[:, 3]")
    assert "3 subscripts for a tile of 2 dimensions" in s.send("p grid[1, 2, 3]")
    assert "index 4 is out of range for dimension 0 of size 4" in s.send("p grid[4]")
    assert "'a' is not an index or a start:stop:step range" in s.send("p grid[a]")
    assert "expected NAME[SUBSCRIPTS]" in s.send("p grid[1")
    out = s.send("p nope")
    assert "no tensor variable 'nope' in kernel k (its tensor variables: acc, grid, " in out
    os.write(s.master, b"quit\n")
    s.read_until("debugger quit")
    assert s.close() == 1


@needs_binary
def test_quit_stops_the_launch(tmp_path):
    src = tmp_path / "k.py"
    src.write_text(KERNEL)
    s = DebugTerminal(src)
    s.read_until("(tritium) ")
    os.write(s.master, b"quit\n")
    out = s.read_until("debugger quit")
    assert "the debugger quit before tile.get_program_id" in out
    assert s.close() == 1


@needs_binary
def test_continue_stops_at_the_next_sanitizer_report(tmp_path):
    src = tmp_path / "k.py"
    src.write_text(KERNEL.replace("acc += x * (i + 1)", "acc += tl.log(x - 1.0) * (i + 1)"))
    s = DebugTerminal(src, "--sanitize", "nan")
    s.read_until("(tritium) ")
    out = s.send("continue")
    assert ("NaN/Inf sanitizer: kernel k, program (0, 0, 0), %s:11: math.log made -inf at "
            "lane 0 from finite operands: 0" % src) in out
    assert "program (0, 0, 0), %s:11: before" % src in out
    assert "math.log (f32[8])\n[-inf, -inf, -inf, -inf, -inf, -inf, -inf, -inf]" in s.send("print 11")
    os.write(s.master, b"quit\n")
    s.read_until("debugger quit")
    assert s.close() == 1


@needs_binary
def test_trace_all_writes_every_value_of_one_program(tmp_path):
    src = tmp_path / "k.py"
    src.write_text(KERNEL)
    out = tmp_path / "all.npz"
    p = subprocess.run([BINARY, "run", str(src), *LAUNCH, "--trace-all", str(out),
                        "--pid", "1"], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert "values of program (1, 0, 0) in %s" % out in p.stdout
    values = np.load(out)
    keys = list(values.files)
    assert keys[0] == "k.py:7:12 tile.get_program_id"
    assert values[keys[0]] == 1
    load = values["k.py:8:9 tile.load"]
    assert load.dtype == np.float32
    np.testing.assert_array_equal(load, [1, 1, 1, 1, 0, 0, 0, 0])
    # The loop's update, once per iteration, in order.
    np.testing.assert_array_equal(values["k.py:11:9 arith.addf"], [1, 1, 1, 1, 0, 0, 0, 0])
    np.testing.assert_array_equal(values["k.py:11:9 arith.addf #1"], [3, 3, 3, 3, 0, 0, 0, 0])
    assert values["k.py:8:41 arith.cmpi"].dtype == np.bool_
    assert values["k.py:12:30 arith.truncf"].dtype == np.float16
    assert keys.index("k.py:11:9 arith.addf") < keys.index("k.py:11:9 arith.addf #1")
