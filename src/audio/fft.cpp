#include "audio/fft.h"

#include <cmath>
#include <stdexcept>

namespace myxtts::audio {

RealFft::RealFft(int n) : n_(n), half_(n / 2) {
  if (n < 4 || (n & (n - 1))) throw std::invalid_argument("RealFft size must be a power of two >= 4");
  int bits = 0;
  while ((1 << bits) < half_) ++bits;
  bit_reverse_.resize(half_);
  for (int i = 0; i < half_; ++i) {
    int r = 0;
    for (int b = 0; b < bits; ++b) r |= ((i >> b) & 1) << (bits - 1 - b);
    bit_reverse_[i] = r;
  }
  twiddle_half_.resize(half_ / 2 + 1);
  for (int j = 0; j <= half_ / 2; ++j) twiddle_half_[j] = std::polar(1.0, -2.0 * M_PI * j / half_);
  twiddle_split_.resize(half_ + 1);
  for (int k = 0; k <= half_; ++k) twiddle_split_[k] = std::polar(1.0, -2.0 * M_PI * k / n_);
}

void RealFft::complex_fft(std::complex<double>* data) const {
  for (int i = 0; i < half_; ++i)
    if (i < bit_reverse_[i]) std::swap(data[i], data[bit_reverse_[i]]);
  for (int len = 2; len <= half_; len <<= 1) {
    const int stride = half_ / len;
    for (int start = 0; start < half_; start += len) {
      for (int j = 0; j < len / 2; ++j) {
        std::complex<double> odd = data[start + j + len / 2] * twiddle_half_[j * stride];
        data[start + j + len / 2] = data[start + j] - odd;
        data[start + j] += odd;
      }
    }
  }
}

void RealFft::forward(const float* in, std::complex<float>* out) const {
  // Double precision inside: the cost is negligible next to I/O and it keeps our mels
  // within float rounding of any reference implementation.
  thread_local std::vector<std::complex<double>> z;
  z.resize(half_);
  for (int k = 0; k < half_; ++k) z[k] = {in[2 * k], in[2 * k + 1]};
  complex_fft(z.data());
  for (int k = 0; k <= half_; ++k) {
    std::complex<double> a = z[k % half_];
    std::complex<double> b = std::conj(z[(half_ - k) % half_]);
    std::complex<double> even = 0.5 * (a + b);
    std::complex<double> odd = std::complex<double>(0, -0.5) * (a - b);
    out[k] = std::complex<float>(even + twiddle_split_[k] * odd);
  }
}

}  // namespace myxtts::audio
