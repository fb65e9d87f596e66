#include "data/synthetic_cache.h"

#include <fmt/format.h>

#include <random>

#include "data/cache_writer.h"

namespace myxtts::data {

void write_synthetic_cache(const std::string& path, const Config& config, int utterances, int frames) {
  CacheIndex index;
  CacheMetadata metadata;
  metadata.vocabulary = {"<pad>", "<bos>", "<eos>", "<unk>", "a", "b"};
  metadata.speakers = {"speaker0"};
  metadata.languages = {"en"};
  std::vector<int32_t> tokens;
  std::vector<float> mel(static_cast<size_t>(frames) * config.audio.n_mels);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> value(-11.0f, 2.0f);
  CacheWriter writer(path, config);
  for (int i = 0; i < utterances; ++i) {
    for (float& v : mel) v = value(rng);
    writer.append_mel(mel.data(), frames);
    index.id.push_back(fmt::format("utt{:06d}", i));
    index.text.push_back("ab ab");
    index.symbols.push_back("ab ab");
    index.audio_path.push_back(fmt::format("/synthetic/utt{:06d}.wav", i));
    index.speaker.push_back(0);
    index.language.push_back(0);
    index.n_frames.push_back(frames);
    index.n_tokens.push_back(4);
    index.mel_offset.push_back(static_cast<int64_t>(i) * frames);
    index.token_offset.push_back(static_cast<int64_t>(tokens.size()));
    index.seconds.push_back(frames * config.audio.hop_length / double(config.audio.sample_rate));
    index.split.push_back(i % 50 == 0);
    tokens.insert(tokens.end(), {4, 5, 4, 5});
  }
  writer.commit(index, tokens, metadata);
}

}  // namespace myxtts::data
