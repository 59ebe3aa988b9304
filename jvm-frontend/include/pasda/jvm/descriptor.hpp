// Field and method descriptors.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace pasda::jvm {

/// One field type of a descriptor: 'B','C','D','F','I','J','S','Z','V', 'L' (class) or '[' (array).
struct TypeDesc {
  char kind = 'V';
  std::string text;  // the full descriptor text of this type, e.g. "I", "Ljava/lang/String;", "[D"
  std::string className() const;  // for 'L': the internal name
  std::string elementDescriptor() const;  // for '[': the element's descriptor
  int slots() const { return (kind == 'J' || kind == 'D') ? 2 : (kind == 'V' ? 0 : 1); }
  std::string javaName() const;  // "int", "double[]", "java.lang.String"
};

struct MethodDesc {
  std::vector<TypeDesc> params;
  TypeDesc ret;
  int paramSlots() const;
};

/// Throw std::invalid_argument on a malformed descriptor.
TypeDesc parseFieldDescriptor(std::string_view d);
MethodDesc parseMethodDescriptor(std::string_view d);

}  // namespace pasda::jvm
