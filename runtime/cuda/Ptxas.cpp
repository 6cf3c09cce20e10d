//===- Ptxas.cpp - assembling PTX to cubin with NVIDIA's ptxas ------------===//
//
// Finds ptxas, runs it with posix_spawn (arguments passed as a vector, so
// paths and options are never reinterpreted by a shell) with its output sent
// to a log file, and reads the cubin and the -v resource report back.
//
//===----------------------------------------------------------------------===//
#include "runtime/cuda/Ptxas.h"
#include "ir/StageLimit.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <spawn.h>
#include <sstream>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace fs = std::filesystem;

namespace tritium::cuda {

namespace {

Error compileError(std::string message) {
  Error e;
  e.message = std::move(message);
  e.kind = Error::Compile;
  return e;
}

bool isExecutableFile(const std::string &path) {
  struct stat st;
  return !path.empty() && ::stat(path.c_str(), &st) == 0 &&
         S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

bool readFile(const fs::path &path, std::string &out) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  out = ss.str();
  return true;
}

/// A directory of its own under $TMPDIR (or /tmp), removed on destruction.
struct TempDir {
  std::string path;
  TempDir() {
    const char *tmp = std::getenv("TMPDIR");
    std::string tmpl =
        std::string(tmp && *tmp ? tmp : "/tmp") + "/tritium-ptxas-XXXXXX";
    if (::mkdtemp(tmpl.data()))
      path = tmpl;
  }
  ~TempDir() {
    if (!path.empty()) {
      std::error_code ec;
      fs::remove_all(path, ec);
    }
  }
};

/// Runs `argv` with stdin from /dev/null and stdout+stderr into `logPath`.
/// Returns the exit status, or -1 with `why` set when it could not run or
/// was killed by a signal.
int runProcess(const std::vector<std::string> &argv, const std::string &logPath,
               std::string &why) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, logPath.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  std::vector<char *> args;
  for (const std::string &a : argv)
    args.push_back(const_cast<char *>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  int rc = posix_spawn(&pid, argv[0].c_str(), &actions, nullptr, args.data(),
                       environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    why = "cannot run " + argv[0] + ": " + std::strerror(rc);
    return -1;
  }
  // The stage's time limit may kill the child: it is known to the guard
  // until it has exited, and reaped only after that (its pid cannot be
  // reused before).
  StageGuard *stage = currentStage();
  if (stage)
    stage->setChild(pid);
  siginfo_t info;
  while (::waitid(P_PID, pid, &info, WEXITED | WNOWAIT) < 0 && errno == EINTR) {
  }
  if (stage)
    stage->setChild(0);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      why = "waitpid(" + argv[0] + "): " + std::strerror(errno);
      return -1;
    }
  }
  if (WIFSIGNALED(status)) {
    why = argv[0] + " was killed by signal " + std::to_string(WTERMSIG(status));
    return -1;
  }
  return WEXITSTATUS(status);
}

std::string trim(const std::string &s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos)
    return "";
  size_t e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

/// Parses a leading decimal number of `s` at `pos`, advancing past it.
bool parseInt(const std::string &s, size_t &pos, long &value) {
  size_t start = pos;
  while (pos < s.size() && std::isdigit((unsigned char)s[pos]))
    ++pos;
  if (pos == start)
    return false;
  value = std::strtol(s.c_str() + start, nullptr, 10);
  return true;
}

bool startsWith(const std::string &s, const char *prefix) {
  return s.compare(0, std::strlen(prefix), prefix) == 0;
}

} // namespace

std::string findPtxas(std::string *whyNot) {
  std::vector<std::string> tried;
  auto check = [&](const std::string &path) {
    tried.push_back(path);
    return isExecutableFile(path);
  };
  if (const char *env = std::getenv("TRITIUM_PTXAS"); env && *env) {
    // An explicit choice is not second-guessed by a search.
    if (check(env))
      return env;
    if (whyNot)
      *whyNot =
          std::string("TRITIUM_PTXAS=") + env + " is not an executable file";
    return "";
  }
  if (const char *path = std::getenv("PATH")) {
    std::stringstream ss(path);
    std::string dir;
    while (std::getline(ss, dir, ':'))
      if (!dir.empty() && isExecutableFile(dir + "/ptxas"))
        return dir + "/ptxas";
    tried.push_back("ptxas on PATH");
  }
  if (check("/usr/local/cuda/bin/ptxas"))
    return "/usr/local/cuda/bin/ptxas";
  if (const char *home = std::getenv("CUDA_HOME"); home && *home)
    if (check(std::string(home) + "/bin/ptxas"))
      return std::string(home) + "/bin/ptxas";
  if (whyNot) {
    std::string list;
    for (const std::string &t : tried)
      list += (list.empty() ? "" : ", ") + t;
    *whyNot = "ptxas not found (looked at " + list +
              "; set TRITIUM_PTXAS or CUDA_HOME)";
  }
  return "";
}

bool ptxasAvailable() { return !findPtxas().empty(); }

Expected<std::string> ptxasVersion() {
  static const Expected<std::string> version = []() -> Expected<std::string> {
    std::string why;
    std::string ptxas = findPtxas(&why);
    if (ptxas.empty())
      return compileError(why);
    TempDir dir;
    if (dir.path.empty())
      return compileError("cannot create a temporary directory");
    std::string logPath = dir.path + "/version.txt";
    int rc = runProcess({ptxas, "--version"}, logPath, why);
    std::string log;
    readFile(logPath, log);
    if (rc != 0)
      return compileError(rc < 0 ? why
                                 : ptxas + " --version failed:\n" + trim(log));
    // "Cuda compilation tools, release 13.0, V13.0.88" names the release;
    // the lines around it are banner and build date.
    std::stringstream ss(log);
    std::string line, last;
    while (std::getline(ss, line)) {
      line = trim(line);
      if (line.find("release") != std::string::npos)
        return line;
      if (!line.empty())
        last = line;
    }
    return last;
  }();
  return version;
}

void parsePtxasLog(const std::string &log, PtxasReport &report) {
  std::stringstream ss(log);
  std::string line;
  while (std::getline(ss, line)) {
    // "ptxas info    : Used 8 registers, used 0 barriers, 380 bytes cmem[0]"
    // "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads"
    if (size_t colon = line.find("info    :"); colon != std::string::npos)
      line = line.substr(colon + 9);
    std::stringstream parts(line);
    std::string part;
    while (std::getline(parts, part, ',')) {
      part = trim(part);
      size_t pos = 0;
      long n = 0;
      if (startsWith(part, "Used ")) {
        pos = 5;
        if (parseInt(part, pos, n) &&
            part.compare(pos, 10, " registers") == 0) {
          report.registers = std::max(report.registers, int(n));
          report.parsed = true;
        }
        continue;
      }
      if (!parseInt(part, pos, n))
        continue;
      std::string rest = part.substr(pos);
      if (rest == " bytes spill stores")
        report.spillStoreBytes = std::max(report.spillStoreBytes, int(n));
      else if (rest == " bytes spill loads")
        report.spillLoadBytes = std::max(report.spillLoadBytes, int(n));
      else if (rest == " bytes stack frame")
        report.stackFrameBytes = std::max(report.stackFrameBytes, int(n));
      else if (rest == " bytes smem")
        report.sharedBytes = std::max(report.sharedBytes, int(n));
    }
  }
}

Expected<std::string> assemble(const std::string &ptx, const std::string &arch,
                               PtxasReport *report,
                               const std::vector<std::string> &extraArgs) {
  std::string why;
  std::string ptxas = findPtxas(&why);
  if (ptxas.empty())
    return compileError(why);
  TempDir dir;
  if (dir.path.empty())
    return compileError(std::string("cannot create a temporary directory: ") +
                        std::strerror(errno));
  std::string in = dir.path + "/kernel.ptx";
  std::string out = dir.path + "/kernel.cubin";
  std::string logPath = dir.path + "/ptxas.log";
  {
    std::ofstream f(in, std::ios::binary);
    f << ptx;
    if (!f.flush())
      return compileError("cannot write " + in);
  }
  std::vector<std::string> argv = {ptxas, "-v", "--gpu-name=" + arch, "-O3"};
  argv.insert(argv.end(), extraArgs.begin(), extraArgs.end());
  argv.insert(argv.end(), {in, "-o", out});
  // The stage is named after the PTX's first kernel.
  std::string kernel = "PTX";
  if (size_t e = ptx.find(".entry "); e != std::string::npos) {
    size_t b = e + 7, end = ptx.find_first_of("( \n", b);
    kernel = ptx.substr(b, end == std::string::npos ? std::string::npos : end - b);
  }
  StageGuard guard("ptxas", kernel);
  int rc = runProcess(argv, logPath, why);
  if (auto err = guard.error())
    return compileError(*err);
  std::string log;
  readFile(logPath, log);
  if (report) {
    *report = PtxasReport();
    report->log = log;
    parsePtxasLog(log, *report);
  }
  if (rc < 0)
    return compileError(why);
  if (rc != 0)
    return compileError("ptxas --gpu-name=" + arch + " failed (exit " +
                        std::to_string(rc) + "):\n" + trim(log));
  std::string cubin;
  if (!readFile(out, cubin) || cubin.empty())
    return compileError("ptxas --gpu-name=" + arch + " wrote no cubin:\n" +
                        trim(log));
  return cubin;
}

} // namespace tritium::cuda
