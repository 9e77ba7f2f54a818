#pragma once
// Reading back the CSV that fleetcapctl prints and the API exports, for the
// tests that hold its rows to the API's answer: records as column -> value,
// and the exact decimals in them as integers.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"

namespace fleetcap::testing {

// The millionths of an exact decimal ("4.666667" -> 4666667, "14.00" ->
// 14000000): micro-units of money, millionths of a device-hour.
inline int64_t Millionths(const std::string& text) {
  std::vector<std::string> parts = absl::StrSplit(text, '.');
  std::string fraction = parts.size() > 1 ? parts[1] : "";
  fraction.resize(6, '0');
  int64_t whole = 0, part = 0;
  EXPECT_TRUE(absl::SimpleAtoi(parts[0], &whole) && absl::SimpleAtoi(fraction, &part)) << text;
  return whole * 1'000'000 + part;
}

// Rows of an RFC 4180 text whose fields need no quoting, as column -> value.
inline std::vector<std::map<std::string, std::string>> CsvRows(const std::string& csv) {
  std::vector<std::string> records = absl::StrSplit(csv, "\r\n", absl::SkipEmpty());
  std::vector<std::string> names = absl::StrSplit(records.at(0), ',');
  std::vector<std::map<std::string, std::string>> rows;
  for (size_t r = 1; r < records.size(); ++r) {
    std::vector<std::string> values = absl::StrSplit(records[r], ',');
    EXPECT_EQ(values.size(), names.size()) << records[r];
    std::map<std::string, std::string> row;
    for (size_t i = 0; i < names.size() && i < values.size(); ++i) row[names[i]] = values[i];
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace fleetcap::testing
