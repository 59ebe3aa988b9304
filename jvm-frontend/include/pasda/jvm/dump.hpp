// Human- and machine-readable listings of a class's methods (used by `pasda-jvm --dump`).
#pragma once

#include <ostream>
#include <string>

#include "pasda/jvm/classfile.hpp"

namespace pasda::jvm {

/// Text listing: a line "class NAME", then per method a line "method NAME DESCRIPTOR" followed by
/// one line per instruction "PC: mnemonic operands" (javap -c mnemonics; control characters in
/// operands escaped). `file` names the input in errors. Throws FormatError on undecodable code.
void dumpText(const ClassFile& cf, const std::string& file, std::ostream& out);

/// JSON listing: {"class": ..., "methods": [{"name": ..., "descriptor": ..., "access": N,
/// "code": [{"pc": 0, "op": "iload_0", "local": 0, "line": 3}, ...]}, ...]}. Methods without code
/// have "code": null. Strings are valid JSON (non-ASCII as \u escapes).
void dumpJson(const ClassFile& cf, const std::string& file, std::ostream& out);

/// JSON string literal (with quotes) of a modified-UTF-8 string.
std::string jsonString(const std::string& modifiedUtf8);

}  // namespace pasda::jvm
