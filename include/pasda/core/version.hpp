// The two versions of a program that every stage compares, named once. A stage never numbers
// them itself (0/1, 1/2): it indexes by `Version` and stores per-version data in a
// `PerVersion`, so "the old one" means the same thing from the bytecode matcher to the report.
#pragma once

#include <array>
#include <cstddef>
#include <string_view>

namespace pasda {

enum class Version : unsigned char { kOld = 0, kNew = 1 };

/// Both versions, old first (the order every table and report uses).
inline constexpr std::array<Version, 2> kBothVersions{Version::kOld, Version::kNew};

constexpr Version otherVersion(Version v) { return v == Version::kOld ? Version::kNew : Version::kOld; }
/// "old" / "new", as the text, JSON and database outputs spell it.
constexpr std::string_view versionName(Version v) { return v == Version::kOld ? "old" : "new"; }

/// One value per version, indexed by `Version` (never by a number).
template <class T>
struct PerVersion {
  std::array<T, 2> values{};

  constexpr T& operator[](Version v) { return values[static_cast<std::size_t>(v)]; }
  constexpr const T& operator[](Version v) const { return values[static_cast<std::size_t>(v)]; }
  friend constexpr bool operator==(const PerVersion&, const PerVersion&) = default;
};

}  // namespace pasda
