// Static and instance calls, <clinit> and static fields, new/getfield/putfield, primitive
// arrays with symbolic index and length, athrow, exception tables and the implicit exceptions
// (NullPointerException, ArrayIndexOutOfBounds, NegativeArraySize) as branches. Both models.
#include "symexec/support.hpp"

namespace symtest {
namespace {

using Point = std::unordered_map<Term, Term, pasda::terms::TermHash>;

class Objects : public BothModels {
 protected:
  Harness h{GetParam()};
  TermManager& tm = h.tm();

  /// The partition (there must be exactly one) that holds at `pt`.
  const RawPartition* partAt(const Explored& e, const Point& pt) {
    const RawPartition* found = nullptr;
    int n = 0;
    for (const RawPartition& p : e.parts) {
      if (tm.asBool(h.at(h.pc(p), pt)).value_or(false)) {
        found = &p;
        ++n;
      }
    }
    EXPECT_EQ(n, 1) << "partitions holding at the point";
    return found;
  }
  std::optional<std::int64_t> intAt(const Explored& e, const Point& pt) {
    const RawPartition* p = partAt(e, pt);
    if (!p || p->entry.kind != ExecEffect::Kind::Return) return std::nullopt;
    return tm.asInteger(h.at(p->entry.value, pt));
  }
  std::string throwAt(const Explored& e, const Point& pt) {
    const RawPartition* p = partAt(e, pt);
    return p && p->entry.kind == ExecEffect::Kind::Throw ? p->entry.exception : "";
  }
};

TEST_P(Objects, StaticFieldsAndClinit) {
  Explored e = h.explore("Objs", "useStatic", "(I)I");
  ASSERT_EQ(e.parts.size(), 1u);
  Term x = h.var(e, "x");
  EXPECT_TRUE(h.alwaysEqual(h.pc(e.parts[0]), e.parts[0].entry.value, tm.add(x, tm.intLit(42 + 7 + 2))));
  Explored f = h.explore("Objs", "useFactor", "(D)D");
  ASSERT_EQ(f.parts.size(), 1u);
  EXPECT_TRUE(h.returnsAt(f.parts[0], {{h.var(f, "x"), tm.doubleLit(3)}}, tm.doubleLit(1.5)));
  // Another class's <clinit> runs once; its static state persists across calls.
  Explored o = h.explore("Objs", "otherStatic", "(I)I");
  ASSERT_EQ(o.parts.size(), 1u);
  Term ox = h.var(o, "x");
  EXPECT_TRUE(h.alwaysEqual(h.pc(o.parts[0]), o.parts[0].entry.value,
                            tm.add(tm.intLit(200), tm.mul(tm.intLit(3), ox))));
}

TEST_P(Objects, NewFieldsAndInstanceCalls) {
  Explored e = h.explore("Objs", "useObject", "(I)I");
  ASSERT_EQ(e.parts.size(), 1u);
  EXPECT_EQ(intAt(e, {{h.var(e, "x"), tm.intLit(10)}}), 27);  // (2x+3) + 2 + 2
  Explored s = h.explore("Objs", "scaledBox", "(D)D");  // field initializer in the constructor
  ASSERT_EQ(s.parts.size(), 1u);
  EXPECT_TRUE(h.returnsAt(s.parts[0], {{h.var(s, "x"), tm.doubleLit(2)}}, tm.doubleLit(3.0)));
}

TEST_P(Objects, NullReceiverIsAnNpeBranch) {
  for (const char* name : {"nullField", "nullCall"}) {
    SCOPED_TRACE(name);
    Explored e = h.explore("Objs", name, "(I)I");
    ASSERT_EQ(e.parts.size(), 2u);
    Term x = h.var(e, "x");
    for (const RawPartition& p : e.parts) {
      if (p.entry.kind == ExecEffect::Kind::Throw) {
        EXPECT_EQ(p.entry.exception, "java/lang/NullPointerException");
        EXPECT_TRUE(h.equivalent(h.pc(p), tm.le(x, tm.intLit(0))));
      } else {
        EXPECT_TRUE(h.equivalent(h.pc(p), tm.gt(x, tm.intLit(0))));
      }
    }
    EXPECT_EQ(intAt(e, {{x, tm.intLit(4)}}), std::string(name) == "nullField" ? 4 : 5);
  }
}

TEST_P(Objects, StaticCallsInline) {
  Explored e = h.explore("Calls", "callStatic", "(I)I");
  ASSERT_EQ(e.parts.size(), 1u);
  EXPECT_EQ(intAt(e, {{h.var(e, "x"), tm.intLit(3)}}), 25);
}

TEST_P(Objects, SymbolicIndexStoreAndLoad) {
  Explored e = h.explore("Arrays1", "symIndex", "(II)I");
  ASSERT_EQ(e.parts.size(), 2u);
  Term i = h.var(e, "i"), v = h.var(e, "v");
  EXPECT_EQ(countThrow(e, "java/lang/ArrayIndexOutOfBoundsException"), 1u);
  for (const RawPartition& p : e.parts) {
    Term oob = tm.lor(tm.lt(i, tm.intLit(0)), tm.gt(i, tm.intLit(2)));
    EXPECT_TRUE(h.equivalent(h.pc(p), p.entry.kind == ExecEffect::Kind::Throw ? oob : tm.lnot(oob)));
  }
  EXPECT_EQ(intAt(e, {{i, tm.intLit(1)}, {v, tm.intLit(9)}}), 5 + 90 + 700);
  EXPECT_EQ(intAt(e, {{i, tm.intLit(2)}, {v, tm.intLit(1)}}), 5 + 60 + 100);
  EXPECT_EQ(throwAt(e, {{i, tm.intLit(3)}, {v, tm.intLit(1)}}), "java/lang/ArrayIndexOutOfBoundsException");
  Explored r = h.explore("Arrays1", "symRead", "(I)I");
  ASSERT_EQ(r.parts.size(), 2u);
  EXPECT_EQ(intAt(r, {{h.var(r, "i"), tm.intLit(2)}}), 7);
  Explored d = h.explore("Arrays1", "darr", "(ID)D");
  ASSERT_EQ(d.parts.size(), 2u);
  EXPECT_EQ(countThrow(d, "java/lang/ArrayIndexOutOfBoundsException"), 1u);
}

TEST_P(Objects, SymbolicLengthIsExploredUpToTheBound) {
  ExecOptions opt;
  opt.max_array_length = 8;
  Explored e = h.explore("Arrays1", "symLength", "(I)I", opt);
  // n < 0 throws; n = 0..8 return n, each with its elements held; n > 8 makes an array of
  // primitives without elements held whose length is n (it once cut the path).
  ASSERT_EQ(e.parts.size(), 11u);
  Term n = h.var(e, "n");
  EXPECT_EQ(countThrow(e, "java/lang/NegativeArraySizeException"), 1u);
  EXPECT_EQ(countCut(e), 0u);
  int longOnes = 0;
  for (const RawPartition& p : e.parts) {
    if (p.entry.kind == ExecEffect::Kind::Throw) {
      EXPECT_TRUE(h.equivalent(h.pc(p), tm.lt(n, tm.intLit(0))));
    } else if (auto len = tm.asInteger(p.entry.value)) {
      EXPECT_TRUE(h.equivalent(h.pc(p), tm.eq(n, tm.intLit(static_cast<int>(*len)))));
    } else {
      ++longOnes;
      EXPECT_EQ(p.entry.value, n);
      EXPECT_TRUE(h.equivalent(h.pc(p), tm.gt(n, tm.intLit(8))));
    }
  }
  EXPECT_EQ(longOnes, 1);
}

TEST_P(Objects, NullArrayAccessThrows) {
  Explored e = h.explore("Arrays1", "nullArr", "(I)I");
  ASSERT_EQ(e.parts.size(), 2u);
  Term x = h.var(e, "x");
  EXPECT_EQ(throwAt(e, {{x, tm.intLit(0)}}), "java/lang/NullPointerException");
  EXPECT_EQ(intAt(e, {{x, tm.intLit(1)}}), 0);
}

TEST_P(Objects, AthrowAndUncaughtExceptions) {
  Explored e = h.explore("Exc", "thrower", "(I)I");
  ASSERT_EQ(e.parts.size(), 2u);
  Term x = h.var(e, "x");
  EXPECT_EQ(throwAt(e, {{x, tm.intLit(6)}}), "java/lang/IllegalStateException");
  EXPECT_EQ(intAt(e, {{x, tm.intLit(5)}}), 5);
  for (const RawPartition& p : e.parts)
    if (p.entry.kind == ExecEffect::Kind::Throw) {
      EXPECT_TRUE(h.equivalent(h.pc(p), tm.gt(x, tm.intLit(5))));
    }
}

TEST_P(Objects, ExceptionTablesCatchImplicitAndExplicitExceptions) {
  Explored c = h.explore("Exc", "catcher", "(I)I");
  ASSERT_EQ(c.parts.size(), 2u);
  EXPECT_EQ(countKind(c, ExecEffect::Kind::Return), 2u);
  EXPECT_EQ(intAt(c, {{h.var(c, "x"), tm.intLit(0)}}), -1);
  EXPECT_EQ(intAt(c, {{h.var(c, "x"), tm.intLit(7)}}), 14);

  Explored u = h.explore("Exc", "custom", "(I)I");  // an exception class of the program
  ASSERT_EQ(u.parts.size(), 2u);
  EXPECT_EQ(intAt(u, {{h.var(u, "x"), tm.intLit(3)}}), 6);
  EXPECT_EQ(intAt(u, {{h.var(u, "x"), tm.intLit(4)}}), 0);

  Explored f = h.explore("Exc", "withFinally", "(I)I");  // any-handler rethrows
  ASSERT_EQ(f.parts.size(), 2u);
  EXPECT_EQ(throwAt(f, {{h.var(f, "x"), tm.intLit(0)}}), "java/lang/ArithmeticException");
  EXPECT_EQ(intAt(f, {{h.var(f, "x"), tm.intLit(3)}}), 4);

  Explored w = h.explore("Exc", "wrongCatch", "(I)I");  // handler of another type: propagates
  ASSERT_EQ(w.parts.size(), 2u);
  EXPECT_EQ(throwAt(w, {{h.var(w, "x"), tm.intLit(0)}}), "java/lang/ArithmeticException");
}

TEST_P(Objects, ExceptionsUnwindFramesToASuperclassHandler) {
  Explored p = h.explore("Exc", "propagate", "(I)I");
  ASSERT_EQ(p.parts.size(), 2u);
  EXPECT_EQ(throwAt(p, {{h.var(p, "x"), tm.intLit(-1)}}), "java/lang/IllegalArgumentException");
  EXPECT_EQ(intAt(p, {{h.var(p, "x"), tm.intLit(2)}}), 3);
  Explored a = h.explore("Exc", "catchAll", "(I)I");  // IllegalArgumentException caught as RuntimeException
  ASSERT_EQ(a.parts.size(), 2u);
  EXPECT_EQ(countKind(a, ExecEffect::Kind::Return), 2u);
  EXPECT_EQ(intAt(a, {{h.var(a, "x"), tm.intLit(-1)}}), -5);
  EXPECT_EQ(intAt(a, {{h.var(a, "x"), tm.intLit(4)}}), 8);
}

INSTANTIATE_TEST_SUITE_P(Models, Objects, ::testing::Values(Arith::Math, Arith::Java), modelName);

TEST(ObjectsJava, NarrowArrayElementsAreStoredNarrowed) {
  Harness h(Arith::Java);
  TermManager& tm = h.tm();
  Explored e = h.explore("Arrays1", "bytes", "(II)I");
  // One decision (v > 0); the masked indices never go out of bounds.
  ASSERT_EQ(e.parts.size(), 2u);
  EXPECT_EQ(countThrow(e, "java/lang/ArrayIndexOutOfBoundsException"), 0u);
  Term i = h.var(e, "i"), v = h.var(e, "v");
  auto at = [&](int iv, int vv) -> std::optional<std::int64_t> {
    Point pt{{i, tm.intLit(iv)}, {v, tm.intLit(vv)}};
    for (const RawPartition& p : e.parts)
      if (tm.asBool(h.at(h.pc(p), pt)).value_or(false)) return tm.asInteger(h.at(p.entry.value, pt));
    return std::nullopt;
  };
  EXPECT_EQ(at(3, 200), -56 + 200 + 200 + 1);
  EXPECT_EQ(at(0, -1), -1 + 65535 - 1 + 0);
}

}  // namespace
}  // namespace symtest
