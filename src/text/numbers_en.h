#pragma once
// Spells out digit runs as English words so the model never has to learn how to read digits.
#include <string>
#include <string_view>

namespace myxtts::text {

// "42" -> "forty two", "1,000" -> "one thousand", "3.14" -> "three point one four",
// "21st" -> "twenty first", "1990s" -> "nineteen nineties". Plain four-digit numbers from 1100
// to 2099 (except 2000-2009) read as years ("1990" -> "nineteen ninety"); numbers written with
// thousands separators always read as quantities. Runs longer than 12 digits, and runs with a
// leading zero ("007"), read digit by digit. Words are lower-case and separated by spaces.
std::u32string expand_numbers_en(std::u32string_view text);

}  // namespace myxtts::text
