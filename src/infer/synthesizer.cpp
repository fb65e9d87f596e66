#include "infer/synthesizer.h"

#include <fmt/format.h>
#include <torch/torch.h>

#include <algorithm>
#include <filesystem>

#include "audio/feature_pipeline.h"
#include "audio/sound_file.h"
#include "core/error.h"
#include "core/fs.h"
#include "core/log.h"
#include "core/png.h"
#include "data/cache_reader.h"
#include "infer/griffin_lim.h"
#include "model/acoustic_model.h"
#include "text/frontend.h"
#include "text/utf8.h"
#include "text/vocabulary.h"
#include "train/checkpoint.h"

namespace myxtts::infer {
namespace fs = std::filesystem;

struct Synthesizer::State {
  std::string checkpoint;
  Config config;
  std::vector<std::string> symbols, languages;
  text::Vocabulary vocabulary;
  text::TextFrontend frontend;
  model::AcousticModel model{nullptr};
  GriffinLim vocoder;
  train::CheckpointState trained;

  explicit State(const std::string& path)
      : checkpoint(train::resolve_checkpoint(path)),
        config(train::read_config(checkpoint)),
        symbols(train::read_vocabulary(checkpoint)),
        languages(train::read_languages(checkpoint)),
        vocabulary(text::Vocabulary::from_symbols(symbols)),
        frontend(config.text),
        vocoder(config.audio, config.synthesis),
        trained(train::read_state(checkpoint)) {
    model = model::AcousticModel(config.model, static_cast<int64_t>(symbols.size()),
                                 std::max<int64_t>(1, static_cast<int64_t>(languages.size())), config.audio.n_mels);
    train::load_checkpoint(checkpoint, *model, nullptr);
    model->eval();
  }

  // The reference segment [R, M]: the middle of the recording, padded with silence if short.
  torch::Tensor reference_segment(const std::vector<float>& mel, int frames) const {
    const int r = config.batch.reference_frames, m = config.audio.n_mels;
    torch::Tensor out = torch::full({r, m}, static_cast<float>(std::log(config.audio.log_floor)));
    const int take = std::min(r, frames), first = (frames - take) / 2;
    out.slice(0, 0, take).copy_(torch::from_blob(const_cast<float*>(mel.data()) + static_cast<size_t>(first) * m,
                                                 {take, m}));
    return out;
  }

  torch::Tensor reference(const Voice& voice) const {
    if (!voice.reference_wav.empty()) {
      if (!fs::exists(voice.reference_wav))
        throw Error(fmt::format("--reference {}: no such file", voice.reference_wav));
      const audio::FeaturePipeline pipeline(config.audio, 0.0, 3600.0);
      const audio::Features f = pipeline.extract(voice.reference_wav);
      return reference_segment(f.mel, f.n_frames);
    }
    if (!fs::exists(trained.cache_path))
      throw Error(fmt::format("no --reference given and the training cache {} is gone: pass --reference WAV "
                              "(a recording of the voice to use)",
                              trained.cache_path));
    const data::CacheReader cache(trained.cache_path);
    const auto& speakers = cache.metadata().speakers;
    int speaker = 0;
    if (!voice.speaker.empty()) {
      const auto it = std::find(speakers.begin(), speakers.end(), voice.speaker);
      if (it == speakers.end())
        throw Error(fmt::format("--speaker {}: the training cache has the speakers {}", voice.speaker,
                                fmt::join(speakers, ", ")));
      speaker = static_cast<int>(it - speakers.begin());
    }
    const data::CacheIndex& ix = cache.index();
    for (size_t i = 0; i < ix.size(); ++i)
      if (ix.speaker[i] == speaker) return reference_segment(cache.mel(i), ix.n_frames[i]);
    throw Error(fmt::format("speaker {} has no utterance in {}", speakers[speaker], trained.cache_path));
  }
};

Synthesizer::Synthesizer(const std::string& checkpoint) : state_(std::make_unique<State>(checkpoint)) {}
Synthesizer::~Synthesizer() = default;
const Config& Synthesizer::config() const { return state_->config; }
const std::string& Synthesizer::checkpoint() const { return state_->checkpoint; }

Utterance Synthesizer::synthesize(const std::string& text, const Voice& voice, const std::string& language,
                                  double speed) const {
  State& s = *state_;  // the model module is not const-callable
  const std::string lang = language.empty() ? s.config.data.default_language : language;
  const auto lang_it = std::find(s.languages.begin(), s.languages.end(), lang);
  if (lang_it == s.languages.end())
    throw Error(fmt::format("--language {}: the model was trained on {}", lang, fmt::join(s.languages, ", ")));
  std::u32string symbols;
  try {
    symbols = s.frontend.symbols(text, lang);
  } catch (const BadInput& e) {
    throw Error(fmt::format("cannot read the text \"{}\": {}", text, e.what()));
  }
  int64_t unknown = 0;
  const std::vector<int32_t> ids = s.vocabulary.encode(symbols, &unknown);
  if (unknown > 0) {
    std::string missing;
    for (char32_t c : symbols)
      if (s.vocabulary.encode(std::u32string(1, c), &unknown), unknown > 0) missing += text::encode_utf8(c);
    throw Error(fmt::format("the text has symbols the model never saw: \"{}\"; rephrase it (the checkpoint's "
                            "vocabulary is {}/vocabulary.txt)",
                            missing, s.checkpoint));
  }
  const torch::Tensor tokens = torch::tensor(std::vector<int64_t>(ids.begin(), ids.end()), torch::kLong);
  const model::Synthesis out =
      s.model->synthesize(tokens, lang_it - s.languages.begin(), s.reference(voice), speed);
  Utterance u;
  u.frames = static_cast<int>(out.mel.size(0));
  const torch::Tensor mel = out.mel.contiguous().to(torch::kFloat);
  u.mel.assign(mel.data_ptr<float>(), mel.data_ptr<float>() + mel.numel());
  u.durations.assign(out.durations.data_ptr<int64_t>(), out.durations.data_ptr<int64_t>() + out.durations.numel());
  u.symbols = text::encode_utf8(symbols);
  u.wav = s.vocoder.waveform(u.mel, u.frames);
  return u;
}

void save_utterance(const Utterance& u, int sample_rate, const std::string& wav_path) {
  const fs::path parent = fs::path(wav_path).parent_path();
  if (!parent.empty()) ensure_writable_directory(parent.string(), "output directory");
  audio::write_wav(wav_path, u.wav, sample_rate);
  const int mels = static_cast<int>(u.mel.size() / std::max(1, u.frames));
  std::vector<float> bands(u.mel.size());  // [frames, mels] -> [mels, frames]
  for (int t = 0; t < u.frames; ++t)
    for (int m = 0; m < mels; ++m) bands[static_cast<size_t>(m) * u.frames + t] = u.mel[static_cast<size_t>(t) * mels + m];
  const int tokens = static_cast<int>(u.durations.size());
  std::vector<float> path(static_cast<size_t>(tokens) * u.frames, 0.0f);
  for (int t = 0, frame = 0; t < tokens; ++t)
    for (int64_t d = 0; d < u.durations[t] && frame < u.frames; ++d) path[static_cast<size_t>(t) * u.frames + frame++] = 1;
  const fs::path stem = fs::path(wav_path).replace_extension("");
  auto save = [](const std::vector<float>& values, int rows, int cols, const std::string& path) {
    const auto png = png::readable_heatmap(values.data(), rows, cols).png;
    write_file_atomically(path, std::string(png.begin(), png.end()));
  };
  save(bands, mels, u.frames, stem.string() + ".mel.png");
  save(path, tokens, u.frames, stem.string() + ".alignment.png");
}

}  // namespace myxtts::infer
