//===- StageLimit.h - A time limit on each stage of a compile ---*- C++ -*-===//
//
// Each stage of a compile (parse, ir generation, tile passes, gpu passes,
// lowering, llvm opt, nvptx, ptxas) runs inside a StageGuard. A stage may
// run for TRITIUM_COMPILE_TIME_LIMIT seconds (default 300; 0: no limit;
// `tritium compile --time-limit`). Past that:
//  - the guard reads as expired: LLVM skips its remaining optional passes
//    and the stage's caller fails the compile with error(), which names the
//    kernel and the stage;
//  - the child process the stage waits for (ptxas) is killed;
//  - a stage still running at twice the limit, and at least 1 s past it
//    (stuck inside one pass, which nothing can interrupt), ends the
//    process: the same message on stderr, exit status 124.
// A watchdog thread, started with the first guard that has a limit, keeps
// the time. Pure C++ (no MLIR or LLVM), so every layer can use it.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_IR_STAGELIMIT_H
#define TRITIUM_IR_STAGELIMIT_H

#include <atomic>
#include <chrono>
#include <optional>
#include <string>

namespace tritium {

class StageGuard {
public:
  /// Enters `stage` of compiling `what` (a kernel's name, or a file's) on
  /// this thread; the previous guard of the thread comes back at the end.
  StageGuard(const char *stage, std::string what);
  ~StageGuard();
  StageGuard(const StageGuard &) = delete;
  StageGuard &operator=(const StageGuard &) = delete;

  /// True once the stage has run past the limit.
  bool expired() const { return expired_.load(std::memory_order_relaxed); }
  /// The compile's error when the stage ran past the limit, or when the
  /// limit's setting is not a number of seconds; nothing otherwise.
  std::optional<std::string> error() const;
  /// The child process this stage waits for (killed at the limit); 0 for
  /// none. Clear it before the child is reaped.
  void setChild(int pid);

  const char *stage() const { return stage_; }
  const std::string &what() const { return what_; }

private:
  friend struct StageWatchdog;
  const char *stage_;
  std::string what_;
  double limit_;
  std::string badSetting_;
  std::chrono::steady_clock::time_point start_;
  std::atomic<bool> expired_{false};
  int child_ = 0;
  StageGuard *previous_;
};

/// The innermost guard of the stage running on this thread, or nullptr.
StageGuard *currentStage();

/// Overrides TRITIUM_COMPILE_TIME_LIMIT for this process (seconds, 0: no
/// limit).
void setStageTimeLimit(double seconds);

/// The limit the next stage gets, in seconds (0: none); `bad` receives the
/// message when TRITIUM_COMPILE_TIME_LIMIT is not a number of seconds.
double stageTimeLimit(std::string *bad = nullptr);

/// "compiling 'k': stage 'llvm opt' passed its time limit of 2 s (...)".
std::string stageLimitMessage(const std::string &what, const char *stage, double limit);

} // namespace tritium

#endif
