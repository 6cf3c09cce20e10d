//===- Elementwise.h - loop templates shared by elementwise files -*- C++ -*-===//
//
// Tight loops over whole tiles, templated on the storage type and on a
// stateless functor, so each handler is one function pointer with no
// per-element dispatch. fp16/bf16 compute in float and round per op.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_INTERPRETER_ELEMENTWISE_H
#define TRITIUM_INTERPRETER_ELEMENTWISE_H

#include "interpreter/Program.h"

#include <type_traits>

namespace tritium::interp {

template <class T> struct ComputeOf { using type = T; };
template <> struct ComputeOf<half> { using type = float; };
template <> struct ComputeOf<bf16> { using type = float; };
template <class T> using Compute = typename ComputeOf<T>::type;

template <class T, class Fn> struct floatUnary {
  static void run(const Op &op, Frame &f) {
  using C = Compute<T>;
  int64_t n = op.count(f);
  const T *a = f.get<T>(op.in[0]);
  T *r = f.get<T>(op.res[0]);
  for (int64_t i = 0; i < n; ++i)
    r[i] = T(Fn::apply(C(a[i])));
  }
};

template <class T, class Fn> struct floatBinary {
  static void run(const Op &op, Frame &f) {
  using C = Compute<T>;
  int64_t n = op.count(f);
  const T *a = f.get<T>(op.in[0]), *b = f.get<T>(op.in[1]);
  T *r = f.get<T>(op.res[0]);
  for (int64_t i = 0; i < n; ++i)
    r[i] = T(Fn::apply(C(a[i]), C(b[i])));
  }
};

template <class T, class Fn> struct floatTernary {
  static void run(const Op &op, Frame &f) {
  using C = Compute<T>;
  int64_t n = op.count(f);
  const T *a = f.get<T>(op.in[0]), *b = f.get<T>(op.in[1]),
          *c = f.get<T>(op.in[2]);
  T *r = f.get<T>(op.res[0]);
  for (int64_t i = 0; i < n; ++i)
    r[i] = T(Fn::apply(C(a[i]), C(b[i]), C(c[i])));
  }
};

template <template <class, class> class Loop, class Fn>
Handler pickFloat(EK k) {
  switch (k) {
  case EK::F16:
    return Loop<half, Fn>::run;
  case EK::BF16:
    return Loop<bf16, Fn>::run;
  case EK::F32:
    return Loop<float, Fn>::run;
  case EK::F64:
    return Loop<double, Fn>::run;
  default:
    return nullptr;
  }
}

template <template <class, class> class Loop, class Fn> Handler pickInt(EK k) {
  switch (k) {
  case EK::I1:
  case EK::I8:
    return Loop<uint8_t, Fn>::run;
  case EK::I16:
    return Loop<uint16_t, Fn>::run;
  case EK::I32:
    return Loop<uint32_t, Fn>::run;
  case EK::I64:
  case EK::Ptr:
    return Loop<uint64_t, Fn>::run;
  default:
    return nullptr;
  }
}

} // namespace tritium::interp

#endif // TRITIUM_INTERPRETER_ELEMENTWISE_H
