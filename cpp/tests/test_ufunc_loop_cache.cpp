#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/ufunc_resolve.hpp"

using namespace gpuarr;

namespace {

// An "add"-like table: one homogeneous loop per dtype, in NumPy's order.
std::vector<UfuncLoopTypes> homogeneous_loops() {
  std::vector<UfuncLoopTypes> loops;
  for (int t = 0; t < kNumDTypes; ++t) {
    const DType d = static_cast<DType>(t);
    loops.push_back({{d, d, d}, d});
  }
  return loops;
}

// The loop index, or -1 when resolution throws TypeError (with its message kept).
int outcome(const std::function<int()>& f, std::string& error) {
  try {
    return f();
  } catch (const TypeError& e) {
    error = e.what();
    return -1;
  }
}

}  // namespace

TEST(UfuncLoopCache, AgreesWithResolutionAcrossOperandsDtypeAndCasting) {
  const auto loops = homogeneous_loops();
  for (UfuncResolver resolver : {UfuncResolver::Default, UfuncResolver::NoBoolSubtract}) {
    const UfuncSignature sig{"subtract", 2, resolver, &loops};
    UfuncLoopCache cache;
    // Twice over every combination, so that slots are filled, hit and overwritten.
    for (int pass = 0; pass < 2; ++pass) {
      for (int a = 0; a < kNumDTypes; ++a)
        for (int b = 0; b < kNumDTypes; ++b)
          for (WeakKind wb : {WeakKind::None, WeakKind::Int, WeakKind::Float})
            for (int forced = -1; forced < kNumDTypes; forced += 5)
              for (Casting c : {Casting::SameKind, Casting::Safe, Casting::Unsafe}) {
                PromotionOperand ops[2] = {{static_cast<DType>(a), WeakKind::None},
                                           {static_cast<DType>(b), wb}};
                if (wb == WeakKind::Int) ops[1].dtype = DType::Int64;
                if (wb == WeakKind::Float) ops[1].dtype = DType::Float64;
                const std::optional<DType> dtype =
                    forced < 0 ? std::nullopt : std::optional<DType>(static_cast<DType>(forced));
                std::string e1, e2;
                const int want = outcome([&] { return resolve_ufunc_loop(sig, ops, dtype, c); }, e1);
                const int got = outcome([&] { return cache.resolve(sig, ops, dtype, c); }, e2);
                ASSERT_EQ(got, want) << "a=" << a << " b=" << b << " weak=" << int(wb)
                                     << " dtype=" << forced << " casting=" << int(c);
                ASSERT_EQ(e2, e1);
                // At once again: now a hit in the table.
                std::string e3;
                ASSERT_EQ(outcome([&] { return cache.resolve(sig, ops, dtype, c); }, e3), want);
                ASSERT_EQ(e3, e1);
              }
    }
  }
}

TEST(UfuncLoopCache, ErrorsAreNotKept) {
  const auto loops = homogeneous_loops();
  const UfuncSignature sig{"subtract", 2, UfuncResolver::NoBoolSubtract, &loops};
  UfuncLoopCache cache;
  const PromotionOperand ops[2] = {{DType::Bool, WeakKind::None}, {DType::Bool, WeakKind::None}};
  EXPECT_THROW(cache.resolve(sig, ops, std::nullopt, Casting::SameKind), TypeError);
  EXPECT_THROW(cache.resolve(sig, ops, std::nullopt, Casting::SameKind), TypeError);
  // A forced dtype is another key, which resolves.
  EXPECT_EQ(cache.resolve(sig, ops, DType::Int8, Casting::SameKind),
            resolve_ufunc_loop(sig, ops, DType::Int8, Casting::SameKind));
}
