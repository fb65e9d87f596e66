#include "core/interrupt.h"

#include <fmt/format.h>

#include <csignal>

#include "core/error.h"

namespace myxtts {
namespace {

volatile std::sig_atomic_t g_signal = 0;

void on_signal(int signal) {
  if (g_signal != 0) {
    std::signal(signal, SIG_DFL);
    std::raise(signal);
  }
  g_signal = signal;
}

}  // namespace

void install_interrupt_handlers() {
  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);
}

int interrupt_signal() { return g_signal; }

void throw_if_interrupted() {
  if (g_signal != 0)
    throw Error(fmt::format("interrupted by {}; stopping", g_signal == SIGINT ? "SIGINT" : "SIGTERM"));
}

}  // namespace myxtts
