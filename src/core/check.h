#pragma once
// Check wrappers for C library calls. Each library gets its check next to the code that owns
// it (MYX_H5 in data/h5.h, MYX_MPI in comm/mpi_check.h; libsndfile and libsoxr calls report
// directly), all through fail_call so messages share one shape:
// "file:line [rank R] LIB: call failed: library message".
#include <string>

#include "core/error.h"

namespace myxtts {

[[noreturn]] void fail_call(const char* library, const char* call, const char* file, int line,
                            const std::string& library_message);

}  // namespace myxtts

#define MYX_FAIL_CALL(lib, call, msg) ::myxtts::fail_call(lib, call, __FILE__, __LINE__, msg)
