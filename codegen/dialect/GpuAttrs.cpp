//===- GpuAttrs.cpp - parsing, printing and checking tgpu encodings -------===//
//
// Every encoding prints as `<{key = value, ...}>` (arrays as `[a, b]`) and
// parses from the same dictionary, naming a missing or ill-typed key.
//
//===----------------------------------------------------------------------===//
#include "codegen/dialect/GpuDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tgpu;

#define GET_ATTRDEF_CLASSES
#include "codegen/dialect/GpuAttrs.cpp.inc"

namespace {

/// The `<{...}>` dictionary of an encoding.
DictionaryAttr parseBody(AsmParser &p) {
  DictionaryAttr dict;
  if (p.parseLess() || p.parseAttribute(dict) || p.parseGreater())
    return nullptr;
  return dict;
}

/// Field `key` of `dict` as an attribute of kind T, or an error naming it.
template <typename T> T field(AsmParser &p, DictionaryAttr dict, StringRef key) {
  Attribute a = dict.get(key);
  if (!a) {
    p.emitError(p.getNameLoc(), "missing '") << key << "'";
    return nullptr;
  }
  auto t = dyn_cast<T>(a);
  if (!t)
    p.emitError(p.getNameLoc(), "'") << key << "' has the wrong kind of value: " << a;
  return t;
}

std::optional<unsigned> unsignedField(AsmParser &p, DictionaryAttr dict, StringRef key) {
  auto i = field<IntegerAttr>(p, dict, key);
  if (!i)
    return std::nullopt;
  if (i.getInt() < 0) {
    p.emitError(p.getNameLoc(), "'") << key << "' must not be negative";
    return std::nullopt;
  }
  return unsigned(i.getInt());
}

std::optional<SmallVector<unsigned>> arrayField(AsmParser &p, DictionaryAttr dict,
                                                StringRef key) {
  auto arr = field<ArrayAttr>(p, dict, key);
  if (!arr)
    return std::nullopt;
  SmallVector<unsigned> out;
  for (Attribute e : arr) {
    auto i = dyn_cast<IntegerAttr>(e);
    if (!i || i.getInt() < 0) {
      p.emitError(p.getNameLoc(), "'") << key << "' must list non-negative integers";
      return std::nullopt;
    }
    out.push_back(unsigned(i.getInt()));
  }
  return out;
}

void printArray(AsmPrinter &p, ArrayRef<unsigned> a) {
  p << "[";
  llvm::interleaveComma(a, p);
  p << "]";
}

} // namespace

//===----------------------------------------------------------------------===//
// blocked
//===----------------------------------------------------------------------===//

Attribute BlockedEncodingAttr::parse(AsmParser &p, Type) {
  DictionaryAttr d = parseBody(p);
  if (!d)
    return {};
  auto spt = arrayField(p, d, "sizePerThread");
  auto tpw = arrayField(p, d, "threadsPerWarp");
  auto wpc = arrayField(p, d, "warpsPerCTA");
  auto order = arrayField(p, d, "order");
  if (!spt || !tpw || !wpc || !order)
    return {};
  return p.getChecked<BlockedEncodingAttr>(p.getContext(), *spt, *tpw, *wpc, *order);
}

void BlockedEncodingAttr::print(AsmPrinter &p) const {
  p << "<{sizePerThread = ";
  printArray(p, getSizePerThread());
  p << ", threadsPerWarp = ";
  printArray(p, getThreadsPerWarp());
  p << ", warpsPerCTA = ";
  printArray(p, getWarpsPerCTA());
  p << ", order = ";
  printArray(p, getOrder());
  p << "}>";
}

LogicalResult BlockedEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                          ArrayRef<unsigned> spt, ArrayRef<unsigned> tpw,
                                          ArrayRef<unsigned> wpc, ArrayRef<unsigned> order) {
  size_t rank = order.size();
  if (spt.size() != rank || tpw.size() != rank || wpc.size() != rank)
    return emitError() << "blocked: sizePerThread, threadsPerWarp, warpsPerCTA and order "
                          "need one entry per dimension (got "
                       << spt.size() << ", " << tpw.size() << ", " << wpc.size() << ", "
                       << rank << ")";
  SmallVector<bool> seen(rank, false);
  for (unsigned d : order) {
    if (d >= rank || seen[d])
      return emitError() << "blocked: order must be a permutation of 0.." << rank - 1;
    seen[d] = true;
  }
  for (size_t i = 0; i < rank; ++i)
    if (!llvm::isPowerOf2_32(spt[i]) || !llvm::isPowerOf2_32(tpw[i]) ||
        !llvm::isPowerOf2_32(wpc[i]))
      return emitError() << "blocked: every size must be a power of two (dimension " << i
                         << ")";
  return success();
}

//===----------------------------------------------------------------------===//
// slice
//===----------------------------------------------------------------------===//

Attribute SliceEncodingAttr::parse(AsmParser &p, Type) {
  DictionaryAttr d = parseBody(p);
  if (!d)
    return {};
  auto dim = unsignedField(p, d, "dim");
  Attribute parent = field<Attribute>(p, d, "parent");
  if (!dim || !parent)
    return {};
  return SliceEncodingAttr::get(p.getContext(), *dim, parent);
}

void SliceEncodingAttr::print(AsmPrinter &p) const {
  p << "<{dim = " << getDim() << ", parent = " << getParent() << "}>";
}

//===----------------------------------------------------------------------===//
// mma
//===----------------------------------------------------------------------===//

Attribute MmaEncodingAttr::parse(AsmParser &p, Type) {
  DictionaryAttr d = parseBody(p);
  if (!d)
    return {};
  auto version = unsignedField(p, d, "version");
  auto wpc = arrayField(p, d, "warpsPerCTA");
  if (!version || !wpc)
    return {};
  return p.getChecked<MmaEncodingAttr>(p.getContext(), *version, *wpc);
}

void MmaEncodingAttr::print(AsmPrinter &p) const {
  p << "<{version = " << getVersion() << ", warpsPerCTA = ";
  printArray(p, getWarpsPerCTA());
  p << "}>";
}

LogicalResult MmaEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                      unsigned version, ArrayRef<unsigned> wpc) {
  if (version != 2 && version != 3)
    return emitError() << "mma: version must be 2 (mma.sync) or 3 (wgmma), got " << version;
  if (wpc.size() != 2 && !(version == 2 && wpc.size() == 3))
    return emitError() << "mma: warpsPerCTA must be [M, N] (or, mma.sync, [batch, M, N])";
  for (unsigned w : wpc)
    if (!llvm::isPowerOf2_32(w))
      return emitError() << "mma: warpsPerCTA must be powers of two";
  if (version == 3 && wpc[0] % 4)
    return emitError() << "mma: wgmma needs whole warpgroups along M (warpsPerCTA[0] a "
                          "multiple of 4), got "
                       << wpc[0];
  return success();
}

//===----------------------------------------------------------------------===//
// dot_op
//===----------------------------------------------------------------------===//

Attribute DotOperandEncodingAttr::parse(AsmParser &p, Type) {
  DictionaryAttr d = parseBody(p);
  if (!d)
    return {};
  auto idx = unsignedField(p, d, "opIdx");
  Attribute parent = field<Attribute>(p, d, "parent");
  if (!idx || !parent)
    return {};
  return p.getChecked<DotOperandEncodingAttr>(p.getContext(), *idx, parent);
}

void DotOperandEncodingAttr::print(AsmPrinter &p) const {
  p << "<{opIdx = " << getOpIdx() << ", parent = " << getParent() << "}>";
}

LogicalResult DotOperandEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                             unsigned opIdx, Attribute parent) {
  if (opIdx != 0)
    return emitError() << "dot_op: only operand A (opIdx = 0) is read from registers; "
                          "operand B is staged in shared memory";
  if (!isa<MmaEncodingAttr>(parent))
    return emitError() << "dot_op: the parent must be an #tgpu.mma encoding, got " << parent;
  return success();
}

//===----------------------------------------------------------------------===//
// linear
//===----------------------------------------------------------------------===//

Attribute LinearEncodingAttr::parse(AsmParser &p, Type) {
  DictionaryAttr d = parseBody(p);
  if (!d)
    return {};
  auto reg = field<ArrayAttr>(p, d, "register");
  auto lane = field<ArrayAttr>(p, d, "lane");
  auto warp = field<ArrayAttr>(p, d, "warp");
  if (!reg || !lane || !warp)
    return {};
  for (ArrayAttr bases : {reg, lane, warp})
    for (Attribute v : bases) {
      auto vec = dyn_cast<ArrayAttr>(v);
      if (!vec || !llvm::all_of(vec, [](Attribute e) { return isa<IntegerAttr>(e); })) {
        p.emitError(p.getNameLoc(), "linear: each basis must be a list of integers, got ")
            << v;
        return {};
      }
    }
  return LinearEncodingAttr::get(p.getContext(), reg, lane, warp);
}

void LinearEncodingAttr::print(AsmPrinter &p) const {
  auto bases = [&](ArrayAttr a) {
    p << "[";
    llvm::interleaveComma(a, p, [&](Attribute v) {
      p << "[";
      llvm::interleaveComma(cast<ArrayAttr>(v), p, [&](Attribute e) {
        p << cast<IntegerAttr>(e).getInt();
      });
      p << "]";
    });
    p << "]";
  };
  p << "<{register = ";
  bases(getRegisterBases());
  p << ", lane = ";
  bases(getLaneBases());
  p << ", warp = ";
  bases(getWarpBases());
  p << "}>";
}

//===----------------------------------------------------------------------===//
// shared
//===----------------------------------------------------------------------===//

Attribute SharedEncodingAttr::parse(AsmParser &p, Type) {
  DictionaryAttr d = parseBody(p);
  if (!d)
    return {};
  auto swizzle = unsignedField(p, d, "swizzle");
  auto pad = unsignedField(p, d, "pad");
  auto transposed = field<BoolAttr>(p, d, "transposed");
  if (!swizzle || !pad || !transposed)
    return {};
  return p.getChecked<SharedEncodingAttr>(p.getContext(), *swizzle, *pad,
                                          transposed.getValue());
}

void SharedEncodingAttr::print(AsmPrinter &p) const {
  p << "<{swizzle = " << getSwizzle() << ", pad = " << getPad()
    << ", transposed = " << (getTransposed() ? "true" : "false") << "}>";
}

LogicalResult SharedEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                         unsigned swizzle, unsigned pad, bool) {
  if (swizzle != 0 && swizzle != 32 && swizzle != 64 && swizzle != 128)
    return emitError() << "shared: swizzle must be 0, 32, 64 or 128 bytes, got " << swizzle;
  if (swizzle && pad)
    return emitError() << "shared: a swizzled tile has no padding (pad = " << pad << ")";
  return success();
}

void TGpuDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "codegen/dialect/GpuAttrs.cpp.inc"
      >();
}
