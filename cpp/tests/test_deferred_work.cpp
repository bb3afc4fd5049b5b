// When deferred work launches (runtime/deferred_work.hpp), with host-only memory and work
// that records its launches.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "runtime/deferred_work.hpp"

using namespace gpuarr;

namespace {

class FakeMemory final : public Memory {
 public:
  FakeMemory() : Memory(&byte_, 1, 0) {}
  ~FakeMemory() override { forget_deferred_work(); }

 private:
  char byte_ = 0;
};

std::shared_ptr<Memory> memory() { return std::make_shared<FakeMemory>(); }

struct Log {
  std::vector<std::string> launched;
};

// Reads its inputs' addresses, as a kernel launch does, then records itself.
class RecordingWork final : public DeferredWork {
 public:
  RecordingWork(Log& log, std::string name, std::vector<std::shared_ptr<Memory>> inputs)
      : log_(log), name_(std::move(name)), inputs_(std::move(inputs)) {}
  void launch(void* output) override {
    EXPECT_NE(output, nullptr);
    for (const auto& in : inputs_) (void)in->ptr();
    log_.launched.push_back(name_);
  }

 private:
  Log& log_;
  std::string name_;
  std::vector<std::shared_ptr<Memory>> inputs_;
};

std::shared_ptr<Memory> deferred(Log& log, const std::string& name,
                                 std::vector<std::shared_ptr<Memory>> inputs) {
  auto out = memory();
  defer_work(out, std::make_shared<RecordingWork>(log, name, inputs), inputs);
  return out;
}

}  // namespace

TEST(DeferredWork, ReadingTheOutputLaunchesItOnce) {
  Log log;
  auto in = memory();
  auto out = deferred(log, "f", {in});
  EXPECT_TRUE(log.launched.empty());
  EXPECT_NE(deferred_producer(*out), nullptr);
  (void)out->ptr();
  (void)out->ptr();
  EXPECT_EQ(log.launched, std::vector<std::string>{"f"});
  EXPECT_EQ(deferred_producer(*out), nullptr);
  EXPECT_FALSE(out->has_deferred_flag());
}

TEST(DeferredWork, TouchingAnInputLaunchesItsReadersFirst) {
  Log log;
  auto in = memory();
  auto a = deferred(log, "a", {in});
  auto b = deferred(log, "b", {in});
  (void)in->ptr();  // a caller that may write `in`
  EXPECT_EQ(log.launched, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(deferred_producer(*a), nullptr);
  EXPECT_EQ(deferred_producer(*b), nullptr);
}

TEST(DeferredWork, AChainLaunchesProducersBeforeTheirReaders) {
  Log log;
  auto in = memory();
  auto b = deferred(log, "b", {in});
  auto c = deferred(log, "c", {b});
  (void)c->ptr();
  EXPECT_EQ(log.launched, (std::vector<std::string>{"b", "c"}));
  // Touching the first input now launches nothing more.
  (void)in->ptr();
  EXPECT_EQ(log.launched.size(), 2u);
}

TEST(DeferredWork, WritingAnIntermediateLaunchesItsPendingReaders) {
  Log log;
  auto in = memory();
  auto b = deferred(log, "b", {in});
  auto c = deferred(log, "c", {b});
  (void)b->ptr();  // b is produced, then c (which reads b) runs before b can change
  EXPECT_EQ(log.launched, (std::vector<std::string>{"b", "c"}));
}

TEST(DeferredWork, WorkWhoseOutputDiesUnreadNeverLaunches) {
  Log log;
  auto in = memory();
  auto out = deferred(log, "f", {in});
  out.reset();
  (void)in->ptr();
  launch_all_deferred_work();
  EXPECT_TRUE(log.launched.empty());
}

TEST(DeferredWork, LaunchAllLaunchesEverything) {
  Log log;
  auto in = memory();
  auto a = deferred(log, "a", {in});
  auto b = deferred(log, "b", {a});
  auto c = deferred(log, "c", {});
  launch_all_deferred_work();
  ASSERT_EQ(log.launched.size(), 3u);
  const auto pos = [&](const std::string& n) {
    return std::find(log.launched.begin(), log.launched.end(), n) - log.launched.begin();
  };
  EXPECT_LT(pos("a"), pos("b"));
  EXPECT_EQ(deferred_producer(*a), nullptr);
  EXPECT_EQ(deferred_producer(*c), nullptr);
}

TEST(DeferredWork, SharedOutsideIsSticky) {
  auto m = memory();
  EXPECT_FALSE(m->shared_outside());
  m->mark_shared_outside();
  EXPECT_TRUE(m->shared_outside());
}
