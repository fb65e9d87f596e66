#include "core/config.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <map>
#include <sstream>

#include "core/error.h"
#include "core/fs.h"

namespace myxtts {
namespace {

std::string to_text(int v) { return std::to_string(v); }
std::string to_text(int64_t v) { return std::to_string(v); }
std::string to_text(bool v) { return v ? "true" : "false"; }
std::string to_text(const std::string& v) { return v; }
std::string to_text(double v) {
  // Shortest form that reads back to the same double, so saved configs round-trip exactly.
  for (int precision = 6; precision <= 17; ++precision) {
    std::string s = fmt::format("{:.{}g}", v, precision);
    if (std::strtod(s.c_str(), nullptr) == v) return s;
  }
  return fmt::format("{:.17g}", v);
}

// Parses `text` into `out`; returns false when it is not a value of that type.
bool parse(const std::string& text, int64_t& out) {
  if (text.empty()) return false;
  errno = 0;
  char* end = nullptr;
  long long v = std::strtoll(text.c_str(), &end, 10);
  if (errno != 0 || *end != '\0') return false;
  out = v;
  return true;
}
bool parse(const std::string& text, int& out) {
  int64_t v = 0;
  if (!parse(text, v) || v < INT32_MIN || v > INT32_MAX) return false;
  out = static_cast<int>(v);
  return true;
}
bool parse(const std::string& text, double& out) {
  if (text.empty()) return false;
  errno = 0;
  char* end = nullptr;
  double v = std::strtod(text.c_str(), &end);
  if (errno != 0 || *end != '\0' || !std::isfinite(v)) return false;
  out = v;
  return true;
}
bool parse(const std::string& text, bool& out) {
  std::string t = text;
  std::transform(t.begin(), t.end(), t.begin(), ::tolower);
  if (t == "true" || t == "yes" || t == "on" || t == "1") return out = true, true;
  if (t == "false" || t == "no" || t == "off" || t == "0") return out = false, true;
  return false;
}
bool parse(const std::string& text, std::string& out) {
  out = text;
  return true;
}

const char* type_name(int) { return "an integer"; }
const char* type_name(int64_t) { return "an integer"; }
const char* type_name(double) { return "a number"; }
const char* type_name(bool) { return "true or false"; }
const char* type_name(const std::string&) { return "a string"; }

// Base for visitors that walk the tree keeping the dotted path of the current section
// (CRTP, so sections call back into the concrete visitor's field()).
template <class Derived>
class PathVisitor {
 public:
  template <class S>
  void section(const char* name, S& s) {
    std::string saved = prefix_;
    prefix_ += std::string(name) + ".";
    s.visit(static_cast<Derived&>(*this));
    prefix_ = saved;
  }
  std::string key(const char* name) const { return prefix_ + name; }

 protected:
  std::string prefix_;
};

// Assigns one "key=value"; records whether the key exists.
class Assigner : public PathVisitor<Assigner> {
 public:
  Assigner(std::string key, std::string value) : target_(std::move(key)), value_(std::move(value)) {}

  template <class T, class B>
  void field(const char* name, T& ref, const char*, B, B) { assign(name, ref); }
  template <class T>
  void field(const char* name, T& ref, const char*, std::initializer_list<const char*>) {
    assign(name, ref);
  }
  template <class T>
  void field(const char* name, T& ref, const char*) { assign(name, ref); }

  bool found() const { return found_; }

 private:
  template <class T>
  void assign(const char* name, T& ref) {
    if (key(name) != target_) return;
    found_ = true;
    if (!parse(value_, ref))
      throw Error(fmt::format("config key {}: '{}' is not {}", target_, value_, type_name(ref)));
  }
  std::string target_, value_;
  bool found_ = false;
};

// Collects every range/choice violation.
class Validator : public PathVisitor<Validator> {
 public:
  template <class T, class B>
  void field(const char* name, const T& ref, const char*, B lo, B hi) {
    if (ref < lo || ref > hi)
      errors.push_back(fmt::format("{} = {} is out of range; allowed: {} .. {}", key(name),
                                   to_text(ref), to_text(T(lo)), to_text(T(hi))));
  }
  void field(const char* name, const std::string& ref, const char*,
             std::initializer_list<const char*> choices) {
    for (const char* c : choices)
      if (ref == c) return;
    std::string allowed;
    for (const char* c : choices) allowed += (allowed.empty() ? "" : ", ") + std::string(c);
    errors.push_back(fmt::format("{} = '{}' is not allowed; choose one of: {}", key(name), ref,
                                 allowed));
  }
  template <class T>
  void field(const char*, const T&, const char*) {}

  std::vector<std::string> errors;
};

class Flattener : public PathVisitor<Flattener> {
 public:
  template <class T, class B>
  void field(const char* name, const T& ref, const char*, B, B) { add(name, ref); }
  template <class T>
  void field(const char* name, const T& ref, const char*, std::initializer_list<const char*>) {
    add(name, ref);
  }
  template <class T>
  void field(const char* name, const T& ref, const char*) { add(name, ref); }
  KeyValues out;

 private:
  template <class T>
  void add(const char* name, const T& ref) { out.emplace_back(key(name), to_text(ref)); }
};

size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
      diagonal = up;
    }
  }
  return row[b.size()];
}

std::string unknown_key_message(const Config& config, const std::string& key) {
  std::string best;
  size_t best_distance = SIZE_MAX;
  for (const auto& [k, v] : flatten(config)) {
    size_t d = edit_distance(k, key);
    if (d < best_distance) best_distance = d, best = k;
  }
  std::string hint = best_distance <= 4 ? fmt::format(" (did you mean {}?)", best) : "";
  return fmt::format("unknown config key '{}'{}; docs/usage.md lists every key", key, hint);
}

void assign_yaml(Config& config, const YAML::Node& node, const std::string& prefix,
                 const std::string& source) {
  if (!node.IsMap())
    throw Error(fmt::format("{}: expected a mapping at '{}'", source,
                            prefix.empty() ? "<top level>" : prefix));
  for (const auto& item : node) {
    std::string key = prefix + item.first.as<std::string>();
    if (item.second.IsMap()) {
      assign_yaml(config, item.second, key + ".", source);
    } else if (item.second.IsScalar() || item.second.IsNull()) {
      std::string value = item.second.IsNull() ? "" : item.second.as<std::string>();
      try {
        apply_override(config, key + "=" + value);
      } catch (const Error& e) {
        throw Error(fmt::format("{} (line {}): {}", source, item.first.Mark().line + 1, e.what()));
      }
    } else {
      throw Error(fmt::format("{}: key {} must be a single value, not a list", source, key));
    }
  }
}

}  // namespace

void apply_override(Config& config, const std::string& key_equals_value) {
  size_t eq = key_equals_value.find('=');
  if (eq == std::string::npos || eq == 0)
    throw Error(fmt::format("override '{}' must look like section.key=value", key_equals_value));
  Assigner assigner(key_equals_value.substr(0, eq), key_equals_value.substr(eq + 1));
  config.visit(assigner);
  if (!assigner.found())
    throw Error(unknown_key_message(config, key_equals_value.substr(0, eq)));
}

void validate(const Config& config) {
  Validator validator;
  const_cast<Config&>(config).visit(validator);
  auto& errors = validator.errors;
  const AudioConfig& a = config.audio;
  if (a.n_fft & (a.n_fft - 1))
    errors.push_back(fmt::format("audio.n_fft = {} must be a power of two (512, 1024, 2048, ...)",
                                 a.n_fft));
  if (a.win_length > a.n_fft)
    errors.push_back(fmt::format("audio.win_length = {} must not exceed audio.n_fft = {}",
                                 a.win_length, a.n_fft));
  if (a.fmax > a.sample_rate / 2.0)
    errors.push_back(fmt::format("audio.fmax = {} must not exceed half of audio.sample_rate ({})",
                                 to_text(a.fmax), a.sample_rate / 2.0));
  if (a.fmin >= a.fmax)
    errors.push_back(fmt::format("audio.fmin = {} must be below audio.fmax = {}", to_text(a.fmin),
                                 to_text(a.fmax)));
  const ModelConfig& m = config.model;
  if (m.dim % m.heads != 0 || m.dim % 2 != 0)
    errors.push_back(fmt::format("model.dim = {} must be even and a multiple of model.heads = {}", m.dim, m.heads));
  if (m.kernel % 2 == 0) errors.push_back(fmt::format("model.kernel = {} must be odd (3, 5, ...)", m.kernel));
  if (config.train.min_learning_rate > config.train.learning_rate)
    errors.push_back(fmt::format("train.min_learning_rate = {} must not exceed train.learning_rate = {}",
                                 to_text(config.train.min_learning_rate), to_text(config.train.learning_rate)));
  if (config.data.min_duration >= config.data.max_duration)
    errors.push_back(fmt::format("data.min_duration = {} must be below data.max_duration = {}",
                                 to_text(config.data.min_duration),
                                 to_text(config.data.max_duration)));
  if (errors.empty()) return;
  std::string message = "invalid configuration:";
  for (const auto& e : errors) message += "\n  - " + e;
  throw Error(message);
}

Config load_config(const std::vector<std::string>& yaml_paths, const std::vector<std::string>& overrides) {
  Config config;
  for (const std::string& yaml_path : yaml_paths) {
    YAML::Node root;
    try {
      root = YAML::LoadFile(yaml_path);
    } catch (const YAML::BadFile&) {
      throw Error(fmt::format("cannot read config file {}: check the path", yaml_path));
    } catch (const YAML::Exception& e) {
      throw Error(fmt::format("{}: YAML syntax error at line {}: {}", yaml_path, e.mark.line + 1,
                              e.msg));
    }
    if (!root.IsNull()) assign_yaml(config, root, "", yaml_path);
  }
  for (const auto& o : overrides) {
    try {
      apply_override(config, o);
    } catch (const Error& e) {
      throw Error(fmt::format("--set {}: {}", o, e.what()));
    }
  }
  validate(config);
  return config;
}

KeyValues flatten(const Config& config) {
  Flattener f;
  const_cast<Config&>(config).visit(f);
  return f.out;
}

std::string to_yaml(const Config& config) {
  YAML::Emitter out;
  out << YAML::BeginMap;
  std::string open_section;
  for (const auto& [key, value] : flatten(config)) {
    std::string section = key.substr(0, key.find('.'));
    if (section != open_section) {
      if (!open_section.empty()) out << YAML::EndMap;
      out << YAML::Key << section << YAML::Value << YAML::BeginMap;
      open_section = section;
    }
    out << YAML::Key << key.substr(key.find('.') + 1) << YAML::Value << YAML::DoubleQuoted
        << value;
  }
  if (!open_section.empty()) out << YAML::EndMap;
  out << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

void save_config(const Config& config, const std::string& path) {
  write_file_atomically(path, "# resolved MyXTTS configuration\n" + to_yaml(config));
}

std::vector<std::string> diff_key_values(const KeyValues& here, const KeyValues& there) {
  std::map<std::string, std::string> other(there.begin(), there.end());
  std::vector<std::string> out;
  for (const auto& [key, value] : here) {
    auto it = other.find(key);
    if (it == other.end())
      out.push_back(fmt::format("{}: {} here, absent there", key, value));
    else if (it->second != value)
      out.push_back(fmt::format("{}: '{}' here, '{}' there", key, value, it->second));
  }
  for (const auto& [key, value] : there)
    if (std::none_of(here.begin(), here.end(), [&](const auto& kv) { return kv.first == key; }))
      out.push_back(fmt::format("{}: absent here, '{}' there", key, value));
  return out;
}

void require_same_values(const KeyValues& here, const KeyValues& there, const std::string& header,
                         const std::string& advice) {
  std::vector<std::string> differences = diff_key_values(here, there);
  if (differences.empty()) return;
  std::string message = header + ":";
  for (const auto& d : differences) message += "\n  - " + d;
  throw Error(message + "\n" + advice);
}

}  // namespace myxtts
