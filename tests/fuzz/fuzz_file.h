#pragma once
// For fuzz targets whose reader takes a path: the input written to a file of
// this process's own (created once, rewritten for every input).

#include <cstddef>
#include <cstdint>
#include <string>

namespace fleetcap::fuzz {

// Writes `data` to the file named `name` in this process's directory under
// the system temp directory and returns its path; aborts when it cannot.
std::string WriteInputFile(const std::string& name, const uint8_t* data, size_t size);

}  // namespace fleetcap::fuzz
