#include <gtest/gtest.h>

#include "core/error.h"
#include "text/vocabulary.h"

namespace myxtts::text {
namespace {

using Symbols = std::vector<std::string>;

TEST(Vocabulary, ReservedIds) {
  EXPECT_EQ(Vocabulary::kPadId, 0);
  EXPECT_EQ(Vocabulary::kBosId, 1);
  EXPECT_EQ(Vocabulary::kEosId, 2);
  EXPECT_EQ(Vocabulary::kUnkId, 3);
  const Vocabulary v = Vocabulary::build({});
  EXPECT_EQ(v.symbols(), (Symbols{"<pad>", "<bos>", "<eos>", "<unk>"}));
  EXPECT_EQ(v.size(), 4u);
}

TEST(Vocabulary, BuildSortsSeenSymbolsByCodePoint) {
  const Vocabulary v = Vocabulary::build({U"cab", U"ba d", U"\u06CC\u200C"});
  EXPECT_EQ(v.symbols(), (Symbols{"<pad>", "<bos>", "<eos>", "<unk>", " ", "a", "b", "c", "d",
                                  "\xDB\x8C", "\xE2\x80\x8C"}));
  EXPECT_EQ(v.size(), 11u);
}

TEST(Vocabulary, EncodeMapsEachCodePoint) {
  const Vocabulary v = Vocabulary::build({U"abc"});
  int64_t unknown = -1;
  EXPECT_EQ(v.encode(U"cab", &unknown), (std::vector<int32_t>{6, 4, 5}));
  EXPECT_EQ(unknown, 0);
  EXPECT_EQ(v.encode(U"", &unknown), std::vector<int32_t>{});
}

TEST(Vocabulary, EncodeCountsUnknownSymbols) {
  const Vocabulary v = Vocabulary::build({U"ab"});
  int64_t unknown = -1;
  EXPECT_EQ(v.encode(U"axby", &unknown), (std::vector<int32_t>{4, 3, 5, 3}));
  EXPECT_EQ(unknown, 2);
  EXPECT_EQ(v.encode(U"z", nullptr), (std::vector<int32_t>{Vocabulary::kUnkId}));
}

TEST(Vocabulary, DecodeJoinsSymbols) {
  const Vocabulary v = Vocabulary::build({U"\u0645\u06CC\u200C\u062E"});
  int64_t unknown = 0;
  std::vector<int32_t> ids = v.encode(U"\u0645\u06CC\u200C\u062E", &unknown);
  EXPECT_EQ(v.decode(ids), "می‌خ");
  ids.insert(ids.begin(), Vocabulary::kBosId);
  ids.push_back(Vocabulary::kEosId);
  EXPECT_EQ(v.decode(ids), "<bos>می‌خ<eos>");
}

TEST(Vocabulary, DecodeRejectsIdsOutOfRange) {
  const Vocabulary v = Vocabulary::build({U"a"});
  EXPECT_THROW(v.decode({5}), Error);
  EXPECT_THROW(v.decode({-1}), Error);
}

TEST(Vocabulary, FromSymbolsRestoresABuiltVocabulary) {
  const Vocabulary built = Vocabulary::build({U"h\u00E9llo \u0633"});
  const Vocabulary restored = Vocabulary::from_symbols(built.symbols());
  EXPECT_EQ(restored.symbols(), built.symbols());
  int64_t unknown = -1;
  EXPECT_EQ(restored.encode(U"\u00E9\u0633", &unknown), built.encode(U"\u00E9\u0633", nullptr));
  EXPECT_EQ(unknown, 0);
}

TEST(Vocabulary, FromSymbolsRejectsMalformedLists) {
  EXPECT_THROW(Vocabulary::from_symbols({"<pad>", "<bos>", "<eos>"}), Error);
  EXPECT_THROW(Vocabulary::from_symbols({"<pad>", "<eos>", "<bos>", "<unk>"}), Error);
  EXPECT_THROW(Vocabulary::from_symbols({"<pad>", "<bos>", "<eos>", "<unk>", "ab"}), Error);
  EXPECT_THROW(Vocabulary::from_symbols({"<pad>", "<bos>", "<eos>", "<unk>", ""}), Error);
  EXPECT_THROW(Vocabulary::from_symbols({"<pad>", "<bos>", "<eos>", "<unk>", "\xFF"}), Error);
  EXPECT_THROW(Vocabulary::from_symbols({"<pad>", "<bos>", "<eos>", "<unk>", "a", "b", "a"}),
               Error);
  EXPECT_NO_THROW(Vocabulary::from_symbols({"<pad>", "<bos>", "<eos>", "<unk>", "b", "a"}));
}

TEST(Vocabulary, FromInventoryKeepsFirstAppearanceOrder) {
  const Vocabulary v = Vocabulary::from_inventory("cbac \xD9\x85");
  EXPECT_EQ(v.symbols(),
            (Symbols{"<pad>", "<bos>", "<eos>", "<unk>", "c", "b", "a", " ", "\xD9\x85"}));
  int64_t unknown = -1;
  EXPECT_EQ(v.encode(U"abz", &unknown), (std::vector<int32_t>{6, 5, 3}));
  EXPECT_EQ(unknown, 1);
}

TEST(Vocabulary, FromInventoryRejectsBadInventories) {
  EXPECT_THROW(Vocabulary::from_inventory(""), Error);
  EXPECT_THROW(Vocabulary::from_inventory("ab\xC0\xAF"), Error);
}

}  // namespace
}  // namespace myxtts::text
