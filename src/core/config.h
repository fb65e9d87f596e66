#pragma once
// The typed configuration tree. Every section lists its keys once, in visit(), with help text
// and allowed values; loading YAML, --set overrides, validation, saving and fingerprinting are
// all visitors over that one list (see config.cpp), so a new key needs one line.
#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

namespace myxtts {

struct AudioConfig {
  int sample_rate = 22050;
  int n_fft = 1024;
  int hop_length = 256;
  int win_length = 1024;
  int n_mels = 80;
  double fmin = 0.0;
  double fmax = 8000.0;
  std::string mel_scale = "slaney";
  std::string mel_norm = "slaney";
  int power = 1;
  double log_floor = 1e-5;
  std::string resample_quality = "high";
  bool trim_silence = true;
  double trim_top_db = 45.0;
  double peak_normalize = 0.95;

  template <class V>
  void visit(V& v) {
    v.field("sample_rate", sample_rate, "sample rate of every feature, Hz", 8000, 96000);
    v.field("n_fft", n_fft, "FFT size (power of two)", 64, 8192);
    v.field("hop_length", hop_length, "samples between frames", 16, 4096);
    v.field("win_length", win_length, "Hann window length (<= n_fft)", 16, 8192);
    v.field("n_mels", n_mels, "mel bands", 8, 512);
    v.field("fmin", fmin, "lowest mel frequency, Hz", 0.0, 48000.0);
    v.field("fmax", fmax, "highest mel frequency, Hz (<= sample_rate/2)", 1.0, 48000.0);
    v.field("mel_scale", mel_scale, "mel scale formula", {"slaney", "htk"});
    v.field("mel_norm", mel_norm, "filter normalisation", {"slaney", "none"});
    v.field("power", power, "spectrogram exponent: 1 magnitude, 2 power", 1, 2);
    v.field("log_floor", log_floor, "floor applied before the natural log", 1e-12, 1.0);
    v.field("resample_quality", resample_quality, "libsoxr quality",
            {"quick", "low", "medium", "high", "very_high"});
    v.field("trim_silence", trim_silence, "trim leading/trailing silence");
    v.field("trim_top_db", trim_top_db, "frames this many dB under the peak count as silence",
            5.0, 120.0);
    v.field("peak_normalize", peak_normalize, "scale peaks to this amplitude (0 = off)", 0.0, 1.0);
  }
};

struct TextConfig {
  std::string frontend = "characters";
  bool lowercase = true;
  bool expand_numbers = true;
  std::string symbols;

  template <class V>
  void visit(V& v) {
    v.field("frontend", frontend, "text units: normalised characters or espeak-ng IPA phonemes",
            {"characters", "phonemes"});
    v.field("lowercase", lowercase, "lower-case cased scripts");
    v.field("expand_numbers", expand_numbers, "spell out digits (English)");
    v.field("symbols", symbols,
            "fixed symbol inventory (UTF-8); empty = build the vocabulary from the corpus");
  }
};

// Languages the text frontends handle (normalisation rules, espeak-ng voices).
inline constexpr std::initializer_list<const char*> kLanguages = {
    "en", "fa", "de", "fr", "es", "it", "pt", "nl", "ar", "ru", "zh", "ja", "tr"};

struct DataConfig {
  std::string format = "auto";
  std::string default_speaker = "speaker0";
  std::string default_language = "en";
  double min_duration = 0.3;
  double max_duration = 20.0;
  int max_tokens = 600;
  double val_fraction = 0.02;
  int val_count = -1;
  int64_t seed = 1234;

  template <class V>
  void visit(V& v) {
    v.field("format", format, "corpus layout", {"auto", "ljspeech", "manifest"});
    v.field("default_speaker", default_speaker, "speaker of utterances that name none");
    v.field("default_language", default_language, "language of utterances that name none", kLanguages);
    v.field("min_duration", min_duration, "shortest utterance kept, seconds", 0.0, 3600.0);
    v.field("max_duration", max_duration, "longest utterance kept, seconds", 0.01, 3600.0);
    v.field("max_tokens", max_tokens, "longest token sequence kept", 1, 100000);
    v.field("val_fraction", val_fraction, "share of utterances held out for validation", 0.0,
            0.5);
    v.field("val_count", val_count, "exact validation size (-1 = use val_fraction)", -1,
            1000000);
    v.field("seed", seed, "seed of the train/validation split", int64_t{0},
            int64_t{1} << 62);
  }
};

struct PreprocessConfig {
  int workers = 0;
  int chunk_size = 32;
  int mel_chunk_frames = 128;

  template <class V>
  void visit(V& v) {
    v.field("workers", workers, "threads per rank (0 = cores of the node / ranks on it)", 0,
            1024);
    v.field("chunk_size", chunk_size, "utterances per resumable work unit", 1, 100000);
    v.field("mel_chunk_frames", mel_chunk_frames,
            "HDF5 chunk rows of the mel array (small: a batch reads little beyond its utterances)", 16,
            1 << 20);
  }
};

struct LayoutConfig {
  int producers_per_node = 1;
  std::string producer_device = "auto";
  int gpus_per_node = -1;
  int emulate_nodes = 0;

  template <class V>
  void visit(V& v) {
    v.field("producers_per_node", producers_per_node, "data producer ranks on each node", 1, 64);
    v.field("producer_device", producer_device,
            "auto: a GPU of its own when the node has 2+ GPUs, else the CPU", {"auto", "cpu", "gpu"});
    v.field("gpus_per_node", gpus_per_node, "GPUs per node (-1 = detect)", -1, 64);
    v.field("emulate_nodes", emulate_nodes,
            "split the ranks into this many equal emulated nodes (0 = real nodes)", 0, 4096);
  }
};

struct BatchConfig {
  std::string mode = "frames";
  int size = 16;
  int max_frames = 12000;
  int pad_multiple = 16;
  int pool_batches = 32;
  int reference_frames = 128;
  std::string mel_dtype = "float32";
  int64_t seed = 1234;

  template <class V>
  void visit(V& v) {
    v.field("mode", mode, "frames: fill batches up to max_frames padded frames; fixed: size utterances",
            {"frames", "fixed"});
    v.field("size", size, "utterances per batch in fixed mode", 1, 4096);
    v.field("max_frames", max_frames, "padded mel frames per batch in frames mode", 16, 1 << 24);
    v.field("pad_multiple", pad_multiple, "pad frame and token lengths up to a multiple of this", 1,
            1024);
    v.field("pool_batches", pool_batches, "batches per length-sorting pool (1 = no bucketing)", 1,
            100000);
    v.field("reference_frames", reference_frames, "frames of the speaker reference segment", 8, 4096);
    v.field("mel_dtype", mel_dtype, "mel precision on the wire", {"float32", "float16"});
    v.field("seed", seed, "seed of the batch order", int64_t{0}, int64_t{1} << 62);
  }
};

struct StreamConfig {
  int slots = 3;
  int reader_threads = 2;
  double timeout_seconds = 300.0;
  double metrics_interval_seconds = 10.0;

  template <class V>
  void visit(V& v) {
    v.field("slots", slots, "receive slots (credits) per trainer: batches in flight", 1, 64);
    v.field("reader_threads", reader_threads, "producer threads assembling batches ahead", 1, 64);
    v.field("timeout_seconds", timeout_seconds,
            "longest wait for a batch or a free slot before the rank gives up", 1.0, 86400.0);
    v.field("metrics_interval_seconds", metrics_interval_seconds,
            "seconds between the producer's throughput lines", 0.5, 86400.0);
  }
};

// The acoustic model's sizes (presets in configs/tiny|small|normal|big.yaml).
struct ModelConfig {
  int dim = 128;
  int heads = 2;
  int ffn_dim = 512;
  int kernel = 3;
  int encoder_layers = 4;
  int decoder_layers = 4;
  int conditioning_layers = 3;
  int latents = 4;
  int duration_hidden = 256;
  int aligner_dim = 80;
  double dropout = 0.1;

  template <class V>
  void visit(V& v) {
    v.field("dim", dim, "width of the text encoder, conditioning encoder and decoder (multiple of heads)",
            8, 4096);
    v.field("heads", heads, "attention heads", 1, 64);
    v.field("ffn_dim", ffn_dim, "hidden width of the convolutional feed-forward layers", 8, 16384);
    v.field("kernel", kernel, "feed-forward convolution kernel (odd)", 1, 31);
    v.field("encoder_layers", encoder_layers, "Transformer blocks of the text encoder", 1, 64);
    v.field("decoder_layers", decoder_layers, "Transformer blocks of the mel decoder", 1, 64);
    v.field("conditioning_layers", conditioning_layers, "convolutions over the reference mel", 1, 32);
    v.field("latents", latents, "speaker/style latents the reference mel is pooled into", 1, 64);
    v.field("duration_hidden", duration_hidden, "hidden width of the duration predictor", 8, 4096);
    v.field("aligner_dim", aligner_dim, "width of the text-mel alignment space", 8, 1024);
    v.field("dropout", dropout, "dropout probability in training", 0.0, 0.9);
  }
};

// Weights of the loss terms (a weight of 0 turns a term off).
struct LossConfig {
  double mel_l1 = 1.0;
  double mel_l2 = 0.0;
  double duration = 1.0;
  double forward_sum = 1.0;
  double binarization = 1.0;
  int binarization_start = 1000;

  template <class V>
  void visit(V& v) {
    v.field("mel_l1", mel_l1, "masked L1 between predicted and target log-mel", 0.0, 1000.0);
    v.field("mel_l2", mel_l2, "masked L2 between predicted and target log-mel", 0.0, 1000.0);
    v.field("duration", duration, "squared error of the predicted log(1 + frames) per token", 0.0, 1000.0);
    v.field("forward_sum", forward_sum, "forward-sum (CTC) alignment objective", 0.0, 1000.0);
    v.field("binarization", binarization, "pulls the soft alignment onto the hard one", 0.0, 1000.0);
    v.field("binarization_start", binarization_start, "optimiser step at which binarization starts", 0,
            100000000);
  }
};

struct TrainConfig {
  std::string cache;
  std::string output_dir = "runs/default";
  int steps = 20000;
  double learning_rate = 1e-3;
  int warmup_steps = 500;
  std::string decay = "cosine";
  double min_learning_rate = 1e-5;
  double weight_decay = 0.01;
  double adam_beta1 = 0.9;
  double adam_beta2 = 0.98;
  double grad_clip = 1.0;
  int accumulation = 1;
  std::string precision = "auto";
  int allreduce_bucket_mb = 32;
  int max_skipped_steps = 20;
  int log_interval = 10;
  int validation_interval = 500;
  int checkpoint_interval = 500;
  int keep_checkpoints = 3;
  int check_replicas_interval = 0;
  int threads = 0;
  int64_t seed = 1234;

  template <class V>
  void visit(V& v) {
    v.field("cache", cache, "feature cache made by myxtts preprocess (directory or features.h5)");
    v.field("output_dir", output_dir, "run directory: checkpoints/, events, metrics.jsonl, logs/");
    v.field("steps", steps, "optimiser steps to train", 1, 1000000000);
    v.field("learning_rate", learning_rate, "peak learning rate (AdamW)", 1e-8, 10.0);
    v.field("warmup_steps", warmup_steps, "linear warm-up steps", 0, 100000000);
    v.field("decay", decay, "learning-rate decay after warm-up", {"cosine", "linear", "constant"});
    v.field("min_learning_rate", min_learning_rate, "learning rate at the last step (cosine, linear)", 0.0, 10.0);
    v.field("weight_decay", weight_decay, "AdamW weight decay", 0.0, 10.0);
    v.field("adam_beta1", adam_beta1, "AdamW beta1", 0.0, 0.99999);
    v.field("adam_beta2", adam_beta2, "AdamW beta2", 0.0, 0.99999);
    v.field("grad_clip", grad_clip, "clip the global gradient norm to this (0 = off)", 0.0, 1e6);
    v.field("accumulation", accumulation, "batches per trainer in one optimiser step", 1, 1024);
    v.field("precision", precision, "auto: bf16 autocast on CUDA, fp32 on CPU", {"auto", "fp32", "bf16"});
    v.field("allreduce_bucket_mb", allreduce_bucket_mb, "gradient all-reduce bucket size, MiB", 1, 4096);
    v.field("max_skipped_steps", max_skipped_steps,
            "stop after this many non-finite steps in a row", 1, 1000000);
    v.field("log_interval", log_interval, "steps between metrics lines", 1, 1000000);
    v.field("validation_interval", validation_interval, "steps between validation passes", 1, 100000000);
    v.field("checkpoint_interval", checkpoint_interval, "steps between checkpoints", 1, 100000000);
    v.field("keep_checkpoints", keep_checkpoints, "newest checkpoints kept (plus the best)", 1, 1000);
    v.field("check_replicas_interval", check_replicas_interval,
            "steps between checks that every trainer holds identical parameters (0 = off)", 0, 100000000);
    v.field("threads", threads, "libtorch threads per trainer (0 = cores of the node / ranks on it)", 0, 1024);
    v.field("seed", seed, "seed of the initial weights and dropout", int64_t{0}, int64_t{1} << 62);
  }
};

struct SynthesisConfig {
  int griffin_lim_iterations = 60;
  double griffin_lim_momentum = 0.99;

  template <class V>
  void visit(V& v) {
    v.field("griffin_lim_iterations", griffin_lim_iterations, "Griffin-Lim iterations (more: fewer phase artefacts)",
            1, 10000);
    v.field("griffin_lim_momentum", griffin_lim_momentum, "fast Griffin-Lim momentum (0 = plain Griffin-Lim)", 0.0,
            0.9999);
  }
};

struct Config {
  AudioConfig audio;
  TextConfig text;
  DataConfig data;
  PreprocessConfig preprocess;
  LayoutConfig layout;
  BatchConfig batch;
  StreamConfig stream;
  ModelConfig model;
  LossConfig loss;
  TrainConfig train;
  SynthesisConfig synthesis;

  template <class V>
  void visit(V& v) {
    v.section("audio", audio);
    v.section("text", text);
    v.section("data", data);
    v.section("preprocess", preprocess);
    v.section("layout", layout);
    v.section("batch", batch);
    v.section("stream", stream);
    v.section("model", model);
    v.section("loss", loss);
    v.section("train", train);
    v.section("synthesis", synthesis);
  }
};

using KeyValues = std::vector<std::pair<std::string, std::string>>;

// Loads YAML files on top of the defaults, each over the previous one (a data config, then a
// model preset), applies "key=value" overrides, validates, and throws Error listing every
// problem with key and allowed values.
Config load_config(const std::vector<std::string>& yaml_paths, const std::vector<std::string>& overrides);
void apply_override(Config& config, const std::string& key_equals_value);
void validate(const Config& config);

// Every key with its canonical text value, in declaration order.
KeyValues flatten(const Config& config);
std::string to_yaml(const Config& config);
// Writes to a temporary file and renames it, so a reader never sees half a file.
void save_config(const Config& config, const std::string& path);
// Names the keys whose values differ: "audio.hop_length: '256' here, '200' there".
std::vector<std::string> diff_key_values(const KeyValues& here, const KeyValues& there);
// Throws Error "<header>:\n  - <each difference>\n<advice>" when any key differs.
void require_same_values(const KeyValues& here, const KeyValues& there, const std::string& header,
                         const std::string& advice);

}  // namespace myxtts
