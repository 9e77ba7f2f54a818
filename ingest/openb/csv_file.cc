#include "ingest/openb/csv_file.h"

#include <charconv>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "common/file_read.h"
#include "common/status_macros.h"

namespace fleetcap::openb {
namespace {

// A trace's CSV is read whole; the published openb files are a few MB.
constexpr size_t kMaxCsvFileBytes = 256 * 1024 * 1024;

std::vector<std::string> SplitFields(absl::string_view line) { return absl::StrSplit(line, ','); }

std::string Quoted(absl::string_view text) { return absl::StrCat("\"", text, "\""); }

}  // namespace

absl::StatusOr<CsvFile> CsvFile::Read(const std::string& path) {
  // NOT_FOUND when the file is not there, which callers may treat as "no
  // data here"; UNAVAILABLE when it is there and cannot be read.
  FLEETCAP_ASSIGN_OR_RETURN(std::string text, ReadWholeFile("trace file", path, kMaxCsvFileBytes));

  CsvFile csv;
  csv.path_ = path;
  std::vector<absl::string_view> lines = absl::StrSplit(text, '\n');
  bool have_header = false;
  for (size_t i = 0; i < lines.size(); ++i) {
    absl::string_view line = lines[i];
    const int line_number = static_cast<int>(i + 1);
    // Files saved on Windows end lines with CRLF; the CR is not data.
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (!have_header) {
      // Spreadsheet exports may start with a UTF-8 byte order mark.
      constexpr absl::string_view kBom = "\xEF\xBB\xBF";
      if (line.substr(0, kBom.size()) == kBom) line.remove_prefix(kBom.size());
    }
    if (line.empty()) continue;  // the trailing newline, or a stray blank line
    if (line.find('"') != absl::string_view::npos) {
      return absl::InvalidArgumentError(absl::StrCat(path, ":", line_number, ": quoted fields are not supported"));
    }
    std::vector<std::string> fields = SplitFields(line);
    if (!have_header) {
      absl::flat_hash_map<absl::string_view, size_t> seen;
      for (size_t c = 0; c < fields.size(); ++c) {
        if (!seen.emplace(fields[c], c).second) {
          return absl::InvalidArgumentError(
              absl::StrCat(path, ":", line_number, ": column ", Quoted(fields[c]), " appears twice"));
        }
      }
      csv.header_ = std::move(fields);
      have_header = true;
      continue;
    }
    if (fields.size() != csv.header_.size()) {
      return absl::InvalidArgumentError(
          absl::StrCat(path, ":", line_number, ": expected ", csv.header_.size(), " fields, found ", fields.size()));
    }
    csv.rows_.push_back(Row{line_number, std::move(fields)});
  }
  if (!have_header) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": empty file, expected a header line"));
  }
  return csv;
}

absl::StatusOr<std::vector<size_t>> CsvFile::Columns(absl::Span<const absl::string_view> names) const {
  std::vector<size_t> positions;
  std::vector<absl::string_view> missing;
  for (absl::string_view name : names) {
    size_t c = 0;
    while (c < header_.size() && header_[c] != name) ++c;
    if (c == header_.size()) missing.push_back(name);
    positions.push_back(c);
  }
  if (!missing.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(path_, ":1: missing column", missing.size() > 1 ? "s " : " ",
                                                   absl::StrJoin(missing, ", "),
                                                   " (header: ", absl::StrJoin(header_, ","), ")"));
  }
  return positions;
}

absl::Status CsvFile::FieldError(const Row& row, size_t column, absl::string_view what) const {
  return absl::InvalidArgumentError(absl::StrCat(path_, ":", row.line, ": ", header_[column], ": ", what));
}

absl::StatusOr<int64_t> CsvFile::Int(const Row& row, size_t column, int64_t min, int64_t max) const {
  const std::string& text = row.fields[column];
  int64_t value = 0;
  // from_chars, unlike strtoll or SimpleAtoi, takes no sign or spaces, so
  // "+5" and " 5" are reported instead of silently accepted.
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec == std::errc::result_out_of_range && ptr == end) {
    return FieldError(row, column, absl::StrCat(Quoted(text), " is out of range"));
  }
  if (ec != std::errc() || ptr != end || text.empty()) {
    return FieldError(row, column, absl::StrCat(Quoted(text), " is not an integer"));
  }
  if (value < min || value > max) {
    return FieldError(row, column, absl::StrCat(value, " is outside the allowed range ", min, "..", max));
  }
  return value;
}

absl::StatusOr<std::optional<int64_t>> CsvFile::OptionalInt(const Row& row, size_t column, int64_t min,
                                                            int64_t max) const {
  if (row.fields[column].empty()) return std::optional<int64_t>();
  FLEETCAP_ASSIGN_OR_RETURN(int64_t value, Int(row, column, min, max));
  return std::optional<int64_t>(value);
}

}  // namespace fleetcap::openb
