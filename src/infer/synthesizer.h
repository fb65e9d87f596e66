#pragma once
// Text (+ a reference voice) -> mel -> waveform with a trained checkpoint. The text goes through
// the frontend and vocabulary the model was trained with (both stored in the checkpoint); the
// mel is inverted by the vocoder (Griffin-Lim). No libtorch in this header.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/config.h"

namespace myxtts::infer {

struct Voice {
  std::string reference_wav;  // a recording of the voice to clone; or, when empty:
  std::string speaker;        // a speaker of the training cache (empty: its first utterance)
};

struct Utterance {
  std::vector<float> wav;          // audio.sample_rate
  std::vector<float> mel;          // [frames, n_mels] log-mel
  int frames = 0;
  std::vector<int64_t> durations;  // frames per token
  std::string symbols;             // what the model read, UTF-8
};

class Synthesizer {
 public:
  // `checkpoint`: a checkpoint directory, or a run directory (its newest checkpoint).
  explicit Synthesizer(const std::string& checkpoint);
  ~Synthesizer();
  // Throws Error for empty text, symbols the checkpoint's vocabulary lacks (named), a missing or
  // unreadable reference, or a language the model was not trained on.
  Utterance synthesize(const std::string& text, const Voice& voice, const std::string& language, double speed) const;
  const Config& config() const;
  const std::string& checkpoint() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// Writes the wav and, next to it, <name>.mel.png (mel, low bands at the bottom) and
// <name>.alignment.png (tokens up, frames across: each token's predicted frames).
void save_utterance(const Utterance& utterance, int sample_rate, const std::string& wav_path);

}  // namespace myxtts::infer
