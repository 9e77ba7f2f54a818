#include "services/exports/kubernetes_names.h"

#include <cctype>
#include <regex>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace fleetcap::exports {

std::string DnsLabel(const std::string& name) {
  std::string out;
  out.reserve(name.size());
  for (char c : name) {
    unsigned char u = static_cast<unsigned char>(c);
    out.push_back(std::isalnum(u) ? static_cast<char>(std::tolower(u)) : '-');
  }
  size_t begin = out.find_first_not_of('-');
  if (begin == std::string::npos) return "";
  size_t end = out.find_last_not_of('-');
  out = out.substr(begin, end - begin + 1);
  if (out.size() > 63) out.resize(63);
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out;
}

absl::StatusOr<std::string> DnsNames::Claim(const std::string& source) {
  std::string label = DnsLabel(source);
  if (label.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(kind_, " ", source, ": the name has no letter or digit to make a Kubernetes name from"));
  }
  auto [it, inserted] = owner_.emplace(label, source);
  if (!inserted && it->second != source) {
    return absl::InvalidArgumentError(absl::StrCat(kind_, " ", source, " would be named ", label, ", as is ",
                                                   it->second,
                                                   " (Kubernetes names are lower case, letters, digits "
                                                   "and '-'); rename one of them in the policy"));
  }
  return label;
}

void DnsNames::Reserve(const std::string& label, const std::string& why) { owner_.emplace(label, why); }

std::string KubernetesQuantity(int64_t milli) {
  if (milli % 1000 == 0) return absl::StrCat(milli / 1000);
  return absl::StrCat(milli, "m");
}

namespace {

// A qualified resource name: a DNS subdomain prefix, '/', and a name part of
// at most 63 characters (Kubernetes' rule for extended resources).
bool IsExtendedResourceName(const std::string& name) {
  static const std::regex kPattern(
      "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?");
  size_t slash = name.find('/');
  if (slash == std::string::npos || slash > 253 || name.size() - slash - 1 > 63) return false;
  return std::regex_match(name, kPattern) && !absl::EndsWith(name.substr(0, slash), "kubernetes.io");
}

bool IsAmdModel(const std::string& lower_model) {
  if (absl::StrContains(lower_model, "amd") || absl::StrContains(lower_model, "instinct") ||
      absl::StrContains(lower_model, "radeon")) {
    return true;
  }
  // Instinct accelerators are named MI<digits> (MI250X, MI300X).
  return lower_model.size() > 2 && lower_model[0] == 'm' && lower_model[1] == 'i' &&
         std::isdigit(static_cast<unsigned char>(lower_model[2]));
}

}  // namespace

absl::StatusOr<std::string> AcceleratorResource(const policy::Flavor& flavor,
                                                const std::map<std::string, std::string>& overrides) {
  auto it = overrides.find(flavor.name);
  if (it != overrides.end()) {
    if (!IsExtendedResourceName(it->second)) {
      return absl::InvalidArgumentError(absl::StrCat("flavor ", flavor.name, ": resource \"", it->second,
                                                     "\" is not an extended resource name (expected e.g. "
                                                     "nvidia.com/gpu)"));
    }
    return it->second;
  }
  std::string model = absl::AsciiStrToLower(flavor.model);
  if (absl::StartsWith(model, "tpu")) return std::string("google.com/tpu");
  if (IsAmdModel(model)) return std::string("amd.com/gpu");
  return std::string("nvidia.com/gpu");
}

}  // namespace fleetcap::exports
