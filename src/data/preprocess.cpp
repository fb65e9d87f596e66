#include "data/preprocess.h"

#include <fmt/format.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <mutex>
#include <set>
#include <thread>

#include "audio/feature_pipeline.h"
#include "comm/world.h"
#include "core/error.h"
#include "core/fault.h"
#include "core/interrupt.h"
#include "core/fs.h"
#include "core/log.h"
#include "data/corpus.h"
#include "data/cache_format.h"
#include "data/merge.h"
#include "data/part_file.h"
#include "text/frontend.h"
#include "text/utf8.h"

namespace myxtts::data {
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

std::string work_directory(const std::string& output) { return (fs::path(output) / "work").string(); }
std::string log_directory(const std::string& output) { return (fs::path(output) / "logs").string(); }

namespace {

// What a resumed run must share with the run that wrote the parts: everything that shapes a
// part's content or the chunking, and the corpus listing.
KeyValues job_identity(const Config& config, const Corpus& corpus) {
  KeyValues identity;
  for (auto& kv : flatten(config))
    for (const char* section : {"audio.", "text.", "data."})
      if (kv.first.rfind(section, 0) == 0) identity.push_back(kv);
  identity.emplace_back("preprocess.chunk_size", std::to_string(config.preprocess.chunk_size));
  identity.emplace_back("corpus.listing", corpus.listing);
  identity.emplace_back("corpus.fingerprint", corpus_fingerprint(corpus));
  return identity;
}

std::string serialize(const KeyValues& kv) {
  std::string out;
  for (const auto& [k, v] : kv) out += k + "=" + v + "\n";
  return out;
}

KeyValues parse_key_values(const std::string& text) {
  KeyValues kv;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    std::string line = text.substr(start, end - start);
    size_t eq = line.find('=');
    if (eq != std::string::npos) kv.emplace_back(line.substr(0, eq), line.substr(eq + 1));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return kv;
}

// Rank 0 only: refuse to clobber a finished cache, and make sure existing work units belong
// to this very job before reusing them.
void prepare_output(const Config& config, const Corpus& corpus, const PreprocessOptions& options) {
  const std::string cache = (fs::path(options.output) / kCacheFileName).string();
  const std::string work = work_directory(options.output);
  if (options.overwrite) {
    for (const char* stale : {kCacheFileName, "rejects.tsv", "config.yaml"})
      fs::remove(fs::path(options.output) / stale);
    fs::remove_all(work);
  }
  if (fs::exists(cache))
    throw Error(fmt::format("{} already exists; pass --overwrite to rebuild it, or choose another "
                            "--output",
                            cache));
  ensure_writable_directory(work, "output directory");
  const std::string job_file = (fs::path(work) / "job.txt").string();
  const KeyValues identity = job_identity(config, corpus);
  if (fs::exists(job_file))
    require_same_values(identity, parse_key_values(read_file(job_file)),
                        fmt::format("{} holds unfinished work of a run with other settings "
                                    "('here' = this run, 'there' = that run)",
                                    work),
                        "Run with the same config and corpus to resume it, or pass --overwrite.");
  else
    write_file_atomically(job_file, serialize(identity));
  for (const auto& entry : fs::directory_iterator(work))  // leftovers of a killed writer
    if (entry.path().filename().string().find(".tmp-") != std::string::npos) fs::remove(entry.path());
}

std::set<int> finished_chunks(const std::string& work) {
  std::set<int> done;
  for (const auto& entry : fs::directory_iterator(work)) {
    const std::string name = entry.path().filename().string();
    const std::string digits = name.size() > 8 ? name.substr(5, name.size() - 8) : "";
    if (name.rfind("part-", 0) == 0 && name.substr(name.size() - 3) == ".h5" && !digits.empty() &&
        digits.find_first_not_of("0123456789") == std::string::npos)
      done.insert(std::stoi(digits));
  }
  return done;
}

Part process_chunk(const Corpus& corpus, size_t begin, size_t end, const text::TextFrontend& frontend,
                   const audio::FeaturePipeline& pipeline, const Config& config) {
  Part part;
  for (size_t i = begin; i < end; ++i) {
    const Utterance& u = corpus.utterances[i];
    try {
      std::u32string symbols = frontend.symbols(u.text, u.language);
      if (static_cast<int>(symbols.size()) > config.data.max_tokens)
        throw BadInput("text_too_long", fmt::format("{} symbols exceed data.max_tokens = {}",
                                                    symbols.size(), config.data.max_tokens));
      audio::Features f = pipeline.extract(u.audio_path);
      part.utterances.push_back({static_cast<int32_t>(i), text::encode_utf8(symbols), f.n_frames,
                                 f.seconds});
      part.mel.insert(part.mel.end(), f.mel.begin(), f.mel.end());
    } catch (const BadInput& e) {
      part.rejects.push_back(
          {static_cast<int32_t>(i), e.reason(), fmt::format("{} ({}): {}", u.id, u.source, e.what())});
    }
  }
  return part;
}

std::string format_duration(double seconds) {
  int s = static_cast<int>(seconds + 0.5);
  return s >= 3600 ? fmt::format("{}h{:02d}m", s / 3600, s % 3600 / 60)
                   : fmt::format("{}m{:02d}s", s / 60, s % 60);
}

// Rank 0's progress line: it counts finished parts in the shared work directory, so it shows
// the whole job, not only its own ranks' share.
class Progress {
 public:
  Progress(const std::string& work, size_t total, size_t chunk_size)
      : work_(work), total_(total), chunk_size_(chunk_size), start_(Clock::now()),
        initial_(utterances_done()) {}
  void maybe_report(bool force = false) {
    if (comm::rank() != 0) return;
    auto now = Clock::now();
    if (!force && now - last_ < std::chrono::seconds(2)) return;
    last_ = now;
    size_t done = utterances_done();
    double elapsed = std::chrono::duration<double>(now - start_).count();
    double rate = elapsed > 0 ? (done - initial_) / elapsed : 0.0;
    std::string eta = rate > 0 ? format_duration((total_ - done) / rate) : "?";
    log::get("preprocess")
        ->info("{}/{} utterances ({:.1f}%), {:.1f} utt/s, ETA {}", done, total_,
               total_ ? 100.0 * done / total_ : 100.0, rate, eta);
  }

 private:
  size_t utterances_done() const {
    size_t done = 0;
    for (int chunk : finished_chunks(work_))
      done += std::min(chunk_size_, total_ - static_cast<size_t>(chunk) * chunk_size_);
    return done;
  }
  std::string work_;
  size_t total_, chunk_size_;
  Clock::time_point start_, last_{};
  size_t initial_;
};

// Workers compute parts; the calling thread writes them (HDF5 writes stay on one thread).
void run_chunks(const std::vector<int>& chunks, const Corpus& corpus, const Config& config,
                const std::string& work, Progress& progress) {
  const size_t chunk_size = config.preprocess.chunk_size;
  int workers = config.preprocess.workers;
  if (workers == 0)
    workers = std::max(1, static_cast<int>(std::thread::hardware_concurrency()) / comm::local_size());
  text::TextFrontend frontend(config.text);
  audio::FeaturePipeline pipeline(config.audio, config.data.min_duration, config.data.max_duration);

  std::mutex mutex;
  std::condition_variable ready_cv;
  std::deque<std::pair<int, Part>> ready;
  std::exception_ptr failure;
  std::atomic<size_t> next{0};
  std::atomic<bool> stop{false};
  auto work_loop = [&] {
    try {
      for (size_t k; !stop && (k = next++) < chunks.size();) {
        const size_t begin = chunks[k] * chunk_size;
        const size_t end = std::min(corpus.utterances.size(), begin + chunk_size);
        Part part = process_chunk(corpus, begin, end, frontend, pipeline, config);
        std::lock_guard<std::mutex> lock(mutex);
        ready.emplace_back(chunks[k], std::move(part));
        ready_cv.notify_one();
      }
    } catch (...) {
      std::lock_guard<std::mutex> lock(mutex);
      if (!failure) failure = std::current_exception();
      stop = true;
      ready_cv.notify_one();
    }
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < workers; ++t) threads.emplace_back(work_loop);
  log::get("preprocess")->debug("{} chunk(s) on {} worker thread(s)", chunks.size(), workers);

  const long kill_after = fault_after("KILL_AFTER_PARTS");  // test hook: die as a crash would
  size_t written = 0;
  try {
    while (written < chunks.size()) {
      std::unique_lock<std::mutex> lock(mutex);
      ready_cv.wait_for(lock, std::chrono::milliseconds(500), [&] { return !ready.empty() || failure; });
      if (failure) std::rethrow_exception(failure);
      throw_if_interrupted();  // finished parts stay: the next run resumes from them
      if (ready.empty()) {
        lock.unlock();
        progress.maybe_report();
        continue;
      }
      auto [chunk, part] = std::move(ready.front());
      ready.pop_front();
      lock.unlock();
      write_part(part_path(work, chunk), part, config.audio.n_mels);
      if (++written == static_cast<size_t>(kill_after)) std::raise(SIGKILL);
      progress.maybe_report();
    }
  } catch (...) {
    stop = true;
    for (auto& t : threads) t.join();
    throw;
  }
  for (auto& t : threads) t.join();
}

}  // namespace

void check_inputs(const Config& config, const PreprocessOptions& options) {
  read_corpus(options.input, config.data.format, config.data);  // text only: cheap
  audio::MelExtractor{config.audio};  // refuses mel bands that catch no FFT bin
}

PreprocessSummary preprocess(const Config& config, const PreprocessOptions& options) {
  auto logger = log::get("preprocess");
  const auto start = Clock::now();
  Corpus corpus = read_corpus(options.input, config.data.format, config.data);
  const size_t chunk_size = config.preprocess.chunk_size;
  const int n_chunks = static_cast<int>((corpus.utterances.size() + chunk_size - 1) / chunk_size);
  const std::string work = work_directory(options.output);
  if (comm::rank() == 0) {
    logger->info("corpus {} ({}): {} utterances listed, {} rejected while reading", corpus.listing,
                 corpus.format, corpus.utterances.size(), corpus.rejects.size());
    if (corpus.crlf_lines > 0 || corpus.had_bom)
      logger->warn("{}: tolerated {} CRLF line end(s){}", corpus.listing, corpus.crlf_lines,
                   corpus.had_bom ? " and a UTF-8 byte-order mark" : "");
    prepare_output(config, corpus, options);
  }
  comm::barrier();

  std::set<int> done = finished_chunks(work);
  std::vector<int> mine;
  for (int chunk = comm::rank(); chunk < n_chunks; chunk += comm::size())
    if (!done.count(chunk)) mine.push_back(chunk);
  if (comm::rank() == 0 && !done.empty())
    logger->info("resuming: {} of {} work units already done in {}", done.size(), n_chunks, work);
  Progress progress(work, corpus.utterances.size(), chunk_size);
  run_chunks(mine, corpus, config, work, progress);
  comm::barrier();

  PreprocessSummary summary;
  if (comm::rank() == 0) {
    progress.maybe_report(/*force=*/true);
    const std::set<int> finished = finished_chunks(work);
    std::vector<int> missing;
    for (int chunk = 0; chunk < n_chunks; ++chunk)
      if (!finished.count(chunk)) missing.push_back(chunk);
    if (!missing.empty())
      throw Error(fmt::format("{} of {} work units are missing from {} (first: part-{:06d}.h5): with "
                              "several nodes, --output must be on a filesystem every rank shares",
                              missing.size(), n_chunks, work, missing.front()));
    const std::string cache = (fs::path(options.output) / kCacheFileName).string();
    save_config(config, (fs::path(options.output) / "config.yaml").string());
    merge_parts(config, corpus, work, n_chunks, cache, (fs::path(options.output) / "rejects.tsv").string(),
                summary);
    fs::remove_all(work);
    summary.wall_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  }
  comm::barrier();
  return summary;
}

}  // namespace myxtts::data
