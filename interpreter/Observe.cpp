//===- Observe.cpp - what looks at each op while a program runs -----------===//
//
// runBlock calls these only when Frame::observed is set: the debugger
// before an op, then after it the sanitizers' checks (nan, overflow),
// --trace, --coverage, --trace-all and the debugger again.
//
//===----------------------------------------------------------------------===//
#include "interpreter/Debugger.h"
#include "interpreter/Program.h"

namespace tritium::interp {

bool observeBefore(const Op &op, Frame &f) {
  if (f.trace && !op.entersArgs.empty())
    traceArgs(op, f);
  if (f.debugger)
    f.debugger->beforeOp(op, f);
  return !f.failed;
}

void observeAfter(const Op &op, Frame &f) {
  if (op.nanCheck && f.checkNan && !f.nanReported)
    checkNanOrigin(op, f);
  if (op.signedArith && f.checkOverflow && !f.overflowReported)
    checkSignedOverflow(op, f);
  if (f.trace && (op.lineOutput || op.named))
    traceOp(op, f);
  if (f.coverage)
    coverOp(op, f);
  if (f.dump)
    dumpOp(op, f);
  if (f.debugger)
    f.debugger->afterOp(op, f);
}

} // namespace tritium::interp
