//===- Value.cpp - Triton dtypes and frontend values ----------------------===//
//
// Names, signature spellings and MLIR types of Triton's dtypes, and the text
// of frontend values used in messages and static_print.
//
//===----------------------------------------------------------------------===//
#include "frontend/Value.h"

#include "ir/TileDialect.h"
#include "mlir/IR/BuiltinTypes.h"

#include <cmath>
#include <cstdlib>
#include <sstream>

using namespace tritium::fe;

namespace {
struct DTypeInfo {
  DType::Kind kind;
  const char *tl;  // tl attribute name
  const char *sig; // signature name
  unsigned bits;
};
const DTypeInfo kInfo[] = {
    {DType::Void, "void", "void", 0},
    {DType::I1, "int1", "i1", 1},
    {DType::I8, "int8", "i8", 8},
    {DType::I16, "int16", "i16", 16},
    {DType::I32, "int32", "i32", 32},
    {DType::I64, "int64", "i64", 64},
    {DType::U8, "uint8", "u8", 8},
    {DType::U16, "uint16", "u16", 16},
    {DType::U32, "uint32", "u32", 32},
    {DType::U64, "uint64", "u64", 64},
    {DType::F8E4NV, "float8e4nv", "fp8e4nv", 8},
    {DType::F8E5, "float8e5", "fp8e5", 8},
    {DType::F8E4B15, "float8e4b15", "fp8e4b15", 8},
    {DType::F8E4B8, "float8e4b8", "fp8e4b8", 8},
    {DType::F8E5B16, "float8e5b16", "fp8e5b16", 8},
    {DType::F16, "float16", "fp16", 16},
    {DType::BF16, "bfloat16", "bf16", 16},
    {DType::F32, "float32", "fp32", 32},
    {DType::F64, "float64", "fp64", 64},
};
} // namespace

unsigned DType::bits() const { return isPtr() ? 64 : kInfo[kind].bits; }

std::string DType::name() const {
  if (isPtr())
    return (isConst ? "const_pointer<" : "pointer<") + pointee().name() + ">";
  return kInfo[kind].tl;
}

std::string DType::sigName() const {
  if (isPtr())
    return std::string(isConst ? "*k" : "*") + pointee().sigName();
  return kInfo[kind].sig;
}

bool DType::fromSigName(std::string_view s, DType &out) {
  uint8_t depth = 0;
  bool isConst = false;
  while (!s.empty() && s.front() == '*') {
    ++depth;
    s.remove_prefix(1);
    if (!s.empty() && s.front() == 'k') { // const pointer: *kfp32
      isConst = depth == 1;
      s.remove_prefix(1);
    }
  }
  bool ok = fromSigNameBase(s, depth, out);
  out.isConst = ok && isConst;
  return ok;
}

bool DType::fromSigNameBase(std::string_view s, uint8_t depth, DType &out) {
  if (s == "i1" || s == "u1" || s == "B") {
    out = DType(I1, depth);
    return true;
  }
  // Aliases Triton's signatures accept.
  if (s == "fp8e4m3" || s == "fp8e4") s = "fp8e4nv";
  if (s == "fp8e5m2") s = "fp8e5";
  for (const auto &info : kInfo)
    if (info.kind != Void && s == info.sig) {
      out = DType(info.kind, depth);
      return true;
    }
  return false;
}

bool DType::fromTlName(std::string_view s, DType &out) {
  if (s == "float8e4m3fn") s = "float8e4nv";
  if (s == "float8e5m2") s = "float8e5";
  if (s == "float8e4b8" || s == "float8e4m3fnuz") s = "float8e4b8";
  for (const auto &info : kInfo)
    if (s == info.tl) {
      out = DType(info.kind);
      return true;
    }
  return false;
}

mlir::Type DType::toMlir(mlir::MLIRContext *ctx) const {
  if (isPtr())
    return mlir::tile::PointerType::get(ctx, pointee().toMlir(ctx));
  switch (kind) {
  case Void:
    return mlir::NoneType::get(ctx);
  case I1:
    return mlir::IntegerType::get(ctx, 1);
  case I8: case U8:
    return mlir::IntegerType::get(ctx, 8);
  case I16: case U16:
    return mlir::IntegerType::get(ctx, 16);
  case I32: case U32:
    return mlir::IntegerType::get(ctx, 32);
  case I64: case U64:
    return mlir::IntegerType::get(ctx, 64);
  case F8E4NV:
    return mlir::Float8E4M3FNType::get(ctx);
  case F8E5:
    return mlir::Float8E5M2Type::get(ctx);
  case F8E4B15:
    return mlir::Float8E4M3B11FNUZType::get(ctx);
  case F8E4B8:
    return mlir::Float8E4M3FNUZType::get(ctx);
  case F8E5B16:
    return mlir::Float8E5M2FNUZType::get(ctx);
  case F16:
    return mlir::Float16Type::get(ctx);
  case BF16:
    return mlir::BFloat16Type::get(ctx);
  case F32:
    return mlir::Float32Type::get(ctx);
  case F64:
    return mlir::Float64Type::get(ctx);
  }
  return {};
}

std::string tritium::fe::shapeText(const std::vector<int64_t> &shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

std::string TValue::repr() const {
  std::ostringstream os;
  switch (kind) {
  case Undefined: return "<undefined>";
  case None: return "None";
  case Int:
    if (unsignedInt)
      os << uint64_t(i);
    else
      os << i;
    return os.str();
  case Float: {
    if (std::isnan(f)) return "nan";
    if (std::isinf(f)) return f > 0 ? "inf" : "-inf";
    // Shortest text that reads back as the same double, like Python's repr.
    std::string t;
    for (int prec = 1; prec <= 17; ++prec) {
      std::ostringstream o;
      o.precision(prec);
      o << f;
      t = o.str();
      if (std::strtod(t.c_str(), nullptr) == f)
        break;
    }
    if (t.find_first_of(".e") == std::string::npos)
      t += ".0";
    return t;
  }
  case Bool: return b ? "True" : "False";
  case Str: return "'" + s + "'";
  case Type:
    return constexprType ? "constexpr_type[" + elems[0].repr() + "]" : dtype.name();
  case Tuple: {
    std::string r = "(";
    for (size_t k = 0; k < elems.size(); ++k)
      r += (k ? ", " : "") + elems[k].repr();
    return r + (elems.size() == 1 ? ",)" : ")");
  }
  case Tensor: return typeStr();
  case Function: return "<jit function>";
  case Module: return "<module " + s + ">";
  case Builtin: return "<builtin " + s + ">";
  case BlockPointer: return "<block pointer>";
  case Slice: return ":";
  case Descriptor: return typeStr();
  }
  return "?";
}

std::string TValue::typeStr() const {
  switch (kind) {
  case Tensor:
    return shape.empty() ? dtype.name() : dtype.name() + shapeText(shape);
  case Int: return "constexpr int";
  case Float: return "constexpr float";
  case Bool: return "constexpr bool";
  case Str: return "constexpr str";
  case None: return "None";
  case Type: return "dtype";
  case Tuple: return "tuple";
  case Function: return "jit function";
  case Module: return "module '" + s + "'";
  case Builtin: return "builtin function";
  case BlockPointer: return "block pointer";
  case Slice: return "slice";
  case Descriptor: return "tensor_descriptor<" + dtype.name() + shapeText(shape) + ">";
  case Undefined: return "undefined";
  }
  return "?";
}
