// Opcode families over primitives in both arithmetic models: arithmetic, integer division
// (ArithmeticException as a branch), shifts, conversions, comparisons (NaN, fcmpl/fcmpg,
// dcmpl/dcmpg), switches and operand-stack operations on category-2 values.
#include <cmath>
#include <limits>

#include "symexec/support.hpp"

namespace symtest {
namespace {

using Point = std::unordered_map<Term, Term, pasda::terms::TermHash>;

class ArithOps : public BothModels {
 protected:
  Harness h{GetParam()};
  TermManager& tm = h.tm();

  /// The single returning partition of `e` (fails if there is not exactly one).
  const RawPartition& onlyReturn(const Explored& e) {
    static RawPartition none;
    EXPECT_EQ(e.parts.size(), 1u);
    if (e.parts.empty()) return none;
    EXPECT_EQ(e.parts[0].entry.kind, ExecEffect::Kind::Return);
    return e.parts[0];
  }
  /// Value of a partition's returned term at a point, folded to a literal.
  Term valueAt(const RawPartition& p, const Point& pt) { return h.at(p.entry.value, pt); }
};

TEST_P(ArithOps, AddIsOnePartitionWithTheSum) {
  Explored e = h.explore("Ops", "iadd", "(II)I");
  const RawPartition& p = onlyReturn(e);
  Term a = h.var(e, "a"), b = h.var(e, "b");
  EXPECT_TRUE(h.alwaysEqual(h.pc(p), p.entry.value, tm.add(b, a)));
  EXPECT_TRUE(h.equivalent(h.pc(p), tm.boolLit(true)));
}

TEST_P(ArithOps, IntegerDivisionByZeroIsABranch) {
  for (const char* op : {"idiv", "irem"}) {
    SCOPED_TRACE(op);
    Explored e = h.explore("Ops", op, "(II)I");
    ASSERT_EQ(e.parts.size(), 2u);
    Term a = h.var(e, "a"), b = h.var(e, "b");
    ASSERT_EQ(countThrow(e, "java/lang/ArithmeticException"), 1u);
    for (const RawPartition& p : e.parts) {
      if (p.entry.kind == ExecEffect::Kind::Throw) {
        EXPECT_TRUE(h.equivalent(h.pc(p), tm.eq(b, tm.intLit(0))));
      } else {
        EXPECT_TRUE(h.equivalent(h.pc(p), tm.ne(b, tm.intLit(0))));
        // Truncation toward zero in both models: -7 / 2 = -3, -7 % 2 = -1.
        Term v = valueAt(p, {{a, tm.intLit(-7)}, {b, tm.intLit(2)}});
        EXPECT_EQ(tm.asInteger(v), std::string(op) == "idiv" ? -3 : -1);
        Term w = valueAt(p, {{a, tm.intLit(7)}, {b, tm.intLit(-2)}});
        EXPECT_EQ(tm.asInteger(w), std::string(op) == "idiv" ? -3 : 1);
      }
    }
  }
}

TEST_P(ArithOps, LongDivisionByZeroIsABranch) {
  Explored e = h.explore("Ops", "ldiv", "(JJ)J");
  ASSERT_EQ(e.parts.size(), 2u);
  Term b = h.var(e, "b");
  for (const RawPartition& p : e.parts) {
    if (p.entry.kind == ExecEffect::Kind::Throw) {
      EXPECT_EQ(p.entry.exception, "java/lang/ArithmeticException");
      EXPECT_TRUE(h.equivalent(h.pc(p), tm.eq(b, tm.longLit(0))));
    }
  }
  Explored r = h.explore("Ops", "lrem", "(JJ)J");
  EXPECT_EQ(r.parts.size(), 2u);
  EXPECT_EQ(countThrow(r, "java/lang/ArithmeticException"), 1u);
}

TEST_P(ArithOps, FloatingDivisionNeverThrows) {
  for (const char* op : {"ddiv", "drem", "dops"}) {
    SCOPED_TRACE(op);
    Explored e = h.explore("Ops", op, "(DD)D");
    const RawPartition& p = onlyReturn(e);
    EXPECT_EQ(tm.sort(p.entry.value), Sort::Double);
  }
  Explored f = h.explore("Ops", "fops", "(FF)F");
  EXPECT_EQ(tm.sort(onlyReturn(f).entry.value), Sort::Float);
}

TEST_P(ArithOps, DoubleArithmeticValues) {
  Explored e = h.explore("Ops", "dops", "(DD)D");
  const RawPartition& p = onlyReturn(e);
  Term a = h.var(e, "a"), b = h.var(e, "b");
  // (3 + 0.5) * (3 - 0.5) / (0.5 + 1.5) = 4.375
  EXPECT_TRUE(h.returnsAt(p, {{a, tm.doubleLit(3)}, {b, tm.doubleLit(0.5)}}, tm.doubleLit(4.375)));
  Explored r = h.explore("Ops", "drem", "(DD)D");
  Term ra = h.var(r, "a"), rb = h.var(r, "b");
  // Java's % on doubles truncates (fmod): -7.5 % 2 = -1.5
  EXPECT_TRUE(h.returnsAt(onlyReturn(r), {{ra, tm.doubleLit(-7.5)}, {rb, tm.doubleLit(2)}}, tm.doubleLit(-1.5)));
}

TEST_P(ArithOps, ConversionsTruncateTowardZero) {
  Explored e = h.explore("Ops", "d2i", "(D)I");
  const RawPartition& p = onlyReturn(e);
  Term d = h.var(e, "d");
  EXPECT_EQ(tm.asInteger(valueAt(p, {{d, tm.doubleLit(-2.7)}})), -2);
  EXPECT_EQ(tm.asInteger(valueAt(p, {{d, tm.doubleLit(2.7)}})), 2);
  Explored l = h.explore("Ops", "d2l", "(D)J");
  EXPECT_EQ(tm.asInteger(valueAt(onlyReturn(l), {{h.var(l, "d"), tm.doubleLit(-1e12 - 0.5)}})), -1000000000000LL);
  Explored i = h.explore("Ops", "i2d", "(I)D");
  EXPECT_TRUE(h.returnsAt(onlyReturn(i), {{h.var(i, "i"), tm.intLit(-5)}}, tm.doubleLit(-5.0)));
}

TEST_P(ArithOps, ComparisonsGiveComplementaryPartitions) {
  struct Case { const char* name; const char* desc; Term (TermManager::*rel)(Term, Term); };
  const Case cases[] = {{"dLess", "(DD)I", &TermManager::lt},     {"dGreater", "(DD)I", &TermManager::gt},
                        {"dLessEq", "(DD)I", &TermManager::le},   {"dEq", "(DD)I", &TermManager::eq},
                        {"fLess", "(FF)I", &TermManager::lt},     {"fGreater", "(FF)I", &TermManager::gt}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    Explored e = h.explore("Ops", c.name, c.desc);
    ASSERT_EQ(e.parts.size(), 2u);
    Term a = h.var(e, "a"), b = h.var(e, "b");
    Term rel = (tm.*c.rel)(a, b);
    for (const RawPartition& p : e.parts) {
      auto v = tm.asInteger(p.entry.value);
      ASSERT_TRUE(v.has_value());
      // The "1" partition is exactly the IEEE relation (false on NaN in the Java model).
      EXPECT_TRUE(h.equivalent(h.pc(p), *v == 1 ? rel : tm.lnot(rel)));
    }
  }
}

TEST_P(ArithOps, LongCompareThreeWays) {
  Explored e = h.explore("Ops", "lcmp3", "(JJ)I");
  ASSERT_EQ(e.parts.size(), 3u);
  Term a = h.var(e, "a"), b = h.var(e, "b");
  for (const RawPartition& p : e.parts) {
    auto v = tm.asInteger(p.entry.value);
    ASSERT_TRUE(v);
    Term expect = *v < 0 ? tm.lt(a, b) : *v == 0 ? tm.eq(a, b) : tm.gt(a, b);
    EXPECT_TRUE(h.equivalent(h.pc(p), expect));
  }
  Explored i = h.explore("Ops", "icmp", "(II)I");
  EXPECT_EQ(i.parts.size(), 3u);
}

TEST_P(ArithOps, TableSwitchHasOnePartitionPerCaseAndDefault) {
  Explored e = h.explore("Ops", "table", "(I)I");
  ASSERT_EQ(e.parts.size(), 5u);
  Term k = h.var(e, "k");
  int seen = 0;
  for (const RawPartition& p : e.parts) {
    auto v = tm.asInteger(p.entry.value);
    ASSERT_TRUE(v);
    if (*v == -1) {
      EXPECT_TRUE(h.equivalent(h.pc(p), tm.lor(tm.lt(k, tm.intLit(0)), tm.gt(k, tm.intLit(3)))));
    } else {
      EXPECT_TRUE(h.equivalent(h.pc(p), tm.eq(k, tm.intLit(static_cast<int>(*v - 10)))));
      seen |= 1 << (*v - 10);
    }
  }
  EXPECT_EQ(seen, 0xF);
}

TEST_P(ArithOps, LookupSwitchHasOnePartitionPerCaseAndDefault) {
  Explored e = h.explore("Ops", "lookup", "(I)I");
  ASSERT_EQ(e.parts.size(), 4u);
  Term k = h.var(e, "k");
  const std::map<std::int64_t, int> keyOf = {{1, -100}, {2, 7}, {3, 100000}};
  for (const RawPartition& p : e.parts) {
    auto v = tm.asInteger(p.entry.value);
    ASSERT_TRUE(v);
    if (*v == 0) {
      Term any = tm.lor(tm.eq(k, tm.intLit(-100)), tm.lor(tm.eq(k, tm.intLit(7)), tm.eq(k, tm.intLit(100000))));
      EXPECT_TRUE(h.equivalent(h.pc(p), tm.lnot(any)));
    } else {
      EXPECT_TRUE(h.equivalent(h.pc(p), tm.eq(k, tm.intLit(keyOf.at(*v)))));
    }
  }
}

TEST_P(ArithOps, Dup2AndPop2OnCategoryTwoValues) {
  Explored l = h.explore("Ops", "chainLong", "(J)J");
  EXPECT_EQ(tm.asInteger(h.at(onlyReturn(l).entry.value, {{h.var(l, "x"), tm.longLit(4)}})), 55);
  Explored d = h.explore("Ops", "chainDouble", "(D)D");
  EXPECT_TRUE(h.returnsAt(onlyReturn(d), {{h.var(d, "x"), tm.doubleLit(1.5)}}, tm.doubleLit(3.0)));
  Explored f = h.explore("Ops", "fieldLong", "(J)J");  // dup2_x1 in Box.set
  EXPECT_EQ(tm.asInteger(h.at(onlyReturn(f).entry.value, {{h.var(f, "v"), tm.longLit(21)}})), 42);
}

TEST_P(ArithOps, DupX2FormsInArrayStores) {
  struct Case { const char* name; const char* desc; };
  for (Case c : {Case{"storeInt", "(II)I"}, Case{"storeLong", "(IJ)J"}, Case{"storeDouble", "(ID)D"}}) {
    SCOPED_TRACE(c.name);
    Explored e = h.explore("Ops", c.name, c.desc);
    ASSERT_EQ(e.parts.size(), 2u);
    Term i = h.var(e, "i"), v = h.var(e, "v");
    Term oob = tm.lor(tm.lt(i, tm.intLit(0)), tm.ge(i, tm.intLit(4)));
    for (const RawPartition& p : e.parts) {
      if (p.entry.kind == ExecEffect::Kind::Throw) {
        EXPECT_EQ(p.entry.exception, "java/lang/ArrayIndexOutOfBoundsException");
        EXPECT_TRUE(h.equivalent(h.pc(p), oob));
      } else {
        ASSERT_EQ(p.entry.kind, ExecEffect::Kind::Return);
        EXPECT_TRUE(h.equivalent(h.pc(p), tm.lnot(oob)));
        Term expected = std::string(c.name) == "storeDouble" ? tm.mul(v, tm.doubleLit(2)) : v;
        EXPECT_TRUE(h.alwaysEqual(h.pc(p), p.entry.value, expected));
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Models, ArithOps, ::testing::Values(Arith::Math, Arith::Java), modelName);

// ---- Java model only: bit-exact semantics -------------------------------------------------

class JavaOps : public ::testing::Test {
 protected:
  Harness h{Arith::Java};
  TermManager& tm = h.tm();
  Term ret1(const char* cls, const char* name, const char* desc, const Point& pt, Explored* keep = nullptr) {
    Explored e = h.explore(cls, name, desc);
    EXPECT_GE(e.parts.size(), 1u);
    Term pcAll = tm.boolLit(false);
    for (const RawPartition& p : e.parts) pcAll = tm.lor(pcAll, h.pc(p));
    EXPECT_TRUE(h.valid(pcAll)) << "the partitions do not cover the input space";
    // The partition containing the point must be unique; return its value there.
    Term found;
    int n = 0;
    for (const RawPartition& p : e.parts) {
      if (tm.asBool(h.at(h.pc(p), pt)).value_or(false)) {
        ++n;
        found = p.entry.kind == ExecEffect::Kind::Return ? h.at(p.entry.value, pt) : Term{};
      }
    }
    EXPECT_EQ(n, 1);
    if (keep) *keep = std::move(e);
    return found;
  }
  Term var(const char* cls, const char* name, const char* desc, const char* v) {
    Explored e = h.explore(cls, name, desc);
    return h.var(e, v);
  }
};

TEST_F(JavaOps, OverflowWrapsAndShiftsAreMasked) {
  Explored e = h.explore("Ops", "iadd", "(II)I");
  Term a = h.var(e, "a"), b = h.var(e, "b");
  EXPECT_EQ(tm.asInteger(h.at(e.parts[0].entry.value, {{a, tm.intLit(INT32_MAX)}, {b, tm.intLit(1)}})), INT32_MIN);
  Explored s = h.explore("Ops", "shifts", "(II)I");
  Term sa = h.var(s, "a"), ss = h.var(s, "s");
  // 1 << 33 == 2, 1 >> 33 == 0, 1 >>> 33 == 0  (amount masked to 1)
  EXPECT_EQ(tm.asInteger(h.at(s.parts[0].entry.value, {{sa, tm.intLit(1)}, {ss, tm.intLit(33)}})), 2);
  // -8 << 1 = -16, -8 >> 1 = -4, -8 >>> 1 = 2147483644
  EXPECT_EQ(tm.asInteger(h.at(s.parts[0].entry.value, {{sa, tm.intLit(-8)}, {ss, tm.intLit(1)}})),
            static_cast<std::int32_t>(-16 - 4 + 2147483644u));
  Explored ls = h.explore("Ops", "lshifts", "(JI)J");
  // 1L << 65 == 2 (masked to 1), 1L >>> 65 == 0
  EXPECT_EQ(tm.asInteger(h.at(ls.parts[0].entry.value, {{h.var(ls, "a"), tm.longLit(1)}, {h.var(ls, "s"), tm.intLit(65)}})), 2);
}

TEST_F(JavaOps, DivisionOfMinByMinusOne) {
  Explored e = h.explore("Ops", "idiv", "(II)I");
  Term a = h.var(e, "a"), b = h.var(e, "b");
  for (const RawPartition& p : e.parts) {
    if (p.entry.kind != ExecEffect::Kind::Return) continue;
    EXPECT_EQ(tm.asInteger(h.at(p.entry.value, {{a, tm.intLit(INT32_MIN)}, {b, tm.intLit(-1)}})), INT32_MIN);
  }
  Explored r = h.explore("Ops", "irem", "(II)I");
  for (const RawPartition& p : r.parts) {
    if (p.entry.kind != ExecEffect::Kind::Return) continue;
    EXPECT_EQ(tm.asInteger(h.at(p.entry.value, {{h.var(r, "a"), tm.intLit(INT32_MIN)}, {h.var(r, "b"), tm.intLit(-1)}})), 0);
  }
}

TEST_F(JavaOps, SaturatingConversionsAndNaN) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  Explored e = h.explore("Ops", "d2i", "(D)I");
  Term d = h.var(e, "d");
  Term v = e.parts.at(0).entry.value;
  EXPECT_EQ(tm.asInteger(h.at(v, {{d, tm.doubleLit(nan)}})), 0);
  EXPECT_EQ(tm.asInteger(h.at(v, {{d, tm.doubleLit(1e10)}})), INT32_MAX);
  EXPECT_EQ(tm.asInteger(h.at(v, {{d, tm.doubleLit(-inf)}})), INT32_MIN);
  Explored l = h.explore("Ops", "d2l", "(D)J");
  EXPECT_EQ(tm.asInteger(h.at(l.parts.at(0).entry.value, {{h.var(l, "d"), tm.doubleLit(1e300)}})), INT64_MAX);
  Explored n = h.explore("Ops", "narrow", "(I)I");
  // (byte)0x12345 = 69, (short)0x12345 = 9029, (char)0x12345 = 9029
  EXPECT_EQ(tm.asInteger(h.at(n.parts.at(0).entry.value, {{h.var(n, "i"), tm.intLit(0x12345)}})), 69 + 9029 * 3 + 9029 * 7);
  EXPECT_EQ(tm.asInteger(h.at(n.parts.at(0).entry.value, {{h.var(n, "i"), tm.intLit(-1)}})), -1 - 3 + 65535 * 7);
  Explored c = h.explore("Ops", "l2i", "(J)I");
  EXPECT_EQ(tm.asInteger(h.at(c.parts.at(0).entry.value, {{h.var(c, "l"), tm.longLit(0x1FFFFFFFFLL)}})), -1);
  Explored f = h.explore("Ops", "d2f", "(D)F");
  EXPECT_EQ(tm.asFloating(h.at(f.parts.at(0).entry.value, {{h.var(f, "d"), tm.doubleLit(0.1)}})),
            static_cast<double>(0.1f));
}

TEST_F(JavaOps, NaNFallsIntoTheFalseSideOfEveryOrderedComparison) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  struct Case { const char* name; std::int64_t onNaN; };
  for (Case c : {Case{"dLess", 0}, Case{"dGreater", 0}, Case{"dLessEq", 0}, Case{"dEq", 0}, Case{"dNe", 1}}) {
    SCOPED_TRACE(c.name);
    Explored e = h.explore("Ops", c.name, "(DD)I");
    ASSERT_EQ(e.parts.size(), 2u);
    Term a = h.var(e, "a"), b = h.var(e, "b");
    for (Point pt : {Point{{a, tm.doubleLit(nan)}, {b, tm.doubleLit(1)}}, Point{{a, tm.doubleLit(1)}, {b, tm.doubleLit(nan)}}}) {
      int hits = 0;
      for (const RawPartition& p : e.parts) {
        if (!tm.asBool(h.at(h.pc(p), pt)).value_or(false)) continue;
        ++hits;
        EXPECT_EQ(tm.asInteger(p.entry.value), c.onNaN);
      }
      EXPECT_EQ(hits, 1);
    }
    // -0.0 == 0.0
    for (const RawPartition& p : e.parts) {
      if (!tm.asBool(h.at(h.pc(p), {{a, tm.doubleLit(-0.0)}, {b, tm.doubleLit(0.0)}})).value_or(false)) continue;
      std::int64_t expect = std::string(c.name) == "dLessEq" || std::string(c.name) == "dEq" ? 1 : 0;
      EXPECT_EQ(tm.asInteger(p.entry.value), expect);
    }
  }
  // Float comparisons: fcmpg for <, fcmpl for >; NaN makes both false.
  for (const char* name : {"fLess", "fGreater"}) {
    Explored e = h.explore("Ops", name, "(FF)I");
    Term a = h.var(e, "a"), b = h.var(e, "b");
    for (const RawPartition& p : e.parts) {
      if (tm.asBool(h.at(h.pc(p), {{a, tm.floatLit(std::nanf(""))}, {b, tm.floatLit(0)}})).value_or(false)) {
        EXPECT_EQ(tm.asInteger(p.entry.value), 0) << name;
      }
    }
  }
}

}  // namespace
}  // namespace symtest
