#pragma once
// Fault injection for tests: MYXTTS_FAULT_<NAME>=N asks a component to fail (crash or throw)
// after N units of work, so failure paths are exercised by real runs, deterministically.
#include <cstdlib>
#include <string>

namespace myxtts {

// N from the environment, or -1 when the fault is not requested.
inline long fault_after(const char* name) {
  const char* value = std::getenv((std::string("MYXTTS_FAULT_") + name).c_str());
  return value ? std::atol(value) : -1;
}

}  // namespace myxtts
