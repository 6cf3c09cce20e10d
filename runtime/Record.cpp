//===- Record.cpp - the on-disk format of a recorded launch ---------------===//
#include "runtime/Record.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <sys/stat.h>

using namespace tritium;

std::string rt::recordedInt(int64_t bits, bool isUnsigned) {
  return isUnsigned ? std::to_string(uint64_t(bits)) : std::to_string(bits);
}

std::string rt::recordedFloat(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  std::string text = buf;
  if (text.find_first_of(".eEn") == std::string::npos)
    text += ".0"; // stays a float
  return text;
}

std::optional<std::string> rt::makeDirectory(const std::string &dir) {
  if (::mkdir(dir.c_str(), 0777) != 0 && errno != EEXIST)
    return dir + ": " + std::strerror(errno);
  struct stat st;
  if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    return dir + ": exists and is not a directory";
  return std::nullopt;
}

std::optional<std::string> rt::writeRecord(const std::string &dir, const RecordedLaunch &l) {
  std::ostringstream args;
  args << "kernel " << l.kernel << "\n"
       << "grid " << l.grid << "\n"
       << "num-warps " << l.numWarps << "\n";
  if (l.debug)
    args << "debug\n";
  for (const std::string &c : l.constexprs)
    args << "constexpr " << c << "\n";
  for (const RecordedArg &a : l.args) {
    if (!a.array) {
      args << "arg " << a.name << "=" << a.literal << "\n";
      continue;
    }
    std::string file = a.name + ".npy";
    if (auto e = writeNpy(dir + "/" + file, *a.array))
      return e;
    args << "arg-file " << a.name << "=" << file << ":" << a.elem << "\n";
  }
  std::ofstream src(dir + "/kernel.py", std::ios::binary);
  src << l.source;
  std::ofstream out(dir + "/launch.args");
  out << args.str();
  if (!src.flush() || !out.flush())
    return "cannot write into " + dir;
  return std::nullopt;
}

std::optional<std::string> rt::readRecord(const std::string &dir, RecordedLaunch &l) {
  std::ifstream in(dir + "/launch.args");
  if (!in)
    return "replay " + dir + ": no launch.args there (make one with tritium run ... --record " +
           dir + ")";
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    size_t sp = line.find(' ');
    std::string key = line.substr(0, sp);
    std::string value = sp == std::string::npos ? "" : line.substr(sp + 1);
    size_t eq = value.find('=');
    if (key == "kernel")
      l.kernel = value;
    else if (key == "grid")
      l.grid = value;
    else if (key == "num-warps")
      l.numWarps = std::atoi(value.c_str());
    else if (key == "debug")
      l.debug = true;
    else if (key == "constexpr")
      l.constexprs.push_back(value);
    else if ((key == "arg" || key == "arg-file") && eq != std::string::npos)
      l.args.push_back({value.substr(0, eq), nullptr, "",
                        (key == "arg-file" ? dir + "/" : "") + value.substr(eq + 1)});
    else if (!key.empty())
      return "replay " + dir + "/launch.args:" + std::to_string(n) + ": unknown entry '" +
             key + "'";
  }
  if (l.kernel.empty())
    return "replay " + dir + "/launch.args: no kernel entry";
  return std::nullopt;
}
