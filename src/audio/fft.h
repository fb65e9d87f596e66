#pragma once
// Real-input FFT for power-of-two sizes: an N/2-point complex radix-2 transform plus the
// split step. Small and dependency-free so preprocessing and synthesis share one STFT.
#include <complex>
#include <vector>

namespace myxtts::audio {

class RealFft {
 public:
  explicit RealFft(int n);  // n: power of two, >= 4
  int size() const { return n_; }
  int bins() const { return n_ / 2 + 1; }
  // in: n real samples; out: n/2+1 complex bins. Thread-safe (scratch is per thread).
  void forward(const float* in, std::complex<float>* out) const;

 private:
  void complex_fft(std::complex<double>* data) const;
  int n_, half_;
  std::vector<int> bit_reverse_;
  std::vector<std::complex<double>> twiddle_half_;  // exp(-2*pi*i*j/half), j < half/2
  std::vector<std::complex<double>> twiddle_split_;  // exp(-2*pi*i*k/n), k <= half
};

}  // namespace myxtts::audio
