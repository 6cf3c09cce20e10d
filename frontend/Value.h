//===- Value.h - frontend values: Triton dtypes and typed IR values -------===//
//
// What a Python name can denote while IRGen walks a kernel: a compile-time
// (constexpr) Python value, a typed tile IR value (scalar or block), a tuple,
// a dtype, a `@jit` function, a module such as `tl`, or a block pointer.
// DType keeps the signedness that signless MLIR integers lose, so Triton's
// promotion rules and signed/unsigned operations can be applied.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_FRONTEND_VALUE_H
#define TRITIUM_FRONTEND_VALUE_H

#include "frontend/Ast.h"

#include "mlir/IR/Types.h"
#include "mlir/IR/Value.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace mlir {
class MLIRContext;
}

namespace tritium::fe {

/// A Triton scalar type, possibly a pointer (`ptrDepth` levels) to one.
struct DType {
  enum Kind : uint8_t {
    Void, I1, I8, I16, I32, I64, U8, U16, U32, U64,
    F8E4NV, F8E5, F8E4B15, F8E4B8, F8E5B16, F16, BF16, F32, F64,
  };
  Kind kind = Void;
  uint8_t ptrDepth = 0;
  bool isConst = false; // a `*k` pointer: read-only memory

  DType() = default;
  DType(Kind k, uint8_t depth = 0) : kind(k), ptrDepth(depth) {}

  bool isPtr() const { return ptrDepth > 0; }
  bool isInt() const { return !isPtr() && kind >= I1 && kind <= U64; }
  bool isBool() const { return !isPtr() && kind == I1; }
  bool isSigned() const { return !isPtr() && kind >= I8 && kind <= I64; }
  bool isUnsigned() const { return !isPtr() && kind >= U8 && kind <= U64; }
  bool isFloat() const { return !isPtr() && kind >= F8E4NV; }
  bool isFP8() const { return !isPtr() && kind >= F8E4NV && kind <= F8E5B16; }
  bool isVoid() const { return !isPtr() && kind == Void; }
  unsigned bits() const; // 64 for pointers
  DType pointee() const { return DType(kind, uint8_t(ptrDepth - 1)); }
  DType withoutConst() const { return DType(kind, ptrDepth); }
  DType pointerTo() const { return DType(kind, uint8_t(ptrDepth + 1)); }
  /// Triton's spelling: int32, uint8, float16, bfloat16, pointer<fp32>...
  std::string name() const;
  /// The signature spelling: i32, u8, fp16, bf16, fp8e4nv, *fp32...
  std::string sigName() const;
  mlir::Type toMlir(mlir::MLIRContext *ctx) const;

  bool operator==(const DType &o) const {
    return kind == o.kind && ptrDepth == o.ptrDepth;
  }
  bool operator!=(const DType &o) const { return !(*this == o); }

  /// Parses a signature type (`i32`, `fp16`, `*fp32`, `*k fp32`); false when
  /// unknown.
  static bool fromSigName(std::string_view s, DType &out);
  static bool fromSigNameBase(std::string_view s, uint8_t depth, DType &out);
  /// Parses a `tl` attribute name (`int32`, `float16`, `bfloat16`, ...).
  static bool fromTlName(std::string_view s, DType &out);
};

/// "[64, 32]": a block shape in messages.
std::string shapeText(const std::vector<int64_t> &shape);

struct FunctionInfo; // a @jit function known to IRGen (IRGen.h)
struct BlockPtr;

/// A frontend value.
struct TValue {
  enum Kind : uint8_t {
    Undefined, // no value (e.g. unassigned result)
    None,      // Python None
    Int,       // constexpr int (i), with `unsignedInt` for values >= 2^63
    Float,     // constexpr float (f)
    Bool,      // constexpr bool (b)
    Str,       // constexpr string (s)
    Type,      // a dtype (dtype)
    Tuple,     // elems
    Tensor,    // an IR value: scalar (shape empty) or block
    Function,  // a @jit function (fn)
    Module,    // a module or namespace (s: "triton.language", ...)
    Builtin,   // a builtin function (s: "tl.load", "min", ...); self for methods
    BlockPointer, // bp
    Slice,     // ':' inside a subscript
    Descriptor, // a tensor descriptor: v, dtype (element), shape (block)
  };
  Kind kind = Undefined;
  int64_t i = 0;
  bool unsignedInt = false;
  double f = 0;
  bool b = false;
  std::string s;
  DType dtype;                 // Type: the dtype; Tensor: element dtype
  std::vector<int64_t> shape;  // Tensor: block shape (empty for scalars)
  mlir::Value v;               // Tensor
  std::vector<TValue> elems;   // Tuple
  FunctionInfo *fn = nullptr;  // Function
  std::shared_ptr<TValue> self; // Builtin bound to a receiver (x.sum)
  std::shared_ptr<BlockPtr> bp;
  SourceLoc origin;            // where a variable got this value (messages)
  /// Type: Triton's constexpr_type of the compile-time value in elems[0]
  /// (what `.type` of a constexpr is), not a dtype.
  bool constexprType = false;
  /// A number bound by a plain assignment (`x = 5`), which Triton turns
  /// into a scalar tensor: its `.type` is that tensor's dtype. It stays a
  /// compile-time value here.
  bool lifted = false;

  static TValue none() { TValue t; t.kind = None; return t; }
  static TValue integer(int64_t v) { TValue t; t.kind = Int; t.i = v; return t; }
  static TValue floating(double v) { TValue t; t.kind = Float; t.f = v; return t; }
  static TValue boolean(bool v) { TValue t; t.kind = Bool; t.b = v; return t; }
  static TValue str(std::string v) { TValue t; t.kind = Str; t.s = std::move(v); return t; }
  static TValue type(DType d) { TValue t; t.kind = Type; t.dtype = d; return t; }
  static TValue constexprTypeOf(const TValue &v) {
    TValue t; t.kind = Type; t.constexprType = true; t.elems = {v}; t.elems[0].lifted = false;
    return t;
  }
  static TValue module(std::string q) { TValue t; t.kind = Module; t.s = std::move(q); return t; }
  static TValue builtin(std::string q) { TValue t; t.kind = Builtin; t.s = std::move(q); return t; }
  static TValue tuple(std::vector<TValue> e) { TValue t; t.kind = Tuple; t.elems = std::move(e); return t; }
  static TValue tensor(mlir::Value v, DType d, std::vector<int64_t> shape) {
    TValue t; t.kind = Tensor; t.v = v; t.dtype = d; t.shape = std::move(shape); return t;
  }

  bool isConstexpr() const {
    return kind == None || kind == Int || kind == Float || kind == Bool ||
           kind == Str || kind == Type;
  }
  bool isTensor() const { return kind == Tensor; }
  bool isBlock() const { return kind == Tensor && !shape.empty(); }
  bool isScalarTensor() const { return kind == Tensor && shape.empty(); }
  /// Python repr-like text for messages and static_print.
  std::string repr() const;
  /// Short type description for messages: "int32[128, 64]", "constexpr int".
  std::string typeStr() const;
};

/// A block pointer made by tl.make_block_ptr: kept symbolic until a load or
/// store materializes `base + Σ (offset_d + arange_d) * stride_d` and the
/// boundary mask.
struct BlockPtr {
  TValue base;                    // scalar pointer
  std::vector<TValue> shape;      // i64 scalars
  std::vector<TValue> strides;    // i64 scalars
  std::vector<TValue> offsets;    // i32 scalars
  std::vector<int64_t> blockShape;
  std::vector<int64_t> order;
};

} // namespace tritium::fe

#endif // TRITIUM_FRONTEND_VALUE_H
