//===- TileAttrs.td - tile dialect enum attributes ---------*- tablegen -*-===//
//
// Enumerations carried by memory, atomic, dot and debug ops. In an op's
// assembly they print as bare keywords (`cacheModifier = cg`).
//
//===----------------------------------------------------------------------===//
#ifndef TILE_ATTRS
#define TILE_ATTRS

include "mlir/IR/EnumAttr.td"

class Tile_I32Enum<string name, string summary, list<I32EnumAttrCase> cases>
    : I32EnumAttr<name, summary, cases> {
  let cppNamespace = "::mlir::tile";
}

def Tile_ProgramDimAttr : Tile_I32Enum<"ProgramDim", "grid axis", [
  I32EnumAttrCase<"X", 0, "x">, I32EnumAttrCase<"Y", 1, "y">,
  I32EnumAttrCase<"Z", 2, "z">]>;

def Tile_CacheModifierAttr : Tile_I32Enum<"CacheModifier", "cache operator", [
  I32EnumAttrCase<"CA", 1, "ca">, I32EnumAttrCase<"CG", 2, "cg">,
  I32EnumAttrCase<"CV", 3, "cv">, I32EnumAttrCase<"WB", 4, "wb">,
  I32EnumAttrCase<"CS", 5, "cs">, I32EnumAttrCase<"WT", 6, "wt">]>;

def Tile_EvictionPolicyAttr : Tile_I32Enum<"EvictionPolicy", "L2 eviction", [
  I32EnumAttrCase<"EvictFirst", 1, "evict_first">,
  I32EnumAttrCase<"EvictLast", 2, "evict_last">]>;

def Tile_RMWOpAttr : Tile_I32Enum<"RMWOp", "atomic read-modify-write", [
  I32EnumAttrCase<"AND", 1, "and">, I32EnumAttrCase<"OR", 2, "or">,
  I32EnumAttrCase<"XOR", 3, "xor">, I32EnumAttrCase<"ADD", 4, "add">,
  I32EnumAttrCase<"FADD", 5, "fadd">, I32EnumAttrCase<"MAX", 6, "max">,
  I32EnumAttrCase<"MIN", 7, "min">, I32EnumAttrCase<"UMAX", 8, "umax">,
  I32EnumAttrCase<"UMIN", 9, "umin">, I32EnumAttrCase<"XCHG", 10, "xchg">]>;

def Tile_MemSemanticAttr : Tile_I32Enum<"MemSemantic", "memory ordering", [
  I32EnumAttrCase<"RELAXED", 1, "relaxed">,
  I32EnumAttrCase<"ACQUIRE", 2, "acquire">,
  I32EnumAttrCase<"RELEASE", 3, "release">,
  I32EnumAttrCase<"ACQUIRE_RELEASE", 4, "acq_rel">]>;

def Tile_MemScopeAttr : Tile_I32Enum<"MemScope", "memory scope", [
  I32EnumAttrCase<"GPU", 1, "gpu">, I32EnumAttrCase<"CTA", 2, "cta">,
  I32EnumAttrCase<"SYSTEM", 3, "sys">]>;

def Tile_InputPrecisionAttr : Tile_I32Enum<"InputPrecision",
    "how fp32 dot operands are multiplied", [
  I32EnumAttrCase<"TF32", 0, "tf32">, I32EnumAttrCase<"TF32x3", 1, "tf32x3">,
  I32EnumAttrCase<"IEEE", 2, "ieee">, I32EnumAttrCase<"BF16x3", 3, "bf16x3">,
  I32EnumAttrCase<"BF16x6", 4, "bf16x6">]>;

def Tile_RoundingModeAttr : Tile_I32Enum<"RoundingMode", "float rounding", [
  I32EnumAttrCase<"RTNE", 0, "rtne">, I32EnumAttrCase<"RTZ", 1, "rtz">]>;

def Tile_PropagateNanAttr : Tile_I32Enum<"PropagateNan", "NaN propagation", [
  I32EnumAttrCase<"NONE", 0, "none">, I32EnumAttrCase<"ALL", 65535, "all">]>;

def Tile_ScaleDotElemTypeAttr : Tile_I32Enum<"ScaleDotElemType",
    "operand format of dot_scaled", [
  I32EnumAttrCase<"E4M3", 0, "e4m3">, I32EnumAttrCase<"E5M2", 1, "e5m2">,
  I32EnumAttrCase<"E2M3", 2, "e2m3">, I32EnumAttrCase<"E3M2", 3, "e3m2">,
  I32EnumAttrCase<"E2M1", 4, "e2m1">, I32EnumAttrCase<"BF16", 5, "bf16">,
  I32EnumAttrCase<"FP16", 6, "fp16">]>;

def Tile_PaddingOptionAttr : Tile_I32Enum<"PaddingOption",
    "value of out-of-bounds descriptor lanes", [
  I32EnumAttrCase<"PAD_ZERO", 1, "zero">, I32EnumAttrCase<"PAD_NAN", 2, "nan">]>;

def Tile_DescriptorReduceKindAttr : Tile_I32Enum<"DescriptorReduceKind",
    "reduction of a descriptor store", [
  I32EnumAttrCase<"ADD", 1, "add">, I32EnumAttrCase<"MIN", 2, "min">,
  I32EnumAttrCase<"MAX", 3, "max">, I32EnumAttrCase<"AND", 4, "and">,
  I32EnumAttrCase<"OR", 5, "or">, I32EnumAttrCase<"XOR", 6, "xor">,
  I32EnumAttrCase<"UMIN", 7, "umin">, I32EnumAttrCase<"UMAX", 8, "umax">]>;

#endif // TILE_ATTRS
