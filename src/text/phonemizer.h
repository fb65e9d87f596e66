#pragma once
// Grapheme-to-phoneme conversion with espeak-ng, which covers every language the corpus may
// name. espeak-ng keeps global state, so all calls are serialised behind one mutex; callers on
// many threads are safe but do not run in parallel.
#include <string>

namespace myxtts::text {

// IPA (UTF-8) for already normalised text, one space between clauses; espeak-ng's punctuation
// handling drops the punctuation itself. "zh" selects espeak-ng's "cmn" voice. Throws Error
// when espeak-ng cannot start (missing espeak-ng-data) or has no voice for the language.
std::string phonemize(const std::string& normalized_utf8, const std::string& language);

}  // namespace myxtts::text
