"""Evaluates the scalar integer/float tile IR of one kernel (stdin) and prints
what each tile.store writes, as "store <offset>: <value>", where <offset> is
the element offset added to the base pointer. Integers print in hex as the
unsigned bit pattern of their width; floats print with 9 significant digits.

Only the operations random.py's kernels use on scalars are understood; an
unknown operation is an error, so a change in the emitted IR cannot go
unnoticed.
"""
import re
import struct
import sys

WIDTH = {"i1": 1, "i8": 8, "i16": 16, "i32": 32, "i64": 64}


def f32(x):
    return struct.unpack("f", struct.pack("f", x))[0]


def wrap(v, t):
    return v & ((1 << WIDTH[t]) - 1)


def signed(v, t):
    w = WIDTH[t]
    v = wrap(v, t)
    return v - (1 << w) if v >> (w - 1) else v


BINARY = {
    "arith.addi": lambda a, b, t: a + b,
    "arith.subi": lambda a, b, t: a - b,
    "arith.muli": lambda a, b, t: a * b,
    "arith.xori": lambda a, b, t: a ^ b,
    "arith.andi": lambda a, b, t: a & b,
    "arith.ori": lambda a, b, t: a | b,
    "arith.shrui": lambda a, b, t: a >> b,
    "arith.shrsi": lambda a, b, t: signed(a, t) >> b,
    "tile.mulhiui": lambda a, b, t: (a * b) >> WIDTH[t],
}
CMP = {
    "eq": lambda a, b: a == b, "ne": lambda a, b: a != b,
    "slt": lambda a, b: a < b, "sle": lambda a, b: a <= b,
    "sgt": lambda a, b: a > b, "sge": lambda a, b: a >= b,
}

vals = {}
for line in sys.stdin:
    line = line.strip()
    if line.startswith("tile.store"):
        ptr, val = re.match(r"tile.store (%[\w\-]+), (%[\w\-]+)", line).groups()
        v = vals[val]
        print("store %d: %s" % (vals.get(ptr, 0),
                                "%#x" % v if isinstance(v, int) else "%.9g" % v))
        continue
    m = re.match(r"(%[\w\-]+) = ([\w.]+) (.*) : (.*)$", line)
    if not m:
        continue
    res, op, args, types = m.groups()
    ty = types.split()[-1]
    a = [vals.get(o) for o in re.findall(r"%[\w\-]+", args)]
    src = types.split()[0]
    if op == "arith.constant":
        if args in ("true", "false"):
            vals[res] = int(args == "true")
        else:
            vals[res] = f32(float(args)) if ty == "f32" else wrap(int(args), ty)
    elif op in BINARY:
        vals[res] = wrap(BINARY[op](a[0], a[1], ty), ty)
    elif op == "arith.cmpi":
        pred = args.split(",")[0].strip()
        vals[res] = int(CMP[pred](signed(a[0], ty), signed(a[1], ty)))
    elif op == "arith.select":
        vals[res] = a[1] if a[0] else a[2]
    elif op == "arith.extsi":
        vals[res] = wrap(signed(a[0], src), ty)
    elif op in ("arith.extui", "arith.trunci"):
        vals[res] = wrap(a[0], ty)
    elif op == "tile.bitcast" and src in WIDTH and ty in WIDTH:
        vals[res] = a[0]
    elif op == "arith.sitofp":
        vals[res] = f32(float(signed(a[0], src)))
    elif op == "arith.mulf":
        vals[res] = f32(a[0] * a[1])
    elif op == "tile.addptr":
        vals[res] = (a[0] or 0) + a[1]
    else:
        sys.exit("eval_scalar_ir.py: unhandled operation: " + line)
