#pragma once
// MPI call checking for the files of src/comm/ (the only ones that include mpi.h).
#include <mpi.h>

#include <string>

#include "core/check.h"

namespace myxtts::comm {
std::string mpi_error_text(int code);
}  // namespace myxtts::comm

#define MYX_MPI(call)                                                                       \
  do {                                                                                      \
    int myx_rc_ = (call);                                                                   \
    if (myx_rc_ != MPI_SUCCESS) MYX_FAIL_CALL("MPI", #call, ::myxtts::comm::mpi_error_text(myx_rc_)); \
  } while (0)
