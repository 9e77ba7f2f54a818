#include "common/yaml_nesting.h"

#include <algorithm>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "absl/strings/str_cat.h"
#include "yaml-cpp/eventhandler.h"
#include "yaml-cpp/exceptions.h"
#include "yaml-cpp/mark.h"
#include "yaml-cpp/parser.h"

namespace fleetcap {
namespace {

// Thrown out of the parser to stop it where the document went wrong; the
// parser's own state is released by unwinding, like on its own errors.
struct StopYamlParse {
  NestingProblem problem;
};

// Counts open collections and the nodes aliases would add, from yaml-cpp's events.
class NestingCounter : public YAML::EventHandler {
 public:
  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t anchor) override { Leaf(anchor); }
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t anchor, const std::string&) override {
    Leaf(anchor);
  }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    auto it = nodes_of_anchor_.find(anchor);
    if (it == nodes_of_anchor_.end()) return;  // the parser itself refuses an unknown anchor
    if (it->second == kOpen) Stop(mark, "an alias refers to a node that contains it");
    aliased_nodes_ += it->second;
    if (aliased_nodes_ > kMaxYamlAliasedNodes) {
      Stop(mark, absl::StrCat("aliases repeat more than ", kMaxYamlAliasedNodes, " nodes"));
    }
    Add(it->second);
  }
  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    Open(mark, anchor);
  }
  void OnSequenceEnd() override { Close(); }
  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value) override {
    Open(mark, anchor);
  }
  void OnMapEnd() override { Close(); }

 private:
  static constexpr uint64_t kOpen = UINT64_MAX;

  struct Level {
    YAML::anchor_t anchor;
    uint64_t nodes;  // this collection and everything in it so far, aliases expanded
  };

  [[noreturn]] static void Stop(const YAML::Mark& mark, std::string message) {
    throw StopYamlParse{NestingProblem{mark.line + 1, mark.column + 1, std::move(message)}};
  }

  void Open(const YAML::Mark& mark, YAML::anchor_t anchor) {
    // Before the parser descends into this level, so it never recurses past the limit.
    if (static_cast<int>(open_.size()) >= kMaxNestingDepth) {
      Stop(mark, absl::StrCat("nested deeper than ", kMaxNestingDepth, " levels"));
    }
    if (anchor != YAML::NullAnchor) nodes_of_anchor_[anchor] = kOpen;
    open_.push_back({anchor, 1});
  }

  void Close() {
    const Level closed = open_.back();
    open_.pop_back();
    if (closed.anchor != YAML::NullAnchor) nodes_of_anchor_[closed.anchor] = closed.nodes;
    Add(closed.nodes);
  }

  void Leaf(YAML::anchor_t anchor) {
    if (anchor != YAML::NullAnchor) nodes_of_anchor_[anchor] = 1;
    Add(1);
  }

  // Sizes are bounded by kMaxYamlAliasedNodes plus the nodes written, so they cannot overflow.
  void Add(uint64_t nodes) {
    if (!open_.empty()) open_.back().nodes += nodes;
  }

  std::vector<Level> open_;
  std::unordered_map<YAML::anchor_t, uint64_t> nodes_of_anchor_;
  uint64_t aliased_nodes_ = 0;
};

}  // namespace

std::optional<NestingProblem> CheckYamlNesting(absl::string_view text) {
  std::istringstream in{std::string(text)};
  NestingCounter counter;
  try {
    YAML::Parser parser(in);
    parser.HandleNextDocument(counter);
  } catch (const StopYamlParse& stop) {
    return stop.problem;
  } catch (const YAML::Exception&) {
    // Not valid YAML: no deeper than the limit as far as it goes; the load reports the error.
  }
  return std::nullopt;
}

}  // namespace fleetcap
