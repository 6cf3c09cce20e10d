//===- Dot.cpp - tile.dot with Eigen ------------------------------*- C++ -*-===//
//
// d = a * b + c for 2-D and batched 3-D tiles. Operands are converted to
// the accumulation type (fp16/bf16/fp8 -> fp32, i8 -> i32, fp64 stays) and
// multiplied with Eigen's GEMM. fp32 operands honour inputPrecision: ieee
// multiplies exactly in fp32; tf32 rounds each operand to tf32 first (10
// mantissa bits, round to nearest even), as the tensor cores do; tf32x3 and
// bf16x3 split each operand into big + small parts and sum the three
// leading cross products (bf16x6 keeps three parts and six products).
//
//===----------------------------------------------------------------------===//
#include "interpreter/Program.h"

#include "ir/TileDialect.h"

#include <Eigen/Dense>

using namespace mlir;

namespace tritium::interp {
namespace {

template <class T>
using RowMat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <class T> using MapM = Eigen::Map<RowMat<T>>;
template <class T> using CMapM = Eigen::Map<const RowMat<T>>;

float roundTf32(float x) {
  uint32_t u;
  std::memcpy(&u, &x, 4);
  if ((u & 0x7f800000u) != 0x7f800000u) {
    u += 0xfffu + ((u >> 13) & 1u);
    u &= ~0x1fffu;
  }
  std::memcpy(&x, &u, 4);
  return x;
}
float roundBf16(float x) { return static_cast<float>(bf16(x)); }

template <class T> void toAcc(const void *src, EK k, int64_t n, T *dst) {
  switch (k) {
  case EK::F32: {
    auto *s = static_cast<const float *>(src);
    for (int64_t i = 0; i < n; ++i)
      dst[i] = T(s[i]);
    break;
  }
  case EK::F16: {
    auto *s = static_cast<const half *>(src);
    for (int64_t i = 0; i < n; ++i)
      dst[i] = T(static_cast<float>(s[i]));
    break;
  }
  case EK::BF16: {
    auto *s = static_cast<const bf16 *>(src);
    for (int64_t i = 0; i < n; ++i)
      dst[i] = T(static_cast<float>(s[i]));
    break;
  }
  default:
    if (isInt(k))
      for (int64_t i = 0; i < n; ++i)
        dst[i] = T(readInt(src, i, k, true));
    else
      for (int64_t i = 0; i < n; ++i)
        dst[i] = T(readFloat(src, i, k));
  }
}

template <class T> void fromAcc(const T *src, EK k, int64_t n, void *dst) {
  for (int64_t i = 0; i < n; ++i) {
    switch (k) {
    case EK::F32: static_cast<float *>(dst)[i] = float(src[i]); break;
    case EK::F64: static_cast<double *>(dst)[i] = double(src[i]); break;
    case EK::F16: static_cast<half *>(dst)[i] = half(float(src[i])); break;
    case EK::BF16: static_cast<bf16 *>(dst)[i] = bf16(float(src[i])); break;
    default: writeInt(dst, i, k, uint64_t(int64_t(src[i]))); break;
    }
  }
}

// op.ints = {B, M, K, N}; op.srcKind = a's kind; op.c = b's kind;
// op.b = input precision; op.kind = c/d kind.
template <class T> void dotT(const Op &op, Frame &f) {
  int64_t B = op.ints[0], M = op.ints[1], K = op.ints[2], N = op.ints[3];
  EK ak = op.srcKind, bk = static_cast<EK>(op.c);
  int64_t na = B * M * K, nb = B * K * N, nc = B * M * N;
  size_t need = (na + nb + nc) * sizeof(T);
  if (f.scratch.size() < need)
    f.scratch.resize(need);
  T *A = reinterpret_cast<T *>(f.scratch.data()), *Bm = A + na, *C = Bm + nb;
  toAcc(f.slot[op.in[0]], ak, na, A);
  toAcc(f.slot[op.in[1]], bk, nb, Bm);
  toAcc(f.slot[op.in[2]], op.kind, nc, C);
  auto prec = static_cast<tile::InputPrecision>(op.b);
  bool fp32Ops = ak == EK::F32 && bk == EK::F32;
  if constexpr (std::is_same_v<T, float>) {
    if (fp32Ops && prec != tile::InputPrecision::IEEE) {
      bool bf = prec == tile::InputPrecision::BF16x3 ||
                prec == tile::InputPrecision::BF16x6;
      int parts = prec == tile::InputPrecision::TF32 ? 1
                  : prec == tile::InputPrecision::BF16x6 ? 3
                                                          : 2;
      auto rnd = bf ? roundBf16 : roundTf32;
      std::vector<float> ap(na * parts), bp(nb * parts);
      for (int64_t i = 0; i < na; ++i) {
        float r = A[i];
        for (int p = 0; p < parts; ++p) {
          ap[p * na + i] = rnd(r);
          r -= ap[p * na + i];
        }
      }
      for (int64_t i = 0; i < nb; ++i) {
        float r = Bm[i];
        for (int p = 0; p < parts; ++p) {
          bp[p * nb + i] = rnd(r);
          r -= bp[p * nb + i];
        }
      }
      for (int64_t bt = 0; bt < B; ++bt) {
        MapM<float> c(C + bt * M * N, M, N);
        RowMat<float> acc = RowMat<float>::Zero(M, N);
        // Smallest products first, as Triton's emulation accumulates.
        for (int s = parts == 1 ? 0 : parts - 1; s >= 0; --s)
          for (int i = 0; i <= s; ++i) {
            int j = s - i;
            if (i >= parts || j >= parts)
              continue;
            acc.noalias() +=
                CMapM<float>(ap.data() + i * na + bt * M * K, M, K) *
                CMapM<float>(bp.data() + j * nb + bt * K * N, K, N);
          }
        c += acc;
      }
      fromAcc(C, op.kind, nc, f.slot[op.res[0]]);
      return;
    }
  }
  for (int64_t bt = 0; bt < B; ++bt) {
    MapM<T> c(C + bt * M * N, M, N);
    c.noalias() += CMapM<T>(A + bt * M * K, M, K) *
                   CMapM<T>(Bm + bt * K * N, K, N);
  }
  fromAcc(C, op.kind, nc, f.slot[op.res[0]]);
}

// Fast path: fp32 ieee with fp32 accumulator, no conversions.
void dotF32(const Op &op, Frame &f) {
  int64_t B = op.ints[0], M = op.ints[1], K = op.ints[2], N = op.ints[3];
  const float *A = f.get<float>(op.in[0]), *Bm = f.get<float>(op.in[1]),
              *C = f.get<float>(op.in[2]);
  float *D = f.get<float>(op.res[0]);
  if (D != C)
    std::memcpy(D, C, B * M * N * sizeof(float));
  for (int64_t bt = 0; bt < B; ++bt) {
    MapM<float> d(D + bt * M * N, M, N);
    d.noalias() += CMapM<float>(A + bt * M * K, M, K) *
                   CMapM<float>(Bm + bt * K * N, K, N);
  }
}

} // namespace

Built buildDot(Builder &b, Operation *mop, Op &op) {
  auto d = dyn_cast<tile::DotOp>(mop);
  if (!d)
    return Built::NotMine; // dot_scaled: DotScaled.cpp
  fillCommon(b, mop, op);
  auto &as = op.srcShape;
  auto &bs = b.info(op.in[1]).shape;
  bool batched = as.size() == 3;
  op.ints = {batched ? as[0] : 1, as[batched], as[batched + 1],
             bs[batched + 1]};
  op.c = static_cast<int64_t>(b.info(op.in[1]).kind);
  op.b = static_cast<int64_t>(d.getInputPrecision());
  EK ak = op.srcKind, bk = b.info(op.in[1]).kind;
  if (isInt(ak) && isInt(bk))
    op.fn = dotT<int32_t>;
  else if (ak == EK::F64 || bk == EK::F64 || op.kind == EK::F64)
    op.fn = dotT<double>;
  else if (ak == EK::F32 && bk == EK::F32 && op.kind == EK::F32 &&
           d.getInputPrecision() == tile::InputPrecision::IEEE)
    op.fn = dotF32;
  else
    op.fn = dotT<float>;
  if (isInt(ak) != isInt(bk))
    return b.error(mop, "cannot interpret dot of mixed int/float operands"),
           Built::Error;
  return Built::Ok;
}

} // namespace tritium::interp
