#pragma once
// Plain-text tables for people: a header row, aligned columns, numbers
// right-aligned.

#include <string>
#include <vector>

namespace fleetcap::exports {

class Table {
 public:
  explicit Table(std::vector<std::string> header) : header_(std::move(header)) {}
  // A row with as many cells as the header; numeric-looking cells align right.
  void AddRow(std::vector<std::string> cells);
  std::string Render() const;

 private:
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace fleetcap::exports
