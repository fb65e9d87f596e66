#pragma once
// Final step of preprocessing (rank 0): all parts, in corpus order -> one cache file.
#include <string>

#include "core/config.h"
#include "data/corpus.h"
#include "data/preprocess.h"

namespace myxtts::data {

// Writes every reject to `rejects_path` (TSV, also when nothing was kept), builds the
// vocabulary, tokenises, assigns speakers, languages and the split, and writes <cache_path>
// atomically. Fills the counting fields of `summary`.
void merge_parts(const Config& config, const Corpus& corpus, const std::string& work_dir,
                 int n_chunks, const std::string& cache_path, const std::string& rejects_path,
                 PreprocessSummary& summary);

}  // namespace myxtts::data
