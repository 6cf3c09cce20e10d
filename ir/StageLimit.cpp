//===- StageLimit.cpp - A time limit on each stage of a compile -----------===//
#include "ir/StageLimit.h"

#include <algorithm>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <new>
#include <set>
#include <thread>

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

namespace tritium {

namespace {
thread_local StageGuard *current = nullptr;
std::atomic<double> overrideLimit{-1.0};

std::string formatSeconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", s);
  return buf;
}
} // namespace

/// A stage past its limit gets as long again, and at least this, to stop
/// by itself.
std::chrono::steady_clock::duration graceFloor() { return std::chrono::seconds(1); }

/// The guards with a limit, and the thread that times them. Never
/// destroyed: the thread may still wait on it while the process exits.
struct StageWatchdog {
  std::mutex m;
  std::condition_variable cv;
  std::set<StageGuard *> active;
  bool started = false;

  static StageWatchdog &get() {
    static StageWatchdog *w = [] {
      auto *w = new StageWatchdog;
      // A forked child has the lists but not the thread: it starts its
      // own with its first guard.
      pthread_atfork(nullptr, nullptr, [] {
        StageWatchdog &d = get();
        new (&d.m) std::mutex;
        new (&d.cv) std::condition_variable;
        d.active.clear();
        d.started = false;
      });
      return w;
    }();
    return *w;
  }

  void add(StageGuard *g) {
    std::lock_guard<std::mutex> lock(m);
    active.insert(g);
    if (!started) {
      started = true;
      std::thread([this] { run(); }).detach();
    }
    cv.notify_one();
  }

  void remove(StageGuard *g) {
    std::lock_guard<std::mutex> lock(m);
    active.erase(g);
  }

  void run() {
    std::unique_lock<std::mutex> lock(m);
    for (;;) {
      if (active.empty()) {
        cv.wait(lock);
        continue;
      }
      auto now = std::chrono::steady_clock::now();
      auto next = now + std::chrono::hours(1);
      for (StageGuard *g : active) {
        auto limit = std::chrono::duration_cast<std::chrono::steady_clock::duration>(
            std::chrono::duration<double>(g->limit_));
        auto end = g->start_ + limit + std::max(limit, graceFloor());
        if (now >= end) {
          std::string msg = "tritium: error: " +
                            stageLimitMessage(g->what_, g->stage_, g->limit_) +
                            "; the stage did not stop at the limit, so the process ends\n";
          (void)!::write(2, msg.data(), msg.size());
          std::_Exit(124);
        }
        if (now >= g->start_ + limit) {
          if (!g->expired()) {
            g->expired_.store(true, std::memory_order_relaxed);
            if (g->child_ > 0)
              ::kill(g->child_, SIGKILL);
          }
          next = std::min(next, end);
        } else {
          next = std::min(next, g->start_ + limit);
        }
      }
      cv.wait_until(lock, next);
    }
  }
};

double stageTimeLimit(std::string *bad) {
  double o = overrideLimit.load();
  if (o >= 0)
    return o;
  const char *e = std::getenv("TRITIUM_COMPILE_TIME_LIMIT");
  if (!e || !*e)
    return 300;
  char *end = nullptr;
  double v = std::strtod(e, &end);
  if (end == e || *end || !(v >= 0) || v > 1e9) {
    if (bad)
      *bad = std::string("TRITIUM_COMPILE_TIME_LIMIT='") + e +
             "' is not a number of seconds (0 for no limit)";
    return 0;
  }
  return v;
}

void setStageTimeLimit(double seconds) { overrideLimit.store(seconds); }

std::string stageLimitMessage(const std::string &what, const char *stage, double limit) {
  return "compiling '" + what + "': stage '" + stage + "' passed its time limit of " +
         formatSeconds(limit) + " s (TRITIUM_COMPILE_TIME_LIMIT; 0 for no limit)";
}

StageGuard::StageGuard(const char *stage, std::string what)
    : stage_(stage), what_(std::move(what)), limit_(stageTimeLimit(&badSetting_)),
      start_(std::chrono::steady_clock::now()), previous_(current) {
  current = this;
  if (limit_ > 0)
    StageWatchdog::get().add(this);
}

StageGuard::~StageGuard() {
  if (limit_ > 0)
    StageWatchdog::get().remove(this);
  current = previous_;
}

std::optional<std::string> StageGuard::error() const {
  if (!badSetting_.empty())
    return badSetting_;
  if (expired())
    return stageLimitMessage(what_, stage_, limit_);
  return std::nullopt;
}

void StageGuard::setChild(int pid) {
  if (limit_ <= 0) {
    child_ = pid;
    return;
  }
  StageWatchdog &w = StageWatchdog::get();
  std::lock_guard<std::mutex> lock(w.m);
  child_ = pid;
  // A child started after the limit passed is stopped at once.
  if (pid > 0 && expired())
    ::kill(pid, SIGKILL);
}

StageGuard *currentStage() { return current; }

} // namespace tritium
