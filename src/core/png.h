#pragma once
// PNG images in memory (libpng), for pictures logged during training: spectrograms and
// attention maps become heatmaps. To save one, use write_file_atomically (core/fs.h) with
// std::string(bytes.begin(), bytes.end()).
#include <cstdint>
#include <vector>

namespace myxtts::png {

// rgb: width*height pixels of 3 bytes (R, G, B), rows from the top. Returns the PNG file bytes;
// throws Error on bad sizes or any libpng failure.
std::vector<uint8_t> encode_rgb(const std::vector<uint8_t>& rgb, int width, int height);

// A colour picture of a row-major matrix values[rows][cols], drawn like a spectrogram:
// x = column (left to right), y = row with row 0 at the BOTTOM of the image, so low mel bands
// sit at the bottom and time runs to the right. Colours follow a viridis-like map scaled
// linearly from the matrix's own finite minimum (dark purple) to its maximum (yellow); a
// constant matrix is all minimum colour, NaN and ±inf are magenta (255, 0, 255). Each cell
// is scale×scale pixels. Returns rgb for encode_rgb: width = cols*scale, height = rows*scale.
std::vector<uint8_t> heatmap_rgb(const float* values, int rows, int cols, int scale = 1);

struct Image {
  std::vector<uint8_t> png;
  int width = 0, height = 0;
};
// A heat map PNG whose cells grow (up to 4x4 pixels) when the matrix has few rows, so a
// 30-token alignment stays readable.
Image readable_heatmap(const float* values, int rows, int cols);

}  // namespace myxtts::png
