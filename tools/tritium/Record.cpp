//===- Record.cpp - tritium run --record and tritium replay ---------------===//
//
// A record is a directory a user can attach to a bug report:
//   kernel.py      the kernel's source as it was launched
//   NAME.npy       each input buffer before the launch (with its dtype
//                  given back on replay, so bf16 and fp8 read as such)
//   launch.args    one `tritium run` option per line: kernel, grid,
//                  num-warps, debug, constexpr NAME=V, arg NAME=V (with
//                  buffer files named relative to the directory)
// Buffers the launch got as `empty:` stay generators, so a replay poisons
// them again and the uninit sanitizer still sees them.
//
//===----------------------------------------------------------------------===//
#include "tools/tritium/RunCommand.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <sys/stat.h>

using namespace tritium::run;

namespace {
bool makeDir(const std::string &dir, std::string &why) {
  if (::mkdir(dir.c_str(), 0777) == 0 || errno == EEXIST) {
    struct stat st;
    if (::stat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
      return true;
    why = "exists and is not a directory";
    return false;
  }
  why = std::strerror(errno);
  return false;
}

std::string shapeText(const std::vector<int64_t> &shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "]";
}
} // namespace

std::optional<std::string>
tritium::run::recordLaunch(const RunOptions &o,
                           const std::vector<HostValue> &values,
                           const std::string &dir) {
  auto fail = [&](const std::string &why) {
    return std::optional<std::string>("--record " + dir + ": " + why);
  };
  std::string why;
  if (!makeDir(dir, why))
    return fail(why);
  {
    std::ifstream in(o.file, std::ios::binary);
    std::ofstream out(dir + "/kernel.py", std::ios::binary);
    if (!in || !out)
      return fail("cannot copy " + o.file + " to " + dir + "/kernel.py");
    out << in.rdbuf();
    if (!out.flush())
      return fail("cannot write " + dir + "/kernel.py");
  }
  std::ostringstream args;
  args << "kernel " << o.kernel << "\n"
       << "grid " << o.grid << "\n"
       << "num-warps " << o.numWarps << "\n";
  if (o.debug)
    args << "debug\n";
  for (const std::string &c : o.constexprs)
    args << "constexpr " << c << "\n";
  for (const HostValue &v : values) {
    switch (v.kind) {
    case HostValue::Buffer:
      if (v.uninitialized) {
        args << "arg " << v.name << "=empty:" << v.elem->name
             << shapeText(v.array.shape) << "\n";
      } else {
        std::string file = v.name + ".npy";
        if (auto e = rt::writeNpy(dir + "/" + file, v.array))
          return fail(*e);
        args << "arg-file " << v.name << "=" << file << ":" << v.elem->name
             << "\n";
      }
      break;
    case HostValue::Int:
      args << "arg " << v.name << "="
           << (v.isUnsigned ? std::to_string(uint64_t(v.i))
                            : std::to_string(v.i))
           << "\n";
      break;
    case HostValue::Float: {
      char buf[40];
      std::snprintf(buf, sizeof buf, "%.17g", v.f);
      std::string text = buf;
      if (text.find_first_of(".eEn") == std::string::npos)
        text += ".0"; // stays a float
      args << "arg " << v.name << "=" << text << "\n";
      break;
    }
    case HostValue::Bool:
      args << "arg " << v.name << "=" << (v.i ? "True" : "False") << "\n";
      break;
    }
  }
  std::ofstream out(dir + "/launch.args");
  out << args.str();
  if (!out.flush())
    return fail("cannot write " + dir + "/launch.args");
  return std::nullopt;
}

std::optional<std::string> tritium::run::readRecord(const std::string &dir,
                                                    RunOptions &o) {
  std::ifstream in(dir + "/launch.args");
  if (!in)
    return "replay " + dir +
           ": no launch.args there (make one with tritium run ... --record " +
           dir + ")";
  o.file = dir + "/kernel.py";
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    size_t sp = line.find(' ');
    std::string key = line.substr(0, sp),
                value = sp == std::string::npos ? "" : line.substr(sp + 1);
    if (key == "kernel")
      o.kernel = value;
    else if (key == "grid")
      o.grid = value;
    else if (key == "num-warps")
      o.numWarps = std::atoi(value.c_str());
    else if (key == "debug")
      o.debug = true;
    else if (key == "constexpr")
      o.constexprs.push_back(value);
    else if (key == "arg")
      o.args.push_back(value);
    else if (key == "arg-file" && value.find('=') != std::string::npos)
      o.args.push_back(value.substr(0, value.find('=') + 1) + dir + "/" +
                       value.substr(value.find('=') + 1));
    else if (!key.empty())
      return "replay " + dir + "/launch.args:" + std::to_string(n) +
             ": unknown entry '" + key + "'";
  }
  if (o.kernel.empty())
    return "replay " + dir + "/launch.args: no kernel entry";
  return std::nullopt;
}
