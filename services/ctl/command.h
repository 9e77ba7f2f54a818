#pragma once
// A fleetcapctl command: the words that name it ("fleet summary"), a line of
// help, and what runs it on the remaining arguments (its flags and the
// client flags), returning the exit code.

#include <functional>
#include <string>
#include <vector>

namespace fleetcap::ctl {

struct Command {
  std::vector<std::string> words;
  std::string help;
  std::function<int(const std::vector<std::string>& args)> run;
};

}  // namespace fleetcap::ctl
