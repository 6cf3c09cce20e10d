//===- GpuOps.td - operations of the tgpu dialect ----------*- tablegen -*-===//
//
// Layout conversion, and the asynchronous staging of tiles through shared
// memory: the pipeliner (codegen/Pipeliner.cpp) rewrites a loop's loads
// that feed tensor-core products into copies that land in a ring of
// shared-memory slots several iterations ahead (cp.async, or TMA with a
// ring of mbarriers on sm_90), read back by tgpu.shared_load.
//
//===----------------------------------------------------------------------===//
#ifndef TGPU_OPS
#define TGPU_OPS

include "codegen/dialect/GpuDialect.td"
include "codegen/dialect/GpuAttrs.td"
include "ir/TileTypes.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def TGpu_GlobalMemory : Resource<"::mlir::tile::GlobalMemory">;
def TGpu_SharedMemory : Resource<"::mlir::tile::SharedMemory">;

class TGpu_Op<string mnemonic, list<Trait> traits = []>
    : Op<TGpu_Dialect, mnemonic, traits>;

def TGpu_ConvertLayoutOp : TGpu_Op<"convert_layout", [Pure,
    SameOperandsAndResultShape, SameOperandsAndResultElementType]> {
  let summary = "The same tile in another layout";
  let description = [{
    Moves the elements of `src` to the threads and registers the result's
    encoding gives them: within each thread when the two maps agree on the
    lane and warp bits, through shared memory otherwise.

    Example: `%b = tgpu.convert_layout %a : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #mma>`
  }];
  let arguments = (ins Tile_Tensor:$src);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasFolder = 1;
}

def TGpu_AsyncCopyOp : TGpu_Op<"async_copy", [
    MemoryEffects<[MemRead<TGpu_GlobalMemory>, MemWrite<TGpu_SharedMemory>]>,
    TypesMatchWith<"mask is i1 shaped like ptr", "ptr", "mask",
                   "::mlir::tile::getI1TypeLike($_self)",
                   "($_op.getOperands().size() <= 2) || std::equal_to<>()">]> {
  let summary = "Start copying a tile from global memory into a shared-memory slot";
  let description = [{
    Copies the tile `ptr` points to into slot `slot` (of `numSlots`) of
    shared buffer `buffer`, with cp.async. Lanes whose `mask` is false
    write zeros and read nothing. The copy completes at a later
    `tgpu.async_wait`.

    Example: `tgpu.async_copy %p, %m slot %s {buffer = 0, numSlots = 3} : tensor<128x64x!tile.ptr<f16>>`
  }];
  let arguments = (ins Tile_PtrTensor:$ptr, I32:$slot, Optional<Tile_BoolLike>:$mask,
                       I64Attr:$buffer, I64Attr:$numSlots);
  let assemblyFormat = [{
    $ptr (`,` $mask^)? `slot` $slot attr-dict `:` type($ptr)
  }];
}

def TGpu_AsyncCommitOp : TGpu_Op<"async_commit",
    [MemoryEffects<[MemWrite<TGpu_SharedMemory>]>]> {
  let summary = "Close the group of asynchronous copies started so far";
  let description = [{ Example: `tgpu.async_commit` }];
  let assemblyFormat = "attr-dict";
}

def TGpu_AsyncWaitOp : TGpu_Op<"async_wait",
    [MemoryEffects<[MemRead<TGpu_SharedMemory>, MemWrite<TGpu_SharedMemory>]>]> {
  let summary = "Wait until at most `pending` copy groups are in flight, then synchronize";
  let description = [{
    Every thread's older groups have landed and are visible to the whole
    program afterwards (the wait is followed by a barrier).

    Example: `tgpu.async_wait {pending = 1}`
  }];
  let arguments = (ins I64Attr:$pending);
  let assemblyFormat = "attr-dict";
}

def TGpu_TmaCopyOp : TGpu_Op<"tma_copy", [
    MemoryEffects<[MemRead<TGpu_GlobalMemory>, MemWrite<TGpu_SharedMemory>]>]> {
  let summary = "Start copying a descriptor's block into a shared-memory slot with TMA";
  let description = [{
    Where `pred` holds, one thread asks the tensor memory accelerator
    (sm_90) for the block of the 2-D descriptor `desc` at `indices` and
    sends it to slot `slot` (of `numSlots`) of shared buffer `buffer`, in
    the swizzled layout its readers take; elements outside the tensor land
    as zeros. Mbarrier `slot` of ring `barrier` counts the bytes in: the
    copy arrives on it once, expecting the whole block.

    Example: `tgpu.tma_copy %d[%i, %j] slot %s if %p {barrier = 3, buffer = 1, numSlots = 3} : !tile.tensordesc<tensor<64x64xf16>>`
  }];
  let arguments = (ins Tile_TensorDescType:$desc, Variadic<I32>:$indices, I32:$slot,
                       I1:$pred, I64Attr:$buffer, I64Attr:$numSlots, I64Attr:$barrier);
  let assemblyFormat = [{
    $desc `[` $indices `]` `slot` $slot `if` $pred attr-dict `:` qualified(type($desc))
  }];
}

def TGpu_MbarrierInitOp : TGpu_Op<"mbarrier_init",
    [MemoryEffects<[MemWrite<TGpu_SharedMemory>]>]> {
  let summary = "(Re)start a ring of `numSlots` mbarriers, each completing after `count` arrivals";
  let description = [{
    Every thread is past its previous use of the ring first: the op starts
    and ends with a barrier.

    Example: `tgpu.mbarrier_init {barrier = 3, numSlots = 3, count = 2}`
  }];
  let arguments = (ins I64Attr:$barrier, I64Attr:$numSlots, I64Attr:$count);
  let assemblyFormat = "attr-dict";
}

def TGpu_MbarrierWaitOp : TGpu_Op<"mbarrier_wait",
    [MemoryEffects<[MemRead<TGpu_SharedMemory>, MemWrite<TGpu_SharedMemory>]>]> {
  let summary = "Wait until mbarrier `slot` of a ring completes the phase of parity `phase`";
  let description = [{
    Afterwards the tma_copy ops that arrived on it have landed and are
    visible to the waiting thread.

    Example: `tgpu.mbarrier_wait slot %s phase %p {barrier = 3}`
  }];
  let arguments = (ins I32:$slot, I32:$phase, I64Attr:$barrier);
  let assemblyFormat = "`slot` $slot `phase` $phase attr-dict";
}

def TGpu_SharedLoadOp : TGpu_Op<"shared_load",
    [MemoryEffects<[MemRead<TGpu_SharedMemory>]>]> {
  let summary = "A tile staged in a shared-memory slot by an asynchronous copy";
  let description = [{
    With a `#tgpu.shared` encoding the value stays in the slot and its
    users (tensor-core products) read it there; with a distributed one it
    is read into registers.

    Example: `%a = tgpu.shared_load slot %s {buffer = 0} : tensor<128x64xf16>`
  }];
  let arguments = (ins I32:$slot, I64Attr:$buffer);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "`slot` $slot attr-dict `:` type($result)";
}

def TGpu_LocalAllocOp : TGpu_Op<"local_alloc", [
    MemoryEffects<[MemRead<TGpu_SharedMemory>, MemWrite<TGpu_SharedMemory>]>]> {
  let summary = "A tile written into the staging area, for a tensor-core product to read there";
  let description = [{
    Stores `src` at byte `offset` of the staging area (the shared memory
    that layout conversions and reductions also pass through), in the
    layout of the result's `#tgpu.shared` encoding (swizzled, or rows
    padded; `transposed`: stored [cols, rows]; a 3-D tile [batch, rows,
    cols] is stored as [batch * rows, cols]); before a warpgroup MMA, the
    writes are made visible to the tensor cores' asynchronous reads. A
    source already in shared memory (a pipeliner's slot held in the other
    orientation) is read back first. The result is valid until the staging
    area is written again: its reader is the product right after it (a
    warpgroup MMA waits for its group at once).

    Example: `%s = tgpu.local_alloc %a {offset = 0 : i64} : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #shared>`
  }];
  let arguments = (ins Tile_Tensor:$src, I64Attr:$offset);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def TGpu_MbarrierArriveOp : TGpu_Op<"mbarrier_arrive",
    [MemoryEffects<[MemRead<TGpu_SharedMemory>, MemWrite<TGpu_SharedMemory>]>]> {
  let summary = "Each warp arrives once on mbarrier `slot` of a ring, its reads of shared memory done";
  let description = [{
    The warp's lanes synchronize, then one lane arrives (release
    semantics): what the warp read from shared memory before, including
    the operands of tensor-core groups it has waited for, is read. A
    warp-specialized loop's consumers say so of a slot its producer may
    then fill again.

    Example: `tgpu.mbarrier_arrive slot %s {barrier = 4}`
  }];
  let arguments = (ins I32:$slot, I64Attr:$barrier);
  let assemblyFormat = "`slot` $slot attr-dict";
}

def TGpu_WarpSpecializeOp : TGpu_Op<"warp_specialize", [
    RecursiveMemoryEffects, NoTerminator]> {
  let summary = "Warps split into consumers and a producer, each running its own region";
  let description = [{
    The program's `num_warps` warps (those its layouts place) run
    `consumer`; `producerWarps` more warps, launched after them, run
    `producer`, which may hold scalar code, mbarrier waits and TMA copies
    only. Each side first sets its registers per thread with setmaxnreg
    (`consumerRegs`, `producerRegs`): the producer needs few, the
    consumers' tensor-core accumulators many. Barriers inside `consumer`
    and after the op count the consumer warps only; the producer warps
    end with their region. Both regions read values from above.

    Example:
    ```
    tgpu.warp_specialize consumer {
      scf.for ... { tgpu.mbarrier_wait ...; tile.dot ...; tgpu.mbarrier_arrive ... }
    } producer {
      scf.for ... { tgpu.mbarrier_wait ...; tgpu.tma_copy ... }
    } {consumerRegs = 232, producerRegs = 40, producerWarps = 4}
    ```
  }];
  let arguments = (ins I64Attr:$producerWarps, I64Attr:$consumerRegs, I64Attr:$producerRegs);
  let regions = (region SizedRegion<1>:$consumer, SizedRegion<1>:$producer);
  let assemblyFormat = "`consumer` $consumer `producer` $producer attr-dict";
}

def TGpu_WgmmaOp : TGpu_Op<"wgmma", [
    MemoryEffects<[MemRead<TGpu_SharedMemory>, MemWrite<TGpu_SharedMemory>]>,
    TypesMatchWith<"accumulator is typed like the result", "result", "c", "$_self">]> {
  let summary = "Issue a product as one warpgroup MMA group (sm_90a), left in flight";
  let description = [{
    `c + a * b` on Hopper's warpgroup tensor cores: a fence, the
    `wgmma.mma_async` steps over K, and a commit that closes them into one
    group. B is read from shared memory (a `#tgpu.shared` tile read in
    place), A from shared memory or from registers laid out as the
    instruction's A fragment; an operand in neither form is staged into
    shared memory first. Where `zero_if` holds, the accumulator starts from
    zero instead of `c` (a flattened loop restarting a tile).

    The result is in flight: the tensor cores are still writing it and
    reading the operands. Only a `tgpu.wgmma_wait` may read it, and the
    accumulator operand of the next `tgpu.wgmma` of the same loop (the
    instruction adds into the registers in place); the operands' shared
    memory may not be written again before such a wait says the group is
    done.

    Example: `%d = tgpu.wgmma %a, %b, %c : tensor<128x64xf16, #shared>, tensor<64x256xf16, #shared1> -> tensor<128x256xf32, #mma>`
  }];
  let arguments = (ins Tile_Tensor:$a, Tile_Tensor:$b, Tile_Tensor:$c, Optional<I1>:$zeroIf);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $a `,` $b `,` $c (`zero_if` $zeroIf^)? attr-dict `:` type($a) `,` type($b) `->` type($result)
  }];
  let hasVerifier = 1;
}

def TGpu_WgmmaWaitOp : TGpu_Op<"wgmma_wait", [
    MemoryEffects<[MemRead<TGpu_SharedMemory>, MemWrite<TGpu_SharedMemory>]>,
    DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "Wait until at most `pending` warpgroup MMA groups are in flight";
  let description = [{
    The groups issued before the newest `pending` ones are done: their
    results are final and their operands' shared memory may be written.
    `inputs` are accumulators of groups issued so far; `results` are the
    same registers, tied through the wait so that nothing reads them above
    it. With `pending = 0` every result is final; with more, the newest
    groups' results are still in flight and go on only into the next
    group's accumulator (or another wait).

    Example: `%r = tgpu.wgmma_wait %d {pending = 1 : i64} : tensor<128x256xf32, #mma>`
  }];
  let arguments = (ins Variadic<Tile_Tensor>:$inputs, I64Attr:$pending);
  let results = (outs Variadic<Tile_Tensor>:$results);
  let assemblyFormat = "$inputs attr-dict (`:` type($inputs)^)?";
}

#endif // TGPU_OPS
