#include <gtest/gtest.h>
#include <png.h>

#include <array>
#include <cmath>
#include <limits>

#include "core/error.h"
#include "core/png.h"

namespace myxtts::png {
namespace {

using Rgb = std::array<int, 3>;

// Decoded with libpng's simplified reading API, not the writer's code path.
struct Decoded {
  int width = 0, height = 0;
  std::vector<uint8_t> rgb;
  Rgb at(int x, int y) const {
    const uint8_t* p = &rgb.at((static_cast<size_t>(y) * width + x) * 3);
    return {p[0], p[1], p[2]};
  }
};
Decoded decode(const std::vector<uint8_t>& bytes) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  Decoded out;
  if (!png_image_begin_read_from_memory(&image, bytes.data(), bytes.size())) {
    ADD_FAILURE() << image.message;
    return out;
  }
  EXPECT_EQ(image.format, static_cast<png_uint_32>(PNG_FORMAT_RGB));  // 8-bit RGB, no alpha
  out.width = static_cast<int>(image.width);
  out.height = static_cast<int>(image.height);
  out.rgb.resize(PNG_IMAGE_SIZE(image));
  if (!png_image_finish_read(&image, nullptr, out.rgb.data(), 0, nullptr))
    ADD_FAILURE() << image.message;
  return out;
}

constexpr Rgb kLow = {68, 1, 84}, kMiddle = {33, 144, 141}, kHigh = {253, 231, 37};
constexpr Rgb kMagenta = {255, 0, 255};

TEST(Png, EncodesExactPixels) {
  std::vector<uint8_t> rgb(5 * 3 * 3);
  for (size_t i = 0; i < rgb.size(); ++i) rgb[i] = static_cast<uint8_t>(i * 37);
  const Decoded d = decode(encode_rgb(rgb, 5, 3));
  EXPECT_EQ(d.width, 5);
  EXPECT_EQ(d.height, 3);
  EXPECT_EQ(d.rgb, rgb);
}

TEST(Png, HeatmapPutsRowZeroAtTheBottom) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  const float m[3 * 4] = {0, 1, 2, 3,  //
                          4, 6, nan, -inf,  //
                          8, 9, 10, 12};
  const Decoded d = decode(encode_rgb(heatmap_rgb(m, 3, 4, 2), 8, 6));
  ASSERT_EQ(d.width, 8);
  ASSERT_EQ(d.height, 6);
  for (int dy = 0; dy < 2; ++dy) {
    for (int dx = 0; dx < 2; ++dx) {
      EXPECT_EQ(d.at(0 + dx, 4 + dy), kLow);      // row 0, column 0: the minimum, bottom left
      EXPECT_EQ(d.at(6 + dx, 0 + dy), kHigh);     // row 2, column 3: the maximum, top right
      EXPECT_EQ(d.at(2 + dx, 2 + dy), kMiddle);   // row 1, column 1: halfway
      EXPECT_EQ(d.at(4 + dx, 2 + dy), kMagenta);  // NaN
      EXPECT_EQ(d.at(6 + dx, 2 + dy), kMagenta);  // -inf
    }
  }
  const Rgb low_quarter = d.at(2, 4);  // value 1 of 12: between the first two map stops
  EXPECT_GT(low_quarter[1], kLow[1]);
  EXPECT_LT(low_quarter[1], 44);
}

TEST(Png, ConstantMatrixIsAllLowColour) {
  const std::vector<float> m(6, 3.5f);
  const std::vector<uint8_t> rgb = heatmap_rgb(m.data(), 2, 3);
  ASSERT_EQ(rgb.size(), 2u * 3 * 3);
  for (size_t i = 0; i < rgb.size(); i += 3) EXPECT_EQ((Rgb{rgb[i], rgb[i + 1], rgb[i + 2]}), kLow);
}

TEST(Png, BadSizesAndLibpngFailuresAreErrors) {
  EXPECT_THROW(encode_rgb(std::vector<uint8_t>(10), 2, 2), Error);
  EXPECT_THROW(encode_rgb({}, 0, 1), Error);
  const float one = 1;
  EXPECT_THROW(heatmap_rgb(&one, 1, 1, 0), Error);
  // Wider than libpng's default limit of 1e6 pixels: libpng itself rejects the header.
  try {
    encode_rgb(std::vector<uint8_t>(2'000'000 * 3), 2'000'000, 1);
    ADD_FAILURE() << "libpng accepted a 2e6-pixel-wide image";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("libpng"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace myxtts::png
