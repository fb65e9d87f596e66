#include "core/check.h"

#include <fmt/format.h>

#include "core/log.h"

namespace myxtts {

void fail_call(const char* library, const char* call, const char* file, int line,
               const std::string& library_message) {
  throw Error(fmt::format("{}:{} [rank {}] {}: {} failed: {}", file, line, log::rank(), library,
                          call, library_message));
}

}  // namespace myxtts
