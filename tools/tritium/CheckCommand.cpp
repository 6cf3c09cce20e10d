//===- CheckCommand.cpp - `tritium check`: the conformance harness --------===//
//
// The harness itself is Python (conformance/harness.py); this file only
// locates the repository, the Python interpreter and libtritium.so, and
// replaces the process image with `python -m conformance.harness ARGS`
// (posix_spawn + wait, so the exit status comes back to the caller).
//
//===----------------------------------------------------------------------===//
#include "tools/tritium/CheckCommand.h"

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#ifndef TRITIUM_SOURCE_DIR
#define TRITIUM_SOURCE_DIR "."
#endif
#ifndef TRITIUM_BINARY_DIR
#define TRITIUM_BINARY_DIR "."
#endif

namespace tritium::check {
namespace {

bool isExecutable(const std::string &path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
         ::access(path.c_str(), X_OK) == 0;
}

bool exists(const std::string &path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}

std::string dirName(const std::string &path) {
  auto slash = path.find_last_of('/');
  if (slash == std::string::npos)
    return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

/// The directory of the running binary (<build>/bin), from /proc/self/exe,
/// else from argv[0].
std::string binaryDir(const std::string &argv0) {
  char buf[PATH_MAX];
  ssize_t n = ::readlink("/proc/self/exe", buf, sizeof(buf) - 1);
  if (n > 0) {
    buf[n] = '\0';
    return dirName(buf);
  }
  return dirName(argv0);
}

/// The repository root: $TRITIUM_ROOT, else the source directory this
/// binary was configured from.
std::string repoRoot() {
  if (const char *env = std::getenv("TRITIUM_ROOT"); env && *env)
    return env;
  return TRITIUM_SOURCE_DIR;
}

} // namespace

std::string findPython(const std::string &argv0) {
  if (const char *env = std::getenv("TRITIUM_PYTHON"); env && *env)
    return env;
  std::string buildDir = dirName(binaryDir(argv0)); // <build>/bin -> <build>
  for (const std::string &candidate :
       {buildDir + "/venv/bin/python",
        std::string(TRITIUM_BINARY_DIR) + "/venv/bin/python",
        repoRoot() + "/build/venv/bin/python"})
    if (isExecutable(candidate))
      return candidate;
  return "python3";
}

int runCheck(const std::string &argv0, const std::vector<std::string> &args) {
  std::string root = repoRoot();
  if (!exists(root + "/conformance/harness.py")) {
    std::fprintf(stderr,
                 "tritium check: no conformance harness under '%s' (set "
                 "TRITIUM_ROOT to the repository root)\n",
                 root.c_str());
    return 2;
  }
  std::string python = findPython(argv0);
  std::string path = root + "/python:" + root + "/python/compat:" + root;
  if (const char *old = std::getenv("PYTHONPATH"); old && *old)
    path += std::string(":") + old;
  ::setenv("PYTHONPATH", path.c_str(), 1);
  ::setenv("TRITIUM_CHECK_PROG", "tritium check", 0);
  if (!std::getenv("TRITIUM_LIBRARY")) {
    std::string lib = dirName(binaryDir(argv0)) + "/lib/libtritium.so";
    if (exists(lib))
      ::setenv("TRITIUM_LIBRARY", lib.c_str(), 1);
  }

  std::vector<std::string> argvStore = {python, "-m", "conformance.harness"};
  argvStore.insert(argvStore.end(), args.begin(), args.end());
  std::vector<char *> argvC;
  for (auto &a : argvStore)
    argvC.push_back(a.data());
  argvC.push_back(nullptr);

  pid_t pid;
  int rc = ::posix_spawnp(&pid, python.c_str(), nullptr, nullptr, argvC.data(),
                          environ);
  if (rc != 0) {
    std::fprintf(stderr, "tritium check: cannot run '%s': %s\n", python.c_str(),
                 std::strerror(rc));
    return 127;
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR)
      return 127;
  if (WIFEXITED(status))
    return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) {
    std::fprintf(stderr, "tritium check: the harness died of signal %d\n",
                 WTERMSIG(status));
    return 128 + WTERMSIG(status);
  }
  return 1;
}

} // namespace tritium::check
