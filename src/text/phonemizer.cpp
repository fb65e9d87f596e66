#include "text/phonemizer.h"

#include <espeak-ng/espeak_ng.h>
#include <espeak-ng/speak_lib.h>
#include <fmt/format.h>

#include <mutex>

#include "core/error.h"

namespace myxtts::text {
namespace {

std::mutex espeak_mutex;
bool espeak_ready = false;  // guarded by espeak_mutex
std::string current_voice;  // guarded by espeak_mutex; loading a voice is slow, so reuse it

std::string status_message(espeak_ng_STATUS status) {
  char buffer[512];
  espeak_ng_GetStatusCodeMessage(status, buffer, sizeof buffer);
  return buffer;
}

// The espeak_ng_* calls rather than espeak_Initialize: the latter calls exit(1) when
// espeak-ng-data is missing and, with espeakINITIALIZE_DONT_EXIT, does not report the failure.
// Note that espeak_ng_Initialize sets the process's LC_CTYPE locale to a UTF-8 one.
void ensure_initialized() {
  if (espeak_ready) return;
  espeak_ng_InitializePath(nullptr);  // ESPEAK_DATA_PATH, then the compiled-in location
  espeak_ng_ERROR_CONTEXT context = nullptr;
  const espeak_ng_STATUS status = espeak_ng_Initialize(&context);
  espeak_ng_ClearErrorContext(&context);
  if (status != ENS_OK)
    throw Error(fmt::format(
        "espeak-ng failed to initialise: {}; install espeak-ng-data (Debian: apt-get install "
        "espeak-ng-data) or point ESPEAK_DATA_PATH at the directory that contains it",
        status_message(status)));
  const espeak_ng_STATUS output = espeak_ng_InitializeOutput(ENOUTPUT_MODE_SYNCHRONOUS, 0, nullptr);
  if (output != ENS_OK)
    throw Error(
        fmt::format("espeak-ng failed to set up synchronous output: {}", status_message(output)));
  espeak_ready = true;
}

// Corpus language codes that espeak-ng names differently.
std::string voice_name(const std::string& language) { return language == "zh" ? "cmn" : language; }

void select_voice(const std::string& language) {
  const std::string voice = voice_name(language);
  if (voice == current_voice) return;
  const espeak_ng_STATUS status = espeak_ng_SetVoiceByName(voice.c_str());
  if (status != ENS_OK) {
    current_voice.clear();  // the previous voice may be half replaced; reload it next time
    throw Error(fmt::format(
        "espeak-ng has no voice for language '{}' (voice '{}': {}); use a language listed by "
        "`espeak-ng --voices`, install espeak-ng-data, or set text.frontend=characters",
        language, voice, status_message(status)));
  }
  current_voice = voice;
}

// espeak-ng marks words it reads with another language's rules as "(en)wɜːd(fa)"; the markers
// are not sounds, so they are removed. IPA itself never uses parentheses.
void append_without_language_markers(std::string& out, const std::string& clause) {
  size_t i = 0;
  while (i < clause.size()) {
    if (clause[i] == '(') {
      const size_t close = clause.find(')', i);
      if (close != std::string::npos &&
          clause.find_first_not_of("abcdefghijklmnopqrstuvwxyz-", i + 1) == close) {
        i = close + 1;
        continue;
      }
    }
    out += clause[i++];
  }
}

}  // namespace

std::string phonemize(const std::string& normalized_utf8, const std::string& language) {
  std::lock_guard<std::mutex> lock(espeak_mutex);
  ensure_initialized();
  select_voice(language);
  std::string ipa;
  const void* cursor = normalized_utf8.c_str();
  // espeak_TextToPhonemes translates one clause per call and sets cursor to null at the end.
  while (cursor != nullptr) {
    const char* clause = espeak_TextToPhonemes(&cursor, espeakCHARS_UTF8, espeakPHONEMES_IPA);
    if (clause == nullptr)
      throw Error(fmt::format("espeak-ng could not decode the {} text as UTF-8: \"{}\"", language,
                              normalized_utf8));
    std::string phonemes;
    append_without_language_markers(phonemes, clause);
    if (phonemes.empty()) continue;
    if (!ipa.empty()) ipa += ' ';
    ipa += phonemes;
  }
  return ipa;
}

}  // namespace myxtts::text
