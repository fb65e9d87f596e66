// `myxtts synthesize`: text in, wav (+ mel and alignment PNGs) out, with a trained checkpoint.
#include <fmt/format.h>

#include <filesystem>
#include <fstream>

#include "cli/commands.h"
#include "core/error.h"
#include "core/log.h"
#include "infer/synthesizer.h"

namespace myxtts::cli {
namespace {
namespace fs = std::filesystem;

struct SynthesizeOptions {
  std::string checkpoint, text, text_file, out, out_dir, language;
  infer::Voice voice;
  double speed = 1.0;
};

int synthesize(const SynthesizeOptions& o) {
  auto logger = log::get("synthesize");
  if (o.text.empty() == o.text_file.empty()) throw Error("give exactly one of --text and --text-file");
  if (!o.text.empty() && o.out.empty()) throw Error("--text needs --out FILE.wav");
  if (!o.text_file.empty() && o.out_dir.empty()) throw Error("--text-file needs --out-dir DIR");
  const infer::Synthesizer synthesizer(o.checkpoint);
  logger->info("checkpoint {}", synthesizer.checkpoint());
  std::vector<std::pair<std::string, std::string>> jobs;  // text, wav path
  if (!o.text.empty()) {
    jobs.emplace_back(o.text, o.out);
  } else {
    std::ifstream in(o.text_file);
    if (!in) throw Error(fmt::format("--text-file {}: cannot open it", o.text_file));
    fs::create_directories(o.out_dir);
    std::string line;
    for (int number = 1; std::getline(in, line); ++number)
      if (line.find_first_not_of(" \t\r") != std::string::npos)
        jobs.emplace_back(line, (fs::path(o.out_dir) / fmt::format("{:04d}.wav", number)).string());
    if (jobs.empty()) throw Error(fmt::format("--text-file {}: no non-empty line", o.text_file));
  }
  const int rate = synthesizer.config().audio.sample_rate;
  for (const auto& [text, path] : jobs) {
    const infer::Utterance u = synthesizer.synthesize(text, o.voice, o.language, o.speed);
    infer::save_utterance(u, rate, path);
    logger->info("{}: {:.2f} s, {} symbols, {} frames (+ .mel.png, .alignment.png)", path,
                 static_cast<double>(u.wav.size()) / rate, u.durations.size(), u.frames);
  }
  return 0;
}

}  // namespace

void add_synthesize_command(CLI::App& app, Action& action) {
  auto* command = app.add_subcommand("synthesize", "text -> speech with a trained checkpoint (Griffin-Lim vocoder)");
  auto o = std::make_shared<SynthesizeOptions>();
  command->add_option("--checkpoint", o->checkpoint, "checkpoint directory, or a run directory (its newest)")
      ->required();
  command->add_option("--text", o->text, "what to say");
  command->add_option("--out", o->out, "wav to write (with --text)");
  command->add_option("--text-file", o->text_file, "one utterance per line");
  command->add_option("--out-dir", o->out_dir, "where --text-file's wavs go (0001.wav, ...)");
  command->add_option("--reference", o->voice.reference_wav, "a recording of the voice to clone");
  command->add_option("--speaker", o->voice.speaker, "without --reference: a speaker of the training cache");
  command->add_option("--language", o->language, "language of the text (default: data.default_language)");
  command->add_option("--speed", o->speed, "duration factor: 2 speaks twice as slowly")
      ->check(CLI::Range(0.1, 10.0));
  command->callback([&action, o] { action = [o] { return synthesize(*o); }; });
}

}  // namespace myxtts::cli
