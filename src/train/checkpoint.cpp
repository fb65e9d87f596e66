#include "train/checkpoint.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <filesystem>

#include "core/error.h"
#include "core/fault.h"
#include "core/fs.h"

namespace myxtts::train {
namespace fs = std::filesystem;
namespace {

constexpr const char* kPrefix = "step-";

std::string state_yaml(const CheckpointState& s) {
  // A non-finite validation loss is stored as "none ran": YAML readers reject nan/inf spelt by fmt.
  const double validation_loss = std::isfinite(s.validation_loss) ? s.validation_loss : -1.0;
  return fmt::format(
      "step: {}\nepoch: {}\nepoch_step: {}\ntrainers: {}\nskipped_steps: {}\nvalidation_loss: {:.9g}\n"
      "cache_identity: \"{}\"\ncache_path: \"{}\"\nparameter_digest: \"{}\"\n",
      s.step, s.cursor.epoch, s.cursor.step, s.trainers, s.skipped_steps, validation_loss, s.cache_identity,
      s.cache_path, s.parameter_digest);
}

std::string lines(const std::vector<std::string>& items) {
  std::string text;
  for (const auto& item : items) text += item + "\n";
  return text;
}

// Keys a resumed run must share with the checkpoint: the model's shape, the data order and the
// optimiser's curve.
bool must_match(const std::string& key) {
  for (const char* prefix : {"model.", "batch."})
    if (key.rfind(prefix, 0) == 0) return true;
  for (const char* exact : {"train.seed", "train.accumulation", "train.learning_rate", "train.warmup_steps",
                            "train.decay", "train.min_learning_rate"})
    if (key == exact) return true;
  return false;
}

KeyValues resume_identity(const Config& config) {
  KeyValues out;
  for (const auto& kv : flatten(config))
    if (must_match(kv.first)) out.push_back(kv);
  return out;
}

}  // namespace

CheckpointStore::CheckpointStore(const std::string& run_directory)
    : directory_((fs::path(run_directory) / "checkpoints").string()) {}

std::vector<std::string> CheckpointStore::complete() const {
  std::vector<std::string> found;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(directory_, ec)) {
    const std::string name = entry.path().filename().string();
    if (entry.is_directory() && name.rfind(kPrefix, 0) == 0 && name.find('.') == std::string::npos &&
        fs::exists(entry.path() / "state.yaml"))
      found.push_back(entry.path().string());
  }
  auto step_of = [](const std::string& dir) { return std::stoll(fs::path(dir).filename().string().substr(5)); };
  std::sort(found.begin(), found.end(), [&](const auto& a, const auto& b) { return step_of(a) < step_of(b); });
  return found;
}

std::optional<std::string> CheckpointStore::latest() const {
  const auto all = complete();
  if (all.empty()) return std::nullopt;
  return all.back();
}

std::string CheckpointStore::save(const CheckpointState& state, const Config& config,
                                  const data::CacheMetadata& cache, torch::nn::Module& model,
                                  torch::optim::Optimizer& optimizer, int keep) const {
  const fs::path final_dir = fs::path(directory_) / fmt::format("{}{:08d}", kPrefix, state.step);
  const fs::path partial = final_dir.string() + ".partial";
  fs::remove_all(partial);  // left by a crash mid-write
  ensure_writable_directory(partial.string(), "checkpoint directory");
  // CPU copies: a checkpoint loads on any device, including a CPU-only build.
  std::vector<torch::Tensor> parameters;
  for (const auto& p : model.parameters()) parameters.push_back(p.detach().to(torch::kCPU));
  torch::save(parameters, (partial / "model.pt").string());
  if (fault_after("CHECKPOINT_KILL_AT_STEP") == state.step) std::raise(SIGKILL);
  torch::save(optimizer, (partial / "optimizer.pt").string());
  save_config(config, (partial / "config.yaml").string());
  write_file_atomically((partial / "vocabulary.txt").string(), lines(cache.vocabulary));
  write_file_atomically((partial / "languages.txt").string(), lines(cache.languages));
  write_file_atomically((partial / "state.yaml").string(), state_yaml(state));
  for (const char* file : {"model.pt", "optimizer.pt", "config.yaml", "vocabulary.txt", "languages.txt", "state.yaml"})
    sync_to_disk((partial / file).string());
  sync_to_disk(partial.string());
  fs::remove_all(final_dir);
  fs::rename(partial, final_dir);
  sync_to_disk(directory_);

  // Keep the newest `keep` and the best by validation loss.
  auto all = complete();
  std::string best;
  double best_loss = 0;
  for (const auto& dir : all) {
    double loss = -1;
    try {
      loss = read_state(dir).validation_loss;
    } catch (const Error&) {  // an unreadable older checkpoint is kept, not fatal for this save
      continue;
    }
    if (loss >= 0 && (best.empty() || loss < best_loss)) best = dir, best_loss = loss;
  }
  for (size_t i = 0; i + keep < all.size(); ++i)
    if (all[i] != best) fs::remove_all(all[i]);
  return final_dir.string();
}

CheckpointState read_state(const std::string& checkpoint) {
  const std::string path = (fs::path(checkpoint) / "state.yaml").string();
  try {
    const YAML::Node n = YAML::LoadFile(path);
    CheckpointState s;
    s.step = n["step"].as<int64_t>();
    s.cursor = {n["epoch"].as<int>(), n["epoch_step"].as<int>()};
    s.trainers = n["trainers"].as<int>();
    s.skipped_steps = n["skipped_steps"].as<int64_t>();
    s.validation_loss = n["validation_loss"].as<double>();
    s.cache_identity = n["cache_identity"].as<std::string>();
    s.cache_path = n["cache_path"].as<std::string>();
    s.parameter_digest = n["parameter_digest"].as<std::string>();
    return s;
  } catch (const YAML::Exception& e) {
    throw Error(fmt::format("{} is not a readable checkpoint state ({}); pick another checkpoint", path, e.what()));
  }
}

Config read_config(const std::string& checkpoint) {
  return load_config({(fs::path(checkpoint) / "config.yaml").string()}, {});
}

static std::vector<std::string> read_lines(const std::string& checkpoint, const char* file) {
  const std::string text = read_file((fs::path(checkpoint) / file).string());
  std::vector<std::string> items;
  for (size_t start = 0; start < text.size();) {
    const size_t end = text.find('\n', start);
    items.push_back(text.substr(start, end - start));
    start = end == std::string::npos ? text.size() : end + 1;
  }
  return items;
}

std::vector<std::string> read_vocabulary(const std::string& checkpoint) { return read_lines(checkpoint, "vocabulary.txt"); }
std::vector<std::string> read_languages(const std::string& checkpoint) { return read_lines(checkpoint, "languages.txt"); }

std::string resolve_checkpoint(const std::string& path) {
  if (fs::exists(fs::path(path) / "state.yaml")) return path;
  if (auto latest = CheckpointStore(path).latest()) return *latest;
  throw Error(fmt::format("{} is neither a checkpoint (no state.yaml) nor a run directory with complete checkpoints "
                          "(checkpoints/step-*/); pass one of those",
                          path));
}

void load_checkpoint(const std::string& checkpoint, torch::nn::Module& model, torch::optim::Optimizer* optimizer) {
  std::vector<torch::Tensor> saved;
  torch::load(saved, (fs::path(checkpoint) / "model.pt").string(), torch::Device(torch::kCPU));
  auto parameters = model.parameters();
  if (saved.size() != parameters.size())
    throw Error(fmt::format("{}: {} parameter tensors, the model has {}; the model config differs", checkpoint,
                            saved.size(), parameters.size()));
  torch::NoGradGuard no_grad;
  for (size_t i = 0; i < saved.size(); ++i) {
    if (!saved[i].sizes().equals(parameters[i].sizes()))
      throw Error(fmt::format("{}: parameter {} has shape {}, the model wants {}; the model config differs",
                              checkpoint, i, fmt::join(saved[i].sizes(), "x"), fmt::join(parameters[i].sizes(), "x")));
    parameters[i].copy_(saved[i]);
  }
  // The optimiser state goes where the parameters are.
  if (optimizer && !parameters.empty())
    torch::load(*optimizer, (fs::path(checkpoint) / "optimizer.pt").string(), parameters.front().device());
}

void require_resumable(const std::string& checkpoint, const CheckpointState& saved, const Config& config,
                       const std::string& cache_identity, int trainers) {
  std::vector<std::string> problems;
  if (saved.cache_identity != cache_identity)
    problems.push_back(fmt::format("cache: the checkpoint was trained on {} (identity {}), train.cache is another "
                                   "cache (identity {})",
                                   saved.cache_path, saved.cache_identity, cache_identity));
  if (saved.trainers != trainers)
    problems.push_back(fmt::format("trainer ranks: {} in the checkpoint, {} now (the data order depends on it)",
                                   saved.trainers, trainers));
  for (const auto& d : diff_key_values(resume_identity(config), resume_identity(read_config(checkpoint))))
    problems.push_back(d);
  if (problems.empty()) return;
  std::string message = fmt::format("cannot resume from {}:", checkpoint);
  for (const auto& p : problems) message += "\n  - " + p;
  throw Error(message + "\nstart a new run (another train.output_dir) or resume with the checkpoint's settings");
}

}  // namespace myxtts::train
