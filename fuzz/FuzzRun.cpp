//===- FuzzRun.cpp - `tritium run`'s launch options and a record's reader ===//
//
// The input is a launch in a record's launch.args form, one entry per line
// (`kernel k`, `grid 4,2`, `num-warps 4`, `constexpr BLOCK=64`,
// `arg x_ptr=randn:f32[64]`, `arg-file y=y.npy`, ...), plus lines the record
// does not hold, for the rest of `tritium run`'s options: `trace
// [FILE:]LINE[:NAME]`, `pid X[,Y[,Z]]`, `seed N`. It goes through
// tritium replay's reader (a record directory whose kernel.py is a fixed
// kernel) and then through `tritium run --dry-run`: grid, --trace/--pid,
// every --constexpr and --arg value (scalars, generators, .npy files),
// Triton's specialization and the compile. Every input must give a result
// or an error message; an internal error is a finding (Finding.h).
// Inputs asking for buffers of more than 2^22 elements are skipped (a
// limit of the harness's memory, not of tritium run).
//
//===----------------------------------------------------------------------===//
#include "fuzz/Finding.h"

#include "tools/tritium/RunCommand.h"

#include <cctype>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <unistd.h>

using namespace tritium;
namespace fs = std::filesystem;

namespace {

const char *kTarget = "run";

const char *kKernel = R"(import triton
import triton.language as tl


@triton.jit
def k(x_ptr, y_ptr, out_ptr, n, scale, flag, BLOCK: tl.constexpr, MODE: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    y = tl.load(y_ptr + offs, mask=mask, other=0)
    if MODE == 1:
        x = x * scale
    if flag:
        y = y + 1
    acc = x + y
    tl.store(out_ptr + offs, acc, mask=mask)
)";

/// The record directory, made once per process: kernel.py and one .npy.
const std::string &recordDir() {
  static const std::string dir = [] {
    fs::path d = fs::temp_directory_path() / ("tritium-fuzz-run-" + std::to_string(::getpid()));
    fs::create_directories(d);
    std::ofstream(d / "kernel.py") << kKernel;
    // A float32 vector of 4 elements.
    std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }";
    header.resize(128 - 10 - 1, ' '); // the whole header: 128 bytes
    header += '\n';
    std::ofstream npy(d / "x.npy", std::ios::binary);
    npy << "\x93NUMPY" << '\x01' << '\x00' << char(header.size() & 0xff)
        << char(header.size() >> 8) << header;
    float v[4] = {1, 2, 3, 4};
    npy.write(reinterpret_cast<const char *>(v), sizeof v);
    return d.string();
  }();
  return dir;
}

/// Whether a bracketed shape of the input asks for more than 2^22 elements.
bool tooLarge(const std::string &text) {
  for (size_t b = text.find('['); b != std::string::npos; b = text.find('[', b + 1)) {
    unsigned long long n = 1;
    std::string digits;
    for (size_t i = b + 1; i <= text.size(); ++i) {
      char c = i < text.size() ? text[i] : ']';
      if (std::isdigit((unsigned char)c)) {
        if (digits.size() < 13)
          digits += c;
        continue;
      }
      if (!digits.empty()) {
        n *= std::stoull(digits);
        digits.clear();
        if (n > (1ull << 22))
          return true;
      }
      if (c == ']' || c == '\n')
        break;
    }
  }
  return false;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);
  if (tooLarge(text))
    return 0;
  // Lines for the options a record does not hold; the rest is launch.args.
  run::RunOptions extra;
  std::string args;
  std::stringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("trace ", 0) == 0) {
      extra.trace = line.substr(6);
    } else if (line.rfind("pid ", 0) == 0) {
      extra.pids.push_back(line.substr(4));
    } else if (line.rfind("seed ", 0) == 0) {
      extra.seed = std::strtoull(line.c_str() + 5, nullptr, 10);
    } else {
      args += line + "\n";
    }
  }
  const std::string &dir = recordDir();
  std::ofstream(dir + "/launch.args", std::ios::binary | std::ios::trunc) << args;
  run::RunOptions o = extra;
  if (auto e = run::readRecord(dir, o)) {
    fuzz::checkAnswer(kTarget, *e);
    return 0;
  }
  o.dryRun = true;
  std::ostringstream out, err;
  run::runCommand(o, out, err);
  fuzz::checkAnswer(kTarget, err.str());
  return 0;
}
