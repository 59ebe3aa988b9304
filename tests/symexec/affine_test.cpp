// Karr's affine-equality analysis (include/pasda/symexec/affine.hpp), the second source of
// coupling invariants for coupled loops: exact spaces, images, joins and fixpoints over the
// rationals, and the equalities read back from them.
#include "pasda/symexec/affine.hpp"

#include <gtest/gtest.h>

namespace pasda::symexec::affine {
namespace {

Vector vec(std::initializer_list<long> xs) {
  Vector v;
  for (long x : xs) v.emplace_back(x);
  return v;
}

Equality eq(std::initializer_list<long> a, long c) { return {vec(a), Rational(c)}; }

/// x' = a · x + c for every row (nullopt rows: any value).
Map map(std::vector<std::optional<std::pair<Vector, long>>> rows) {
  Map m;
  for (auto& r : rows) {
    if (!r) {
      m.rows.emplace_back(std::nullopt);
      continue;
    }
    m.rows.push_back(Map::Row{r->first, Rational(r->second)});
  }
  return m;
}

std::vector<std::string> described(const Space& s, const std::vector<std::string>& names) {
  std::vector<std::string> out;
  for (const Equality& e : s.equalities()) out.push_back(describe(e, names));
  return out;
}

TEST(Affine, SolutionsOfEqualitiesAndInconsistentOnes) {
  const Space s = Space::solutions(3, {eq({1, -1, 0}, 0), eq({0, 0, 1}, 3)});
  ASSERT_FALSE(s.empty());
  EXPECT_EQ(s.dimension(), 1u);
  EXPECT_TRUE(s.contains(vec({5, 5, 3})));
  EXPECT_TRUE(s.contains(vec({-7, -7, 3})));
  EXPECT_FALSE(s.contains(vec({1, 2, 3})));
  EXPECT_FALSE(s.contains(vec({1, 1, 4})));
  EXPECT_TRUE(Space::solutions(2, {eq({1, 0}, 1), eq({1, 0}, 2)}).empty());
  // No equality: the whole space, of which no equality holds.
  const Space all = Space::solutions(2, {});
  EXPECT_EQ(all.dimension(), 2u);
  EXPECT_TRUE(all.equalities().empty());
}

TEST(Affine, KarrFindsAScaledCounterRelation) {
  // k = 0, m = 0; each iteration k += 2, m += 1: exactly k - 2m == 0 holds.
  const Space entry = Space::solutions(2, {eq({1, 0}, 0), eq({0, 1}, 0)});
  const Space reach = closure(entry, {map({std::pair{vec({1, 0}), 2L}, std::pair{vec({0, 1}), 1L}})});
  EXPECT_EQ(reach.dimension(), 1u);
  EXPECT_EQ(described(reach, {"k", "m"}), std::vector<std::string>{"k - 2*m == 0"});
  EXPECT_TRUE(reach.contains(vec({6, 3})));
  EXPECT_FALSE(reach.contains(vec({6, 2})));
}

TEST(Affine, IterationsThatDisagreeLeaveNoRelation) {
  // m += 1 on one path and m += 2 on another, k += 2 on both: nothing relates k and m.
  const Space entry = Space::solutions(2, {eq({1, 0}, 0), eq({0, 1}, 0)});
  const Space reach = closure(entry, {map({std::pair{vec({1, 0}), 2L}, std::pair{vec({0, 1}), 1L}}),
                                      map({std::pair{vec({1, 0}), 2L}, std::pair{vec({0, 1}), 2L}})});
  EXPECT_EQ(reach.dimension(), 2u);
  EXPECT_TRUE(reach.equalities().empty());
}

TEST(Affine, AValueThatIsNotAffineSpansEverything) {
  // i += 1, j += 1 keep i - j == 0; t gets a non-affine value (t = i * i): t is free, i - j stays.
  const Space entry = Space::solutions(3, {eq({1, 0, 0}, 0), eq({0, 1, 0}, 0), eq({0, 0, 1}, 0)});
  const Space reach = closure(entry, {map({std::pair{vec({1, 0, 0}), 1L}, std::pair{vec({0, 1, 0}), 1L}, std::nullopt})});
  EXPECT_EQ(described(reach, {"i", "j", "t"}), std::vector<std::string>{"i - j == 0"});
  EXPECT_TRUE(reach.contains(vec({4, 4, 123})));
}

TEST(Affine, RationalRelationsAreScaledToCoprimeIntegers) {
  // x == y / 2 + 1  ->  2x - y == 2; and the empty space has no equalities.
  const Space line = Space::solutions(2, {{Vector{Rational(1), Rational(-1, 2)}, Rational(1)}});
  EXPECT_EQ(described(line, {"x", "y"}), std::vector<std::string>{"2*x - y == 2"});
  EXPECT_TRUE(Space(2).equalities().empty());
  // Joining a point outside grows the space by one dimension, a point inside does not.
  Space p = Space::solutions(2, {eq({1, 0}, 0), eq({0, 1}, 0)});
  EXPECT_TRUE(p.join(Space::solutions(2, {eq({1, 0}, 2), eq({0, 1}, 2)})));
  EXPECT_FALSE(p.join(Space::solutions(2, {eq({1, 0}, 5), eq({0, 1}, 5)})));
  EXPECT_EQ(described(p, {"x", "y"}), std::vector<std::string>{"x - y == 0"});
}

}  // namespace
}  // namespace pasda::symexec::affine
