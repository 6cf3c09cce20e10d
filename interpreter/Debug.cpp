//===- Debug.cpp - device_print, device_assert, assume, barrier --*- C++ -*-===//
//
// tile.print writes one line per element, formatted like Triton's GPU
// printf: `pid (x, y, z) idx (i, j)<prefix><value>` (with `(operand k) `
// before the value when several tensors are printed). Output collects in
// the Frame and the grid loop flushes it in program-id order. tile.assert
// stops the program at the first failing lane with the op's message and
// source line. assume and barrier are no-ops for a single-threaded block.
//
//===----------------------------------------------------------------------===//
#include "interpreter/Program.h"

#include "ir/TileDialect.h"

#include <cstdio>

using namespace mlir;

namespace tritium::interp {
namespace {

void formatValue(std::string &out, const void *p, int64_t i, EK k, bool sgn,
                 bool hex) {
  char buf[64];
  if (k == EK::Ptr) {
    std::snprintf(buf, sizeof buf, "0x%llx",
                  (unsigned long long)static_cast<const uint64_t *>(p)[i]);
  } else if (hex) {
    unsigned bytes = elemBytes(k);
    uint64_t bits = 0;
    std::memcpy(&bits, static_cast<const uint8_t *>(p) + i * bytes, bytes);
    std::snprintf(buf, sizeof buf, "0x%0*llx", int(bytes * 2),
                  (unsigned long long)bits);
  } else if (isInt(k)) {
    int64_t v = readInt(p, i, k, sgn && k != EK::I1);
    if (sgn && k != EK::I1)
      std::snprintf(buf, sizeof buf, "%lld", (long long)v);
    else
      std::snprintf(buf, sizeof buf, "%llu", (unsigned long long)v);
  } else {
    std::snprintf(buf, sizeof buf, "%f", readFloat(p, i, k));
  }
  out += buf;
}

// op.ints: isSigned per operand; op.a: hex.
void printOp(const Op &op, Frame &f) {
  std::string &out = f.printOut;
  std::string pidPrefix = "pid " + f.pidText();
  if (op.in.empty()) {
    out += pidPrefix + op.text + "\n";
    return;
  }
  for (size_t o = 0; o < op.in.size(); ++o) {
    const SlotInfo &si = f.prog->slots[op.in[o]];
    auto strides = rowMajorStrides(si.shape);
    for (int64_t i = 0; i < si.elems; ++i) {
      out += pidPrefix;
      if (!si.shape.empty()) {
        out += " idx (";
        for (size_t d = 0; d < si.shape.size(); ++d) {
          int width = std::to_string(std::max<int64_t>(si.shape[d] - 1, 0)).size();
          char buf[32];
          std::snprintf(buf, sizeof buf, "%*lld", width,
                        (long long)((i / strides[d]) % si.shape[d]));
          out += (d ? ", " : "");
          out += buf;
        }
        out += ")";
      }
      out += op.text;
      if (op.in.size() > 1)
        out += "(operand " + std::to_string(o) + ") ";
      formatValue(out, f.slot[op.in[o]], i, si.kind,
                  o < op.ints.size() && op.ints[o], op.a);
      out += "\n";
    }
  }
}

void assertOp(const Op &op, Frame &f) {
  const uint8_t *c = f.get<uint8_t>(op.in[0]);
  for (int64_t i = 0; i < op.n; ++i)
    if (!c[i]) {
      f.fail(op, "device_assert failed",
             "lane " + laneText(op, i) + ": " + op.text);
      return;
    }
}

void noOp(const Op &, Frame &) {}

} // namespace

Built buildDebug(Builder &b, Operation *mop, Op &op) {
  if (auto p = dyn_cast<tile::PrintOp>(mop)) {
    fillCommon(b, mop, op);
    op.text = p.getPrefix().str();
    op.a = p.getHex();
    for (int32_t s : p.getIsSigned())
      op.ints.push_back(s);
    op.fn = printOp;
    return Built::Ok;
  }
  if (auto a = dyn_cast<tile::AssertOp>(mop)) {
    fillCommon(b, mop, op);
    op.text = a.getMessage().str();
    op.fn = assertOp;
    return Built::Ok;
  }
  if (isa<tile::AssumeOp, tile::BarrierOp>(mop)) {
    fillCommon(b, mop, op);
    op.fn = noOp;
    return Built::Ok;
  }
  return Built::NotMine;
}

} // namespace tritium::interp
