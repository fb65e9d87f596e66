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
  // Twiddles are computed in double and rounded once, which keeps float transforms within
  // float rounding of the exact DFT.
  for (int j = 0; j < std::max(1, half_ / 2); ++j) {
    twiddle_re_.push_back(static_cast<float>(std::cos(2.0 * M_PI * j / half_)));
    twiddle_im_.push_back(static_cast<float>(-std::sin(2.0 * M_PI * j / half_)));
  }
  for (int k = 0; k <= half_; ++k) {
    split_re_.push_back(static_cast<float>(std::cos(2.0 * M_PI * k / n_)));
    split_im_.push_back(static_cast<float>(-std::sin(2.0 * M_PI * k / n_)));
  }
}

// Complex arithmetic is spelled out on separate real/imaginary arrays: std::complex
// multiplication goes through NaN-handling library calls that cost more than the FFT itself.
void RealFft::complex_fft(float* re, float* im) const {
  for (int i = 0; i < half_; ++i) {
    const int j = bit_reverse_[i];
    if (i < j) {
      std::swap(re[i], re[j]);
      std::swap(im[i], im[j]);
    }
  }
  for (int a = 0; a + 1 < half_; a += 2) {  // first stage: all twiddles are 1
    const float br = re[a + 1], bi = im[a + 1];
    re[a + 1] = re[a] - br;
    im[a + 1] = im[a] - bi;
    re[a] += br;
    im[a] += bi;
  }
  for (int len = 4; len <= half_; len <<= 1) {
    const int span = len / 2, stride = half_ / len;
    for (int start = 0; start < half_; start += len) {
      for (int j = 0; j < span; ++j) {
        const float wr = twiddle_re_[j * stride], wi = twiddle_im_[j * stride];
        const int a = start + j, b = a + span;
        const float br = re[b] * wr - im[b] * wi, bi = re[b] * wi + im[b] * wr;
        re[b] = re[a] - br;
        im[b] = im[a] - bi;
        re[a] += br;
        im[a] += bi;
      }
    }
  }
}

void RealFft::forward(const float* in, std::complex<float>* out) const {
  thread_local std::vector<float> re, im;
  re.resize(half_);
  im.resize(half_);
  for (int k = 0; k < half_; ++k) {
    re[k] = in[2 * k];
    im[k] = in[2 * k + 1];
  }
  complex_fft(re.data(), im.data());
  // Split the half-size transform of (even + i*odd) into the spectrum of the real input.
  for (int k = 0; k <= half_; ++k) {
    const int a = k == half_ ? 0 : k, b = k == 0 ? 0 : half_ - k;
    const float even_re = 0.5f * (re[a] + re[b]), even_im = 0.5f * (im[a] - im[b]);
    const float odd_re = 0.5f * (im[a] + im[b]), odd_im = -0.5f * (re[a] - re[b]);
    const float wr = split_re_[k], wi = split_im_[k];
    out[k] = {even_re + odd_re * wr - odd_im * wi, even_im + odd_re * wi + odd_im * wr};
  }
}

void RealFft::inverse(const std::complex<float>* in, float* out) const {
  thread_local std::vector<float> re, im;
  re.resize(half_);
  im.resize(half_);
  // Undo the split: the half-size spectra of the even and odd samples, recombined as
  // Z = even + i*odd, stored conjugated so the forward transform computes the inverse.
  for (int k = 0; k < half_; ++k) {
    const std::complex<float> a = in[k], b = std::conj(in[half_ - k]);
    const std::complex<float> even = 0.5f * (a + b);
    const std::complex<float> odd = 0.5f * (a - b) * std::complex<float>(split_re_[k], -split_im_[k]);
    const std::complex<float> z = even + std::complex<float>(0.0f, 1.0f) * odd;
    re[k] = z.real();
    im[k] = -z.imag();
  }
  complex_fft(re.data(), im.data());
  const float scale = 1.0f / static_cast<float>(half_);
  for (int n = 0; n < half_; ++n) {
    out[2 * n] = re[n] * scale;
    out[2 * n + 1] = -im[n] * scale;
  }
}

}  // namespace myxtts::audio
