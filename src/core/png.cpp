#include "core/png.h"

#include <fmt/format.h>
#include <png.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <new>

#include "core/check.h"

namespace myxtts::png {
namespace {

// Shared with libpng's callbacks (its error and io pointer). libpng is C: nothing may throw
// through it, so callbacks record what went wrong and longjmp back to write_png's setjmp; the
// exception is thrown only once libpng is no longer on the stack.
struct WriteState {
  std::vector<uint8_t> out;
  char error[256] = "";
  char warning[256] = "";  // libpng often explains an error in the warning just before it
};

void on_error(png_structp png, png_const_charp message) {
  auto* state = static_cast<WriteState*>(png_get_error_ptr(png));
  std::snprintf(state->error, sizeof state->error, "%s", message);
  png_longjmp(png, 1);
}

void on_warning(png_structp png, png_const_charp message) {
  auto* state = static_cast<WriteState*>(png_get_error_ptr(png));
  std::snprintf(state->warning, sizeof state->warning, "%s", message);
}

void on_write(png_structp png, png_bytep data, size_t length) {
  auto* state = static_cast<WriteState*>(png_get_io_ptr(png));
  bool out_of_memory = false;
  try {
    state->out.insert(state->out.end(), data, data + length);
  } catch (const std::bad_alloc&) {
    out_of_memory = true;
  }
  if (out_of_memory) png_error(png, "out of memory for the encoded image");
}

// libpng's default flush would fflush() the io pointer as if it were a FILE*.
void on_flush(png_structp) {}

// Every libpng call that can fail, in a function whose locals are all trivially destructible,
// so a longjmp back here skips no destructor. False: state.error says why.
bool write_png(png_structp png, png_infop info, const uint8_t* rgb, int width, int height) {
  if (setjmp(png_jmpbuf(png))) return false;
  png_set_IHDR(png, info, static_cast<png_uint_32>(width), static_cast<png_uint_32>(height), 8,
               PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
               PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  for (int y = 0; y < height; ++y) png_write_row(png, rgb + static_cast<size_t>(y) * width * 3);
  png_write_end(png, nullptr);
  return true;
}

// Matplotlib's viridis sampled at 9 evenly spaced points; heatmaps interpolate between them.
constexpr int kStops = 9;
constexpr uint8_t kViridis[kStops][3] = {{68, 1, 84},    {71, 44, 122},  {59, 81, 139},
                                         {44, 113, 142}, {33, 144, 141}, {39, 173, 129},
                                         {92, 200, 99},  {170, 220, 50}, {253, 231, 37}};
constexpr uint8_t kNonFinite[3] = {255, 0, 255};

// t in [0, 1] → colour; t = 0 and t = 1 give the first and last stops exactly.
void colour(double t, uint8_t* rgb) {
  const double pos = t * (kStops - 1);
  const int i = std::min(static_cast<int>(pos), kStops - 2);
  const double f = pos - i;
  for (int c = 0; c < 3; ++c)
    rgb[c] = static_cast<uint8_t>(std::lround(kViridis[i][c] + (kViridis[i + 1][c] - kViridis[i][c]) * f));
}

}  // namespace

std::vector<uint8_t> encode_rgb(const std::vector<uint8_t>& rgb, int width, int height) {
  if (width <= 0 || height <= 0 || rgb.size() != static_cast<size_t>(width) * height * 3)
    throw Error(fmt::format("cannot encode a PNG of {}x{} pixels from {} bytes of RGB", width,
                            height, rgb.size()));
  WriteState state;
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &state, on_error, on_warning);
  if (!png) MYX_FAIL_CALL("libpng", "png_create_write_struct", "out of memory or version mismatch");
  png_infop info = png_create_info_struct(png);
  if (!info) {
    png_destroy_write_struct(&png, nullptr);
    MYX_FAIL_CALL("libpng", "png_create_info_struct", "out of memory");
  }
  png_set_write_fn(png, &state, on_write, on_flush);
  const bool ok = write_png(png, info, rgb.data(), width, height);
  png_destroy_write_struct(&png, &info);
  if (!ok)
    MYX_FAIL_CALL("libpng", "png_write",
                  fmt::format("{}x{} RGB image: {}{}{}", width, height, state.error,
                              *state.warning ? "; warning before it: " : "", state.warning));
  return std::move(state.out);
}

std::vector<uint8_t> heatmap_rgb(const float* values, int rows, int cols, int scale) {
  constexpr int64_t kMaxSide = std::numeric_limits<int>::max();
  if (!values || rows <= 0 || cols <= 0 || scale <= 0 || int64_t{rows} * scale > kMaxSide ||
      int64_t{cols} * scale > kMaxSide)
    throw Error(fmt::format("cannot draw a heatmap of {}x{} cells at scale {}", rows, cols, scale));
  const size_t cells = static_cast<size_t>(rows) * cols;
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (size_t i = 0; i < cells; ++i) {
    if (!std::isfinite(values[i])) continue;
    lo = std::min<double>(lo, values[i]);
    hi = std::max<double>(hi, values[i]);
  }
  const double range = hi > lo ? hi - lo : 1.0;  // constant matrix: every t is 0

  const size_t width = static_cast<size_t>(cols) * scale, height = static_cast<size_t>(rows) * scale;
  std::vector<uint8_t> rgb(width * height * 3);
  for (int r = 0; r < rows; ++r) {
    // Matrix row r fills image rows counted from the bottom.
    uint8_t* first = rgb.data() + (static_cast<size_t>(rows - 1 - r) * scale) * width * 3;
    for (int c = 0; c < cols; ++c) {
      const float v = values[static_cast<size_t>(r) * cols + c];
      uint8_t cell[3];
      if (std::isfinite(v))
        colour((v - lo) / range, cell);
      else
        std::memcpy(cell, kNonFinite, 3);
      for (int dx = 0; dx < scale; ++dx) std::memcpy(first + (static_cast<size_t>(c) * scale + dx) * 3, cell, 3);
    }
    for (int dy = 1; dy < scale; ++dy) std::memcpy(first + dy * width * 3, first, width * 3);
  }
  return rgb;
}

Image readable_heatmap(const float* values, int rows, int cols) {
  const int scale = std::clamp(240 / std::max(1, rows), 1, 4);
  Image image;
  image.width = cols * scale;
  image.height = rows * scale;
  image.png = encode_rgb(heatmap_rgb(values, rows, cols, scale), image.width, image.height);
  return image;
}

}  // namespace myxtts::png
