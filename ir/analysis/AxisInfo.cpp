//===- AxisInfo.cpp - the axis analysis driver ----------------------------===//
//
// The AxisInfo lattice value (join, printing, what function arguments start
// from) and the sparse forward data-flow analysis that moves it through tile
// IR with MLIR's solver: values carried around scf.for / scf.while loops and
// out of scf.if keep only what holds on every path, which the solver reaches
// by joining until nothing changes. The per-op rules live in
// AxisInfoRules.cpp. ModuleAxisInfo runs the solver once and answers the
// code generator's questions about loads and stores.
//
//===----------------------------------------------------------------------===//
#include "ir/analysis/AxisInfo.h"

#include "ir/TileDialect.h"
#include "ir/analysis/AxisInfoRules.h"

#include "mlir/Analysis/DataFlow/ConstantPropagationAnalysis.h"
#include "mlir/Analysis/DataFlow/DeadCodeAnalysis.h"
#include "mlir/Analysis/DataFlow/SparseAnalysis.h"
#include "mlir/Analysis/DataFlowFramework.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include <climits>
#include <numeric>

using namespace mlir;
using namespace mlir::tile;

static constexpr int64_t kMax = AxisInfo::kMaxDivisibility;

int64_t mlir::tile::highestPowerOf2Divisor(int64_t value) {
  if (value == 0)
    return kMax;
  uint64_t u = uint64_t(value);
  u &= ~u + 1; // lowest set bit
  return u >= uint64_t(kMax) ? kMax : int64_t(u);
}

//===----------------------------------------------------------------------===//
// AxisInfo
//===----------------------------------------------------------------------===//

AxisInfo::AxisInfo(DimVector contiguity, DimVector divisibility,
                   DimVector constancy, std::optional<int64_t> constantValue)
    : contiguity(std::move(contiguity)), divisibility(std::move(divisibility)),
      constancy(std::move(constancy)), constantValue(constantValue) {
  assert(this->contiguity.size() == this->divisibility.size() &&
         this->contiguity.size() == this->constancy.size() &&
         "one entry per dimension");
}

AxisInfo AxisInfo::unknown(unsigned rank) {
  DimVector ones(rank, 1);
  return AxisInfo(ones, ones, ones);
}

AxisInfo AxisInfo::constant(int64_t value, ArrayRef<int64_t> shape) {
  return AxisInfo(DimVector(shape.size(), 1),
                  DimVector(shape.size(), highestPowerOf2Divisor(value)),
                  DimVector(shape), value);
}

AxisInfo AxisInfo::getPessimisticState(Value value) {
  unsigned rank = axisShapeOf(value.getType()).size();
  auto arg = dyn_cast<BlockArgument>(value);
  if (!arg || !arg.getOwner()->isEntryBlock())
    return unknown(rank);
  auto func = dyn_cast<FunctionOpInterface>(arg.getOwner()->getParentOp());
  if (!func)
    return unknown(rank);
  // The frontend marks arguments the launch specialized as multiples of 16
  // (pointers: 16-byte aligned) with `tile.divisibility`.
  auto read = [&](StringRef name) {
    DimVector facts(rank, 1);
    Attribute attr = func.getArgAttr(arg.getArgNumber(), name);
    if (auto i = dyn_cast_or_null<IntegerAttr>(attr))
      facts.assign(rank, std::max<int64_t>(1, i.getInt()));
    else if (auto a = dyn_cast_or_null<DenseI32ArrayAttr>(attr);
             a && a.size() == int64_t(rank))
      for (unsigned d = 0; d < rank; ++d)
        facts[d] = std::max<int64_t>(1, a[d]);
    return facts;
  };
  DimVector divisibility = read("tile.divisibility");
  for (int64_t &d : divisibility)
    d = highestPowerOf2Divisor(d);
  return AxisInfo(read("tile.contiguity"), divisibility,
                  read("tile.constancy"));
}

int64_t AxisInfo::getGroupDivisibility(unsigned d, int64_t len) const {
  int64_t c = contiguity[d];
  if (c == 1 || len % c == 0)
    return divisibility[d];
  return std::gcd(divisibility[d], highestPowerOf2Divisor(len));
}

int64_t AxisInfo::getElementDivisibility() const {
  if (constantValue)
    return highestPowerOf2Divisor(*constantValue);
  // Along any dimension without runs the divisibility covers every element.
  int64_t best = 1;
  for (unsigned d = 0; d < getRank(); ++d)
    best = std::max(best, getGroupDivisibility(d, 1));
  return best;
}

AxisInfo AxisInfo::join(const AxisInfo &lhs, const AxisInfo &rhs) {
  if (!lhs.isInitialized())
    return rhs;
  if (!rhs.isInitialized())
    return lhs;
  if (lhs.getRank() != rhs.getRank())
    return unknown(lhs.getRank());
  // Runs of either value are cut to the common length; group starts inside
  // a longer run keep only the alignment of the cut (getGroupDivisibility).
  DimVector contig, div, constancy;
  for (unsigned d = 0; d < lhs.getRank(); ++d) {
    int64_t c = std::gcd(lhs.contiguity[d], rhs.contiguity[d]);
    contig.push_back(c);
    div.push_back(std::gcd(lhs.getGroupDivisibility(d, c),
                           rhs.getGroupDivisibility(d, c)));
    constancy.push_back(std::gcd(lhs.constancy[d], rhs.constancy[d]));
  }
  std::optional<int64_t> value;
  if (lhs.constantValue == rhs.constantValue)
    value = lhs.constantValue;
  return AxisInfo(contig, div, constancy, value);
}

void AxisInfo::print(raw_ostream &os) const {
  if (!isInitialized()) {
    os << "<uninitialized>";
    return;
  }
  auto list = [&](ArrayRef<int64_t> v) {
    os << '[';
    llvm::interleaveComma(v, os);
    os << ']';
  };
  os << "contiguity = ";
  list(contiguity);
  os << ", divisibility = ";
  list(divisibility);
  os << ", constancy = ";
  list(constancy);
  os << ", constant_value = ";
  if (constantValue)
    os << *constantValue;
  else
    os << "<none>";
}

//===----------------------------------------------------------------------===//
// The data-flow analysis
//===----------------------------------------------------------------------===//

namespace {

using AxisInfoLattice = dataflow::Lattice<AxisInfo>;

class AxisInfoAnalysis
    : public dataflow::SparseForwardDataFlowAnalysis<AxisInfoLattice> {
public:
  using SparseForwardDataFlowAnalysis::SparseForwardDataFlowAnalysis;

  void setToEntryState(AxisInfoLattice *lattice) override {
    propagateIfChanged(lattice, lattice->join(AxisInfo::getPessimisticState(
                                    lattice->getAnchor())));
  }

  LogicalResult visitOperation(Operation *op,
                               ArrayRef<const AxisInfoLattice *> operands,
                               ArrayRef<AxisInfoLattice *> results) override {
    // A flattened loop's placeholder is never read (each tile's first
    // iteration selects the value it computes instead): it claims what
    // every value could, so joins with it keep the other side's facts
    // (runs and constancy of the whole dim, the largest divisibility).
    if (op->hasAttr(tile::kPlaceholderAttr)) {
      for (AxisInfoLattice *result : results) {
        AxisInfo::DimVector shape(axisShapeOf(result->getAnchor().getType()));
        AxisInfo any(shape, AxisInfo::DimVector(shape.size(), AxisInfo::kMaxDivisibility),
                     shape);
        propagateIfChanged(result, result->join(any));
      }
      return success();
    }
    SmallVector<const AxisInfo *> infos;
    for (const AxisInfoLattice *operand : operands) {
      // Not reached yet: the solver comes back once it is.
      if (!operand->getValue().isInitialized())
        return success();
      infos.push_back(&operand->getValue());
    }
    for (auto [i, result] : llvm::enumerate(results)) {
      AxisInfo info = computeAxisInfo(op, infos, i);
      if (!info.isInitialized())
        info = AxisInfo::getPessimisticState(result->getAnchor());
      propagateIfChanged(result, result->join(info));
    }
    return success();
  }

  /// The induction variable of scf.for is the one block argument no
  /// control-flow edge defines: lb + i * step, a scalar whose divisibility
  /// is what lb and step share.
  void visitNonControlFlowArguments(Operation *op,
                                    const RegionSuccessor &successor,
                                    ArrayRef<AxisInfoLattice *> argLattices,
                                    unsigned firstIndex) override {
    auto forOp = dyn_cast<scf::ForOp>(op);
    if (!forOp || successor.getSuccessor() != &forOp.getRegion()) {
      SparseForwardDataFlowAnalysis::visitNonControlFlowArguments(
          op, successor, argLattices, firstIndex);
      return;
    }
    // Revisit the loop entry when the bounds change.
    ProgramPoint *entry = getProgramPointBefore(&forOp.getRegion().front());
    const AxisInfo &lb =
        getLatticeElementFor(entry, forOp.getLowerBound())->getValue();
    const AxisInfo &step =
        getLatticeElementFor(entry, forOp.getStep())->getValue();
    if (!lb.isInitialized() || !step.isInitialized())
      return;
    AxisInfo iv({1}, {std::gcd(lb.getDivisibility(0), step.getDivisibility(0))},
                {1});
    AxisInfoLattice *ivLattice = getLatticeElement(forOp.getInductionVar());
    propagateIfChanged(ivLattice, ivLattice->join(iv));
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// ModuleAxisInfo
//===----------------------------------------------------------------------===//

ModuleAxisInfo::ModuleAxisInfo(ModuleOp module) { analyze(module); }

ModuleAxisInfo::ModuleAxisInfo(Operation *op) {
  Operation *root = op;
  if (!isa<ModuleOp>(op))
    if (auto module = op->getParentOfType<ModuleOp>())
      root = module;
  analyze(root);
}

void ModuleAxisInfo::analyze(Operation *root) {
  // Dead-code analysis tells the sparse analysis which blocks run and which
  // call sites and region successors exist; constant propagation lets it
  // decide branches on constants.
  DataFlowSolver solver;
  solver.load<dataflow::DeadCodeAnalysis>();
  solver.load<dataflow::SparseConstantPropagation>();
  solver.load<AxisInfoAnalysis>();
  if (failed(solver.initializeAndRun(root)))
    return;
  auto record = [&](Value v) {
    const auto *lattice = solver.lookupState<AxisInfoLattice>(v);
    if (lattice && lattice->getValue().isInitialized())
      infos[v] = lattice->getValue();
  };
  root->walk([&](Operation *op) {
    for (Value result : op->getResults())
      record(result);
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          record(arg);
  });
}

const AxisInfo *ModuleAxisInfo::get(Value value) const {
  auto it = infos.find(value);
  return it == infos.end() ? nullptr : &it->second;
}

/// The largest power of two dividing a positive length (runs of a length
/// that is not a power of two still contain aligned runs of its lowest
/// bit).
static int64_t lowPow2(int64_t v) { return v <= 0 ? 1 : v & -v; }

unsigned ModuleAxisInfo::getPtrContiguity(Value ptr, unsigned dim) const {
  auto tensor = dyn_cast<RankedTensorType>(ptr.getType());
  const AxisInfo *info = get(ptr);
  if (!tensor || !info || dim >= tensor.getRank() ||
      info->getRank() != tensor.getRank())
    return 1;
  return unsigned(std::min(lowPow2(info->getContiguity(dim)),
                           lowPow2(tensor.getDimSize(dim))));
}

unsigned ModuleAxisInfo::getPtrAlignment(Value ptr, unsigned dim) const {
  unsigned contig = getPtrContiguity(ptr, dim);
  if (contig == 1)
    return 1;
  int64_t bytes = pointeeBytes(ptr.getType());
  int64_t div = get(ptr)->getDivisibility(dim);
  int64_t elements = div % bytes == 0 ? lowPow2(div / bytes) : 1;
  return unsigned(std::min<int64_t>(elements, contig));
}

unsigned ModuleAxisInfo::getMaskAlignment(Value mask, unsigned dim) const {
  if (!mask)
    return UINT_MAX;
  auto tensor = dyn_cast<RankedTensorType>(mask.getType());
  // A scalar mask is the same for every element.
  if (!tensor)
    return UINT_MAX;
  const AxisInfo *info = get(mask);
  if (!info || dim >= tensor.getRank() || info->getRank() != tensor.getRank())
    return 1;
  return unsigned(std::min(lowPow2(info->getConstancy(dim)),
                           lowPow2(tensor.getDimSize(dim))));
}

unsigned ModuleAxisInfo::getVectorWidth(Value ptr, Value mask,
                                        unsigned dim) const {
  int64_t bits = pointeeBytes(ptr.getType()) * 8;
  int64_t width =
      std::min<int64_t>(getPtrAlignment(ptr, dim), getMaskAlignment(mask, dim));
  width = std::min<int64_t>(width, std::max<int64_t>(1, 128 / bits));
  return unsigned(std::max<int64_t>(1, width));
}
