#pragma once
// A small CSV file read whole and addressed by column name, with errors that
// point at `path:line: column`. The openb lists are under a megabyte and never
// quote a field, so a plain comma split is enough; a quote is rejected rather
// than misread.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace fleetcap::openb {

class CsvFile {
 public:
  struct Row {
    int line = 0;  // 1-based line in the file; the header is line 1
    std::vector<std::string> fields;
  };

  // NotFound naming `path` when it does not exist; InvalidArgument when it has
  // no header, a row has the wrong number of fields, or a field is quoted.
  static absl::StatusOr<CsvFile> Read(const std::string& path);

  // The position of each named column, in the order asked; InvalidArgument
  // listing every missing one, so a wrong file is diagnosed in one go.
  absl::StatusOr<std::vector<size_t>> Columns(absl::Span<const absl::string_view> names) const;

  const std::string& path() const { return path_; }
  const std::vector<Row>& rows() const { return rows_; }

  // The error for one field: `<path>:<line>: <column>: <what>`.
  absl::Status FieldError(const Row& row, size_t column, absl::string_view what) const;

  // The field as an integer in [min, max]; an empty field is not an integer.
  absl::StatusOr<int64_t> Int(const Row& row, size_t column, int64_t min, int64_t max) const;
  // As Int, but an empty field is absent rather than an error.
  absl::StatusOr<std::optional<int64_t>> OptionalInt(const Row& row, size_t column, int64_t min, int64_t max) const;

 private:
  CsvFile() = default;

  std::string path_;
  std::vector<std::string> header_;
  std::vector<Row> rows_;
};

}  // namespace fleetcap::openb
