#pragma once
// Thin RAII layer over the HDF5 C API. Every call goes through MYX_H5, which turns a negative
// return into an Error carrying file:line, rank and HDF5's own error stack.
#include <hdf5.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/check.h"

namespace myxtts::h5 {

std::string error_stack();  // the messages HDF5 pushed for the failed call
void silence_default_printer();  // HDF5 otherwise prints its stack to stderr itself

}  // namespace myxtts::h5

#define MYX_H5(call)                                                              \
  ([&]() {                                                                        \
    auto myx_rc_ = (call);                                                        \
    if (myx_rc_ < 0) MYX_FAIL_CALL("HDF5", #call, ::myxtts::h5::error_stack());    \
    return myx_rc_;                                                               \
  }())

namespace myxtts::h5 {

// Owns one hid_t and closes it with the right H5*close for its kind.
class Handle {
 public:
  Handle() = default;
  explicit Handle(hid_t id) : id_(id) {}
  Handle(Handle&& other) noexcept : id_(other.id_) { other.id_ = -1; }
  Handle& operator=(Handle&& other) noexcept;
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle() { close(); }
  hid_t id() const { return id_; }
  void close();  // for destructors: errors on this path cannot be reported
  // Flushes (files) and closes, throwing on failure: writers call it before renaming a file
  // into place, so a failed write is never taken for a finished one.
  void close_checked();

 private:
  hid_t id_ = -1;
};

// Both name the file in their errors.
Handle create_file(const std::string& path);  // truncates
Handle open_file_readonly(const std::string& path);
Handle create_group(hid_t parent, const std::string& name);
Handle open_group(hid_t parent, const std::string& name);

void write_attribute(hid_t object, const std::string& name, const std::string& value);
void write_attribute(hid_t object, const std::string& name, int64_t value);
bool has_attribute(hid_t object, const std::string& name);
std::string read_string_attribute(hid_t object, const std::string& name);
int64_t read_int_attribute(hid_t object, const std::string& name);

// 1-D datasets of numbers or UTF-8 strings. checksum_chunk > 0 stores the data in chunks of
// that many elements with a Fletcher-32 checksum each (bulk data; the index stays contiguous).
template <class T>
void write_vector(hid_t parent, const std::string& name, const std::vector<T>& values,
                  int64_t checksum_chunk = 0);
template <class T>
std::vector<T> read_vector(hid_t parent, const std::string& name);
void write_strings(hid_t parent, const std::string& name, const std::vector<std::string>& values);
std::vector<std::string> read_strings(hid_t parent, const std::string& name);

// Number of rows (first dimension) and columns (second, 1 for 1-D) of a dataset.
std::pair<int64_t, int64_t> shape(hid_t parent, const std::string& name);

// A chunked [rows, cols] float32 dataset that grows by appending row blocks; every chunk
// carries a Fletcher-32 checksum.
class RowAppender {
 public:
  RowAppender(hid_t parent, const std::string& name, int64_t cols, int64_t chunk_rows);
  void append(const float* rows_data, int64_t rows);
  int64_t rows() const { return rows_; }

 private:
  Handle dataset_;
  int64_t cols_, rows_ = 0;
};

// Reads rows [first, first + count) of a [rows, cols] float32 dataset.
std::vector<float> read_rows(hid_t dataset, int64_t first, int64_t count, int64_t cols);
// Reads elements [first, first + count) of a 1-D dataset.
template <class T>
std::vector<T> read_range(hid_t dataset, int64_t first, int64_t count);

}  // namespace myxtts::h5
