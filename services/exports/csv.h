#pragma once
// CSV records as RFC 4180 writes them: fields separated by commas, a field
// that holds a comma, a double quote, CR or LF enclosed in double quotes
// (its quotes doubled), each record ended by CRLF.

#include <string>
#include <vector>

namespace fleetcap::exports {

std::string CsvField(const std::string& text);

std::string CsvRecord(const std::vector<std::string>& fields);

}  // namespace fleetcap::exports
