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
  // in: n/2+1 bins of a real signal's spectrum (bins 0 and n/2 real); out: its n samples, the
  // exact inverse of forward (1/n included). Synthesis (Griffin-Lim) needs it. Thread-safe.
  void inverse(const std::complex<float>* in, float* out) const;

 private:
  void complex_fft(float* re, float* im) const;
  int n_, half_;
  std::vector<int> bit_reverse_;
  // exp(-2*pi*i*j/half) for j < half/2, and exp(-2*pi*i*k/n) for k <= half, split into parts.
  std::vector<float> twiddle_re_, twiddle_im_, split_re_, split_im_;
};

}  // namespace myxtts::audio
