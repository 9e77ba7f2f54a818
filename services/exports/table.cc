#include "services/exports/table.h"

#include <algorithm>

namespace fleetcap::exports {
namespace {

bool Numeric(const std::string& cell) {
  return !cell.empty() && std::all_of(cell.begin(), cell.end(), [](char c) {
    return (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '+' || c == '%';
  });
}

}  // namespace

void Table::AddRow(std::vector<std::string> cells) {
  cells.resize(header_.size());
  rows_.push_back(std::move(cells));
}

std::string Table::Render() const {
  std::vector<size_t> width(header_.size());
  for (size_t i = 0; i < header_.size(); ++i) width[i] = header_[i].size();
  for (const auto& row : rows_) {
    for (size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], row[i].size());
  }
  auto line = [&](const std::vector<std::string>& cells, bool header) {
    std::string out;
    for (size_t i = 0; i < cells.size(); ++i) {
      const std::string pad(width[i] - cells[i].size(), ' ');
      if (i > 0) out += "  ";
      out += (!header && Numeric(cells[i])) || (header && i > 0) ? pad + cells[i] : cells[i] + pad;
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    return out + "\n";
  };
  std::string out = line(header_, true);
  for (const auto& row : rows_) out += line(row, false);
  return out;
}

}  // namespace fleetcap::exports
