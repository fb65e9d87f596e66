#include "data/h5.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

namespace myxtts::h5 {
namespace {

template <class T>
hid_t native_type();
template <>
hid_t native_type<float>() { return H5T_NATIVE_FLOAT; }
template <>
hid_t native_type<double>() { return H5T_NATIVE_DOUBLE; }
template <>
hid_t native_type<int32_t>() { return H5T_NATIVE_INT32; }
template <>
hid_t native_type<int64_t>() { return H5T_NATIVE_INT64; }
template <>
hid_t native_type<uint8_t>() { return H5T_NATIVE_UINT8; }

herr_t collect_message(unsigned depth, const H5E_error2_t* error, void* out) {
  auto* text = static_cast<std::string*>(out);
  if (!text->empty()) *text += "; ";
  *text += fmt::format("{}{} ({})", depth == 0 ? "" : "<- ", error->desc ? error->desc : "?",
                       error->func_name ? error->func_name : "?");
  return 0;
}

// Creation properties that leave out modification times, so identical inputs give
// byte-identical caches.
Handle untimed_creation_properties(hid_t klass) {
  Handle plist(MYX_H5(H5Pcreate(klass)));
  MYX_H5(H5Pset_obj_track_times(plist.id(), false));
  return plist;
}

Handle utf8_string_type() {
  Handle type(MYX_H5(H5Tcopy(H5T_C_S1)));
  MYX_H5(H5Tset_size(type.id(), H5T_VARIABLE));
  MYX_H5(H5Tset_cset(type.id(), H5T_CSET_UTF8));
  return type;
}

}  // namespace

std::string error_stack() {
  std::string text;
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, collect_message, &text);
  H5Eclear2(H5E_DEFAULT);
  return text.empty() ? "no HDF5 message" : text;
}

void silence_default_printer() { H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr); }

Handle& Handle::operator=(Handle&& other) noexcept {
  if (this != &other) {
    close();
    id_ = other.id_;
    other.id_ = -1;
  }
  return *this;
}

void Handle::close() {
  if (id_ < 0) return;
  switch (H5Iget_type(id_)) {
    case H5I_FILE: H5Fclose(id_); break;
    case H5I_GROUP: H5Gclose(id_); break;
    case H5I_DATASET: H5Dclose(id_); break;
    case H5I_DATASPACE: H5Sclose(id_); break;
    case H5I_DATATYPE: H5Tclose(id_); break;
    case H5I_ATTR: H5Aclose(id_); break;
    case H5I_GENPROP_LST: H5Pclose(id_); break;
    default: break;
  }
  id_ = -1;
}

void Handle::close_checked() {
  if (id_ < 0) return;
  const hid_t id = id_;
  id_ = -1;
  if (H5Iget_type(id) == H5I_FILE) {
    MYX_H5(H5Fflush(id, H5F_SCOPE_LOCAL));
    MYX_H5(H5Fclose(id));
  } else {
    Handle owner(id);
    owner.close();
  }
}

Handle create_file(const std::string& path) {
  silence_default_printer();
  Handle fcpl = untimed_creation_properties(H5P_FILE_CREATE);
  hid_t file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, fcpl.id(), H5P_DEFAULT);
  if (file < 0) MYX_FAIL_CALL("HDF5", "H5Fcreate", fmt::format("cannot create {}: {}", path, error_stack()));
  return Handle(file);
}

Handle open_file_readonly(const std::string& path) {
  silence_default_printer();
  hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (file < 0) MYX_FAIL_CALL("HDF5", "H5Fopen", fmt::format("cannot open {}: {}", path, error_stack()));
  return Handle(file);
}

Handle create_group(hid_t parent, const std::string& name) {
  Handle gcpl = untimed_creation_properties(H5P_GROUP_CREATE);
  return Handle(MYX_H5(H5Gcreate2(parent, name.c_str(), H5P_DEFAULT, gcpl.id(), H5P_DEFAULT)));
}

Handle open_group(hid_t parent, const std::string& name) {
  return Handle(MYX_H5(H5Gopen2(parent, name.c_str(), H5P_DEFAULT)));
}

void write_attribute(hid_t object, const std::string& name, const std::string& value) {
  Handle type = utf8_string_type();
  Handle space(MYX_H5(H5Screate(H5S_SCALAR)));
  Handle attr(MYX_H5(H5Acreate2(object, name.c_str(), type.id(), space.id(), H5P_DEFAULT, H5P_DEFAULT)));
  const char* data = value.c_str();
  MYX_H5(H5Awrite(attr.id(), type.id(), &data));
}

void write_attribute(hid_t object, const std::string& name, int64_t value) {
  Handle space(MYX_H5(H5Screate(H5S_SCALAR)));
  Handle attr(MYX_H5(H5Acreate2(object, name.c_str(), H5T_STD_I64LE, space.id(), H5P_DEFAULT, H5P_DEFAULT)));
  MYX_H5(H5Awrite(attr.id(), H5T_NATIVE_INT64, &value));
}

bool has_attribute(hid_t object, const std::string& name) {
  return MYX_H5(H5Aexists(object, name.c_str())) > 0;
}

std::string read_string_attribute(hid_t object, const std::string& name) {
  Handle attr(MYX_H5(H5Aopen(object, name.c_str(), H5P_DEFAULT)));
  Handle type = utf8_string_type();
  char* data = nullptr;
  MYX_H5(H5Aread(attr.id(), type.id(), &data));
  std::string value = data ? data : "";
  H5free_memory(data);
  return value;
}

int64_t read_int_attribute(hid_t object, const std::string& name) {
  Handle attr(MYX_H5(H5Aopen(object, name.c_str(), H5P_DEFAULT)));
  int64_t value = 0;
  MYX_H5(H5Aread(attr.id(), H5T_NATIVE_INT64, &value));
  return value;
}

template <class T>
void write_vector(hid_t parent, const std::string& name, const std::vector<T>& values,
                  int64_t checksum_chunk) {
  hsize_t dims[1] = {values.size()};
  Handle space(MYX_H5(H5Screate_simple(1, dims, nullptr)));
  Handle dcpl = untimed_creation_properties(H5P_DATASET_CREATE);
  if (checksum_chunk > 0 && !values.empty()) {
    hsize_t chunk[1] = {std::min<hsize_t>(values.size(), static_cast<hsize_t>(checksum_chunk))};
    MYX_H5(H5Pset_chunk(dcpl.id(), 1, chunk));
    MYX_H5(H5Pset_fletcher32(dcpl.id()));
  }
  Handle dataset(MYX_H5(H5Dcreate2(parent, name.c_str(), native_type<T>(), space.id(), H5P_DEFAULT,
                                   dcpl.id(), H5P_DEFAULT)));
  if (!values.empty())
    MYX_H5(H5Dwrite(dataset.id(), native_type<T>(), H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()));
}

template <class T>
std::vector<T> read_vector(hid_t parent, const std::string& name) {
  Handle dataset(MYX_H5(H5Dopen2(parent, name.c_str(), H5P_DEFAULT)));
  Handle space(MYX_H5(H5Dget_space(dataset.id())));
  hssize_t n = MYX_H5(H5Sget_simple_extent_npoints(space.id()));
  std::vector<T> values(static_cast<size_t>(n));
  if (n > 0)
    MYX_H5(H5Dread(dataset.id(), native_type<T>(), H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()));
  return values;
}

void write_strings(hid_t parent, const std::string& name, const std::vector<std::string>& values) {
  Handle type = utf8_string_type();
  hsize_t dims[1] = {values.size()};
  Handle space(MYX_H5(H5Screate_simple(1, dims, nullptr)));
  Handle dcpl = untimed_creation_properties(H5P_DATASET_CREATE);
  Handle dataset(MYX_H5(H5Dcreate2(parent, name.c_str(), type.id(), space.id(), H5P_DEFAULT,
                                   dcpl.id(), H5P_DEFAULT)));
  std::vector<const char*> pointers;
  pointers.reserve(values.size());
  for (const auto& v : values) pointers.push_back(v.c_str());
  if (!values.empty())
    MYX_H5(H5Dwrite(dataset.id(), type.id(), H5S_ALL, H5S_ALL, H5P_DEFAULT, pointers.data()));
}

std::vector<std::string> read_strings(hid_t parent, const std::string& name) {
  Handle dataset(MYX_H5(H5Dopen2(parent, name.c_str(), H5P_DEFAULT)));
  Handle space(MYX_H5(H5Dget_space(dataset.id())));
  Handle type = utf8_string_type();
  hssize_t n = MYX_H5(H5Sget_simple_extent_npoints(space.id()));
  std::vector<char*> pointers(static_cast<size_t>(n), nullptr);
  std::vector<std::string> values;
  if (n == 0) return values;
  MYX_H5(H5Dread(dataset.id(), type.id(), H5S_ALL, H5S_ALL, H5P_DEFAULT, pointers.data()));
  values.reserve(pointers.size());
  for (char* p : pointers) values.emplace_back(p ? p : "");
  MYX_H5(H5Dvlen_reclaim(type.id(), space.id(), H5P_DEFAULT, pointers.data()));
  return values;
}

std::pair<int64_t, int64_t> shape(hid_t parent, const std::string& name) {
  Handle dataset(MYX_H5(H5Dopen2(parent, name.c_str(), H5P_DEFAULT)));
  Handle space(MYX_H5(H5Dget_space(dataset.id())));
  hsize_t dims[2] = {0, 1};
  int rank = MYX_H5(H5Sget_simple_extent_dims(space.id(), dims, nullptr));
  return {static_cast<int64_t>(dims[0]), rank >= 2 ? static_cast<int64_t>(dims[1]) : 1};
}

RowAppender::RowAppender(hid_t parent, const std::string& name, int64_t cols, int64_t chunk_rows)
    : cols_(cols) {
  hsize_t dims[2] = {0, static_cast<hsize_t>(cols)};
  hsize_t max_dims[2] = {H5S_UNLIMITED, static_cast<hsize_t>(cols)};
  hsize_t chunk[2] = {static_cast<hsize_t>(chunk_rows), static_cast<hsize_t>(cols)};
  Handle space(MYX_H5(H5Screate_simple(2, dims, max_dims)));
  Handle dcpl = untimed_creation_properties(H5P_DATASET_CREATE);
  MYX_H5(H5Pset_chunk(dcpl.id(), 2, chunk));
  MYX_H5(H5Pset_fletcher32(dcpl.id()));  // a damaged chunk fails its read instead of feeding garbage
  dataset_ = Handle(MYX_H5(H5Dcreate2(parent, name.c_str(), H5T_IEEE_F32LE, space.id(),
                                      H5P_DEFAULT, dcpl.id(), H5P_DEFAULT)));
}

void RowAppender::append(const float* rows_data, int64_t rows) {
  if (rows == 0) return;
  hsize_t new_dims[2] = {static_cast<hsize_t>(rows_ + rows), static_cast<hsize_t>(cols_)};
  MYX_H5(H5Dset_extent(dataset_.id(), new_dims));
  Handle file_space(MYX_H5(H5Dget_space(dataset_.id())));
  hsize_t start[2] = {static_cast<hsize_t>(rows_), 0};
  hsize_t count[2] = {static_cast<hsize_t>(rows), static_cast<hsize_t>(cols_)};
  MYX_H5(H5Sselect_hyperslab(file_space.id(), H5S_SELECT_SET, start, nullptr, count, nullptr));
  Handle memory_space(MYX_H5(H5Screate_simple(2, count, nullptr)));
  MYX_H5(H5Dwrite(dataset_.id(), H5T_NATIVE_FLOAT, memory_space.id(), file_space.id(), H5P_DEFAULT,
                  rows_data));
  rows_ += rows;
}

std::vector<float> read_rows(hid_t dataset, int64_t first, int64_t count, int64_t cols) {
  std::vector<float> out(static_cast<size_t>(count * cols));
  if (count == 0) return out;
  Handle file_space(MYX_H5(H5Dget_space(dataset)));
  hsize_t start[2] = {static_cast<hsize_t>(first), 0};
  hsize_t extent[2] = {static_cast<hsize_t>(count), static_cast<hsize_t>(cols)};
  MYX_H5(H5Sselect_hyperslab(file_space.id(), H5S_SELECT_SET, start, nullptr, extent, nullptr));
  Handle memory_space(MYX_H5(H5Screate_simple(2, extent, nullptr)));
  MYX_H5(H5Dread(dataset, H5T_NATIVE_FLOAT, memory_space.id(), file_space.id(), H5P_DEFAULT,
                 out.data()));
  return out;
}

template <class T>
std::vector<T> read_range(hid_t dataset, int64_t first, int64_t count) {
  std::vector<T> out(static_cast<size_t>(count));
  if (count == 0) return out;
  Handle file_space(MYX_H5(H5Dget_space(dataset)));
  hsize_t start[1] = {static_cast<hsize_t>(first)};
  hsize_t extent[1] = {static_cast<hsize_t>(count)};
  MYX_H5(H5Sselect_hyperslab(file_space.id(), H5S_SELECT_SET, start, nullptr, extent, nullptr));
  Handle memory_space(MYX_H5(H5Screate_simple(1, extent, nullptr)));
  MYX_H5(H5Dread(dataset, native_type<T>(), memory_space.id(), file_space.id(), H5P_DEFAULT,
                 out.data()));
  return out;
}

#define MYX_H5_INSTANTIATE(T)                                                          \
  template void write_vector<T>(hid_t, const std::string&, const std::vector<T>&, int64_t); \
  template std::vector<T> read_vector<T>(hid_t, const std::string&);                   \
  template std::vector<T> read_range<T>(hid_t, int64_t, int64_t);
MYX_H5_INSTANTIATE(float)
MYX_H5_INSTANTIATE(double)
MYX_H5_INSTANTIATE(int32_t)
MYX_H5_INSTANTIATE(int64_t)
MYX_H5_INSTANTIATE(uint8_t)

}  // namespace myxtts::h5
