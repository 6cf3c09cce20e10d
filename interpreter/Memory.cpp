//===- Memory.cpp - buffer registry and fault descriptions ------*- C++ -*-===//
//
// The slow half of access checking: finding the buffer an address belongs
// to when the per-thread hint misses, and writing the report for a lane
// that belongs to none ("4 bytes past the end of buffer 'x' (4096 bytes)").
//
//===----------------------------------------------------------------------===//
#include "interpreter/Memory.h"
#include "interpreter/Program.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace tritium::interp {

void Memory::add(const void *data, size_t bytes, const std::string &name,
                 bool uninitialized) {
  uint64_t lo = reinterpret_cast<uint64_t>(data);
  uint8_t *shadow = nullptr;
  if (uninitialized && trackUninitialized && bytes) {
    shadows_.push_back(std::make_unique<uint8_t[]>(bytes));
    shadow = shadows_.back().get();
    std::memset(shadow, 1, bytes);
    shadowed = true;
  }
  ranges.push_back({lo, lo + bytes, name, shadow});
}

void checkUninitializedRead(Frame &f, const Op &op, const char *access, int64_t lane,
                            uint64_t addr, unsigned size) {
  if (f.uninitReported)
    return;
  int64_t off = f.mem->firstPoisoned(addr, size, f.bufHint);
  if (off < 0)
    return;
  const Memory::Range &r = f.mem->ranges[f.bufHint];
  f.uninitReported = true;
  if (!f.reports.empty())
    f.reports += "\n";
  f.reports += "uninitialized-read sanitizer: kernel " + f.prog->kernelName + ", program " +
               f.pidText() + ", " + op.loc + ": " + access + " lane " + laneText(op, lane) +
               " reads byte " + std::to_string(off) + " of buffer '" + r.name + "' (" +
               std::to_string(r.hi - r.lo) + " bytes), which nothing has written";
}

void Memory::finalize() {
  std::stable_sort(ranges.begin(), ranges.end(),
                   [](const Range &a, const Range &b) { return a.lo < b.lo; });
}

bool Memory::slowOk(uint64_t addr, unsigned size, size_t &hint) const {
  if ((addr & (size - 1)) != 0)
    return false;
  // Last range whose lo <= addr.
  auto it = std::upper_bound(
      ranges.begin(), ranges.end(), addr,
      [](uint64_t a, const Range &r) { return a < r.lo; });
  while (it != ranges.begin()) {
    --it;
    if (addr + size <= it->hi && addr >= it->lo) {
      hint = it - ranges.begin();
      return true;
    }
    // Overlapping registrations: keep looking at earlier ones.
    if (it->hi <= addr && it == ranges.begin())
      break;
  }
  return false;
}

static std::string hex(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)v);
  return buf;
}

std::string Memory::explain(uint64_t addr, unsigned size) const {
  if (ranges.empty())
    return "which is not in any registered buffer (no buffers registered)";
  const Range *best = nullptr;
  uint64_t bestDist = UINT64_MAX;
  for (const Range &r : ranges) {
    uint64_t d = addr < r.lo ? r.lo - addr
                 : addr >= r.hi ? addr - r.hi
                                : 0;
    if (d < bestDist) {
      bestDist = d;
      best = &r;
    }
  }
  const Range &r = *best;
  std::string buf = "buffer '" + r.name + "' (" + std::to_string(r.hi - r.lo) +
                    " bytes)";
  if (addr >= r.lo && addr < r.hi) {
    uint64_t off = addr - r.lo;
    if (addr % size)
      return "which is not aligned to " + std::to_string(size) +
             " bytes (offset " + std::to_string(off) + " in " + buf + ")";
    return "whose " + std::to_string(size) + "-byte element at offset " +
           std::to_string(off) + " extends past the end of " + buf;
  }
  if (addr < r.lo)
    return "which is " + std::to_string(r.lo - addr) +
           " bytes before the start of " + buf;
  return "which is " + std::to_string(addr - r.hi) + " bytes past the end of " +
         buf;
}

void reportBadAccess(Frame &f, const Op &op, const char *access,
                     const char *verb, int64_t lane, uint64_t addr,
                     unsigned size) {
  bool misaligned = addr % size != 0;
  std::string what = std::string(misaligned ? "misaligned " : "out-of-bounds ") +
                     access;
  if (misaligned) {
    bool inside = false;
    for (const auto &r : f.mem->ranges)
      inside |= addr >= r.lo && addr < r.hi;
    if (!inside)
      what = std::string("out-of-bounds ") + access;
  }
  f.fail(op, what,
         "lane " + laneText(op, lane) + " " + verb + " address " +
             hex(addr) + " " + f.mem->explain(addr, size));
}

} // namespace tritium::interp
