//===- Passes.td - tile-level passes -----------------------*- tablegen -*-===//
#ifndef TILE_PASSES
#define TILE_PASSES

include "mlir/Pass/PassBase.td"

def TileCombine : Pass<"tile-combine", "mlir::ModuleOp"> {
  let summary = "Fuse tile-level op pairs into single ops";
  let description = [{
    Rewrites, each applied to a fixpoint:

      add(dot(a, b, 0), d)                -> dot(a, b, d)
      d + dot(a, b, 0)                    -> dot(a, b, d)
      select(m, load(p, m), o)            -> load(p, m, o)
      select(c, load(p, splat(c)), o)     -> load(p, splat(c), o)
      broadcast(splat(x))                 -> splat(x)

    The first two let accumulation into a register tile use the dot's own
    accumulator; the select forms turn a masked load followed by a blend
    into one masked load with `other`.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def TileDecomposeDotScaled : Pass<"tile-decompose-dot-scaled", "mlir::ModuleOp"> {
  let summary = "Rewrite dot_scaled as upcasts to bf16/fp16 and a plain dot";
  let description = [{
    For targets without block-scaled tensor-core instructions: each operand
    is upcast to fp16 (when either format is fp16) or bf16, e2m1 nibbles
    unpacked low-first along K; e8m0 scales multiply it in fp32; the
    product is a tile.dot with fp32 accumulation.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def TileFlattenLoops : Pass<"tile-flatten-loops", "mlir::ModuleOp"> {
  let summary = "Fuse each loop marked tile.flatten with its inner loop";
  let description = [{
    `tl.range(..., flatten=True)`: a loop whose body is a prologue, one
    inner loop with bounds invariant to it and an epilogue becomes one loop
    over all the inner iterations, its position carried as two counters.
    The prologue runs in each outer iteration's first one and the
    epilogue in its last one (both under scf.if), the prologue's results
    carried between; the inner loop's carried values restart by a select
    in the first. When the inner loop has no iterations, the outer loop
    runs with its initial values instead. For the software pipeliner,
    which then keeps copies in flight from one outer iteration into the
    next.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect"];
}

#endif // TILE_PASSES
