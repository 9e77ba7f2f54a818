#include "services/api/query_message.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "common/status_macros.h"
#include "google/protobuf/reflection.h"
#include "google/protobuf/timestamp.pb.h"
#include "services/api/edge_text.h"
#include "services/api/request_time.h"

namespace fleetcap::api {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::EnumDescriptor;
using google::protobuf::EnumValueDescriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;

bool IsTimestamp(const FieldDescriptor& field) {
  return field.cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE &&
         field.message_type()->full_name() == google::protobuf::Timestamp::descriptor()->full_name();
}

// A field a query parameter can set: a scalar, an enum, a string or a Timestamp, alone or repeated.
bool Settable(const FieldDescriptor& field) {
  return field.cpp_type() != FieldDescriptor::CPPTYPE_MESSAGE || IsTimestamp(field);
}

// "CapacitySeriesLayout" as "CAPACITY_SERIES_LAYOUT_", the prefix its values may carry.
std::string EnumPrefix(const EnumDescriptor& type) {
  std::string prefix;
  for (size_t i = 0; i < type.name().size(); ++i) {
    const char c = type.name()[i];
    if (i > 0 && absl::ascii_isupper(static_cast<unsigned char>(c))) prefix += '_';
    prefix += absl::ascii_toupper(static_cast<unsigned char>(c));
  }
  return prefix + "_";
}

// The name a query gives `value`: lower case, without the enum's prefix.
std::string ShortName(const EnumValueDescriptor& value) {
  absl::string_view name = value.name();
  const std::string prefix = EnumPrefix(*value.type());
  if (name.size() > prefix.size() && absl::StartsWith(name, prefix)) name.remove_prefix(prefix.size());
  return absl::AsciiStrToLower(name);
}

// The values a query may name: all but an UNSPECIFIED zero.
std::vector<const EnumValueDescriptor*> NamedValues(const EnumDescriptor& type) {
  std::vector<const EnumValueDescriptor*> values;
  for (int i = 0; i < type.value_count(); ++i) {
    const EnumValueDescriptor* value = type.value(i);
    if (value->number() == 0 && absl::EndsWith(value->name(), "UNSPECIFIED")) continue;
    values.push_back(value);
  }
  return values;
}

// "a, b or c".
std::string Alternatives(const std::vector<std::string>& names) {
  if (names.size() <= 1) return absl::StrJoin(names, "");
  return absl::StrCat(absl::StrJoin(names.begin(), names.end() - 1, ", "), " or ", names.back());
}

absl::StatusOr<int> EnumValue(const FieldDescriptor& field, absl::string_view text) {
  const std::string lower = absl::AsciiStrToLower(text);
  std::vector<std::string> names;
  for (const EnumValueDescriptor* value : NamedValues(*field.enum_type())) {
    const std::string name = ShortName(*value);
    if (name == lower) return value->number();
    names.push_back(name);
  }
  // A long value is not echoed.
  if (text.size() > 32) {
    return absl::InvalidArgumentError(
        absl::StrCat(field.name(), ": ", text.size(), " bytes; give ", Alternatives(names)));
  }
  return absl::InvalidArgumentError(absl::StrCat(field.name(), ": \"", text, "\" is not ", Alternatives(names)));
}

template <typename Int>
absl::StatusOr<Int> IntValue(const FieldDescriptor& field, absl::string_view text) {
  using Wide = std::conditional_t<std::is_signed_v<Int>, int64_t, uint64_t>;
  Wide value = 0;
  if (!absl::SimpleAtoi(text, &value)) {
    // A negative number for an unsigned field is out of range, not malformed.
    int64_t negative = 0;
    if (std::is_unsigned_v<Int> && absl::SimpleAtoi(text, &negative) && negative < 0) {
      return absl::InvalidArgumentError(absl::StrCat("query parameter ", field.name(), ": ", negative,
                                                     " is outside 0..", std::numeric_limits<Int>::max()));
    }
    return absl::InvalidArgumentError(absl::StrCat("query parameter ", field.name(), ": expected a whole number"));
  }
  if (value < std::numeric_limits<Int>::min() || value > std::numeric_limits<Int>::max()) {
    return absl::InvalidArgumentError(absl::StrCat("query parameter ", field.name(), ": ", value, " is outside ",
                                                   std::numeric_limits<Int>::min(), "..",
                                                   std::numeric_limits<Int>::max()));
  }
  return static_cast<Int>(value);
}

absl::StatusOr<bool> BoolValue(const FieldDescriptor& field, absl::string_view text) {
  const std::string lower = absl::AsciiStrToLower(text);
  if (lower == "true" || lower == "1") return true;
  if (lower == "false" || lower == "0") return false;
  return absl::InvalidArgumentError(absl::StrCat(field.name(), ": \"", text.substr(0, 64), "\" is not true or false"));
}

absl::StatusOr<double> DoubleValue(const FieldDescriptor& field, absl::string_view text) {
  double value = 0;
  if (!absl::SimpleAtod(text, &value) || !std::isfinite(value)) {
    return absl::InvalidArgumentError(absl::StrCat(field.name(), ": \"", text.substr(0, 64), "\" is not a number"));
  }
  return value;
}

// Sets `field` (or adds to it, when repeated) from one value.
absl::Status SetValue(const FieldDescriptor& field, absl::string_view text, Message* message) {
  const Reflection& r = *message->GetReflection();
  const bool repeated = field.is_repeated();
  switch (field.cpp_type()) {
    case FieldDescriptor::CPPTYPE_STRING:
      repeated ? r.AddString(message, &field, std::string(text)) : r.SetString(message, &field, std::string(text));
      return absl::OkStatus();
    case FieldDescriptor::CPPTYPE_BOOL: {
      FLEETCAP_ASSIGN_OR_RETURN(const bool value, BoolValue(field, text));
      repeated ? r.AddBool(message, &field, value) : r.SetBool(message, &field, value);
      return absl::OkStatus();
    }
    case FieldDescriptor::CPPTYPE_INT32: {
      FLEETCAP_ASSIGN_OR_RETURN(const int32_t value, IntValue<int32_t>(field, text));
      repeated ? r.AddInt32(message, &field, value) : r.SetInt32(message, &field, value);
      return absl::OkStatus();
    }
    case FieldDescriptor::CPPTYPE_INT64: {
      FLEETCAP_ASSIGN_OR_RETURN(const int64_t value, IntValue<int64_t>(field, text));
      repeated ? r.AddInt64(message, &field, value) : r.SetInt64(message, &field, value);
      return absl::OkStatus();
    }
    case FieldDescriptor::CPPTYPE_UINT32: {
      FLEETCAP_ASSIGN_OR_RETURN(const uint32_t value, IntValue<uint32_t>(field, text));
      repeated ? r.AddUInt32(message, &field, value) : r.SetUInt32(message, &field, value);
      return absl::OkStatus();
    }
    case FieldDescriptor::CPPTYPE_UINT64: {
      FLEETCAP_ASSIGN_OR_RETURN(const uint64_t value, IntValue<uint64_t>(field, text));
      repeated ? r.AddUInt64(message, &field, value) : r.SetUInt64(message, &field, value);
      return absl::OkStatus();
    }
    case FieldDescriptor::CPPTYPE_DOUBLE:
    case FieldDescriptor::CPPTYPE_FLOAT: {
      FLEETCAP_ASSIGN_OR_RETURN(const double value, DoubleValue(field, text));
      if (field.cpp_type() == FieldDescriptor::CPPTYPE_FLOAT) {
        const auto narrow = static_cast<float>(value);
        repeated ? r.AddFloat(message, &field, narrow) : r.SetFloat(message, &field, narrow);
      } else {
        repeated ? r.AddDouble(message, &field, value) : r.SetDouble(message, &field, value);
      }
      return absl::OkStatus();
    }
    case FieldDescriptor::CPPTYPE_ENUM: {
      if (text.empty() && !repeated) return absl::OkStatus();  // unset: the route's default
      FLEETCAP_ASSIGN_OR_RETURN(const int value, EnumValue(field, text));
      repeated ? r.AddEnumValue(message, &field, value) : r.SetEnumValue(message, &field, value);
      return absl::OkStatus();
    }
    case FieldDescriptor::CPPTYPE_MESSAGE: {
      FLEETCAP_ASSIGN_OR_RETURN(const auto time, ParseRequestTime(field.name(), text));
      Message* target = repeated ? r.AddMessage(message, &field) : r.MutableMessage(message, &field);
      target->CopyFrom(time);
      return absl::OkStatus();
    }
  }
  return absl::InternalError(absl::StrCat(field.name(), ": a field no query parameter can set"));
}

absl::Status SetField(const FieldDescriptor& field, const std::string& text, Message* message) {
  if (!field.is_repeated()) {
    FLEETCAP_RETURN_IF_ERROR(CheckEdgeText(field.name(), text));
    return SetValue(field, text, message);
  }
  // Each value as it is set: the blanks around the commas are not part of it.
  for (absl::string_view item : absl::StrSplit(text, ',', absl::SkipWhitespace())) {
    const absl::string_view value = absl::StripAsciiWhitespace(item);
    FLEETCAP_RETURN_IF_ERROR(CheckEdgeText(field.name(), value));
    FLEETCAP_RETURN_IF_ERROR(SetValue(field, value, message));
  }
  return absl::OkStatus();
}

}  // namespace

std::vector<std::string> QueryParameters(const Descriptor& descriptor) {
  std::vector<std::string> names;
  for (int i = 0; i < descriptor.field_count(); ++i) {
    if (Settable(*descriptor.field(i))) names.push_back(descriptor.field(i)->name());
  }
  return names;
}

std::set<std::string> QueryListParameters(const Descriptor& descriptor) {
  std::set<std::string> names;
  for (int i = 0; i < descriptor.field_count(); ++i) {
    const FieldDescriptor& field = *descriptor.field(i);
    if (field.is_repeated() && Settable(field)) names.insert(field.name());
  }
  return names;
}

absl::Status QueryToMessage(const HttpQuery& query, Message* message, const QueryMapping& mapping) {
  const Descriptor& descriptor = *message->GetDescriptor();
  auto route_field = [&](const std::string& name) {
    return std::find(mapping.route_fields.begin(), mapping.route_fields.end(), name) != mapping.route_fields.end();
  };
  std::vector<std::string> known = QueryParameters(descriptor);
  known.erase(std::remove_if(known.begin(), known.end(), route_field), known.end());
  known.insert(known.end(), mapping.explicit_parameters.begin(), mapping.explicit_parameters.end());
  for (const auto& entry : query) {
    if (std::find(known.begin(), known.end(), entry.first) == known.end()) {
      return absl::InvalidArgumentError(
          absl::StrCat("query parameter ", entry.first, ": unknown; expected one of ", absl::StrJoin(known, ", ")));
    }
  }
  for (int i = 0; i < descriptor.field_count(); ++i) {
    const FieldDescriptor& field = *descriptor.field(i);
    if (!Settable(field) || route_field(field.name())) continue;
    const std::string* text = QueryValue(query, field.name());
    const bool required =
        std::find(mapping.required.begin(), mapping.required.end(), field.name()) != mapping.required.end();
    if (required && (text == nullptr || text->empty())) {
      return absl::InvalidArgumentError(
          absl::StrCat(field.name(), ": missing", IsTimestamp(field) ? "; give an RFC 3339 time" : ""));
    }
    if (text == nullptr) continue;
    FLEETCAP_RETURN_IF_ERROR(SetField(field, *text, message));
  }
  return absl::OkStatus();
}

}  // namespace fleetcap::api
