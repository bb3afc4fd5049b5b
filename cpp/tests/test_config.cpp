#include <gtest/gtest.h>

#include <cstdlib>
#include <set>
#include <string>

#include "core/errors.hpp"
#include "runtime/config.hpp"

using namespace gpuarr;
using namespace gpuarr::config;

namespace {

// The ValueError's message, or "" if `f` did not throw one.
template <class F>
std::string value_error(F&& f) {
  try {
    f();
  } catch (const ValueError& e) {
    return e.what();
  }
  return "";
}

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

}  // namespace

TEST(Config, ParseBoolAcceptsTheUsualWords) {
  for (const char* t : {"1", "true", "True", "ON", "on", "yes", " 1 "})
    EXPECT_TRUE(parse_bool("GPUARR_X", t)) << t;
  for (const char* t : {"0", "false", "FALSE", "off", "Off", "no"})
    EXPECT_FALSE(parse_bool("GPUARR_X", t)) << t;
  const std::string msg = value_error([] { parse_bool("GPUARR_X", "2"); });
  EXPECT_TRUE(contains(msg, "GPUARR_X")) << msg;
  EXPECT_TRUE(contains(msg, "'2'")) << msg;
  EXPECT_FALSE(value_error([] { parse_bool("GPUARR_X", "enable"); }).empty());
  EXPECT_FALSE(value_error([] { parse_bool("GPUARR_X", ""); }).empty());
}

TEST(Config, ParseIntChecksDigitsAndRange) {
  EXPECT_EQ(parse_int("GPUARR_N", "42", 0, 100), 42);
  EXPECT_EQ(parse_int("GPUARR_N", " -1", -1, 100), -1);
  EXPECT_EQ(parse_int("GPUARR_N", "100", 0, 100), 100);
  for (const char* bad : {"", "4x", "x4", "1.5", "99999999999999999999999"}) {
    const std::string msg = value_error([&] { parse_int("GPUARR_N", bad, 0, 100); });
    EXPECT_TRUE(contains(msg, "GPUARR_N") && contains(msg, "not an integer")) << bad << ": " << msg;
  }
  const std::string msg = value_error([] { parse_int("GPUARR_N", "101", 0, 100); });
  EXPECT_TRUE(contains(msg, "GPUARR_N=101") && contains(msg, "[0, 100]")) << msg;
  EXPECT_FALSE(value_error([] { parse_int("GPUARR_N", "-1", 0, 100); }).empty());
}

TEST(Config, ParseChoiceIsCaseInsensitiveAndListsTheChoices) {
  const std::vector<std::string> choices{"auto", "cusolver"};
  EXPECT_EQ(parse_choice("GPUARR_R", "auto", choices), 0);
  EXPECT_EQ(parse_choice("GPUARR_R", "CUSOLVER", choices), 1);
  const std::string msg = value_error([&] { parse_choice("GPUARR_R", "cublas", choices); });
  EXPECT_TRUE(contains(msg, "GPUARR_R") && contains(msg, "auto, cusolver")) << msg;
}

TEST(Config, EveryLibrarySettingIsRegisteredOnceWithAValidDefault) {
  std::set<std::string> names;
  for (const Setting* s : all_settings()) {
    const std::string name = s->name();
    EXPECT_EQ(name.rfind("GPUARR_", 0), 0u) << name;
    EXPECT_TRUE(names.insert(name).second) << "twice: " << name;
    EXPECT_NE(std::string(s->meaning()), "") << name;
    EXPECT_FALSE(s->type_text().empty()) << name;
  }
  for (const char* n : {"GPUARR_TRANSFER_THREADS", "GPUARR_STAGING_CHUNK_MB", "GPUARR_CACHE_DIR",
                        "GPUARR_LAZY_MIN_SIZE", "GPUARR_SMALL_BLOCK_CACHE", "GPUARR_LU_ROUTE",
                        "GPUARR_FAST_OPERATOR_SLOTS", "GPUARR_READBACK_SPIN_US"}) {
    EXPECT_EQ(names.count(n), 1u) << n;
  }
  EXPECT_EQ(&find("GPUARR_LU_ROUTE"), static_cast<Setting*>(&lu_route));
  EXPECT_TRUE(contains(value_error([] { find("GPUARR_NO_SUCH"); }), "GPUARR_NO_SUCH"));
}

TEST(Config, DefaultsWhenUnset) {
  unsetenv("GPUARR_TEST_INT");
  unsetenv("GPUARR_TEST_BOOL");
  unsetenv("GPUARR_TEST_CHOICE");
  unsetenv("GPUARR_TEST_TEXT");
  IntSetting i{"GPUARR_TEST_INT", 7, 0, 100, "an int"};
  BoolSetting b{"GPUARR_TEST_BOOL", true, "a bool"};
  ChoiceSetting c{"GPUARR_TEST_CHOICE", {"one", "two"}, "a choice"};
  TextSetting t{"GPUARR_TEST_TEXT", "", "a path"};
  EXPECT_EQ(i.get(), 7);
  EXPECT_TRUE(b.get());
  EXPECT_EQ(c.get(), 0);
  EXPECT_EQ(t.get(), "");
  EXPECT_EQ(i.origin(), Origin::Default);
  EXPECT_EQ(i.value_text(), "7");
  EXPECT_EQ(b.default_text(), "1");
  EXPECT_EQ(c.value_text(), "one");
  EXPECT_EQ(c.type_text(), "one of one|two");
  EXPECT_EQ(i.type_text(), "int in [0, 100]");
  // Registered while alive.
  EXPECT_EQ(&find("GPUARR_TEST_INT"), static_cast<Setting*>(&i));
}

TEST(Config, LocalSettingsLeaveTheRegistry) {
  { IntSetting i{"GPUARR_TEST_GONE", 1, 0, 2, "short-lived"}; }
  EXPECT_FALSE(value_error([] { find("GPUARR_TEST_GONE"); }).empty());
}

TEST(Config, ReadsTheEnvironmentOnceOnFirstUse) {
  setenv("GPUARR_TEST_ENV_INT", "12", 1);
  setenv("GPUARR_TEST_ENV_BOOL", "off", 1);
  setenv("GPUARR_TEST_ENV_CHOICE", "Two", 1);
  setenv("GPUARR_TEST_ENV_TEXT", "/tmp/x", 1);
  setenv("GPUARR_TEST_ENV_EMPTY", "", 1);
  IntSetting i{"GPUARR_TEST_ENV_INT", 7, 0, 100, "an int"};
  BoolSetting b{"GPUARR_TEST_ENV_BOOL", true, "a bool"};
  ChoiceSetting c{"GPUARR_TEST_ENV_CHOICE", {"one", "two"}, "a choice"};
  TextSetting t{"GPUARR_TEST_ENV_TEXT", "", "a path"};
  IntSetting e{"GPUARR_TEST_ENV_EMPTY", 3, 0, 100, "empty counts as unset"};
  EXPECT_EQ(i.get(), 12);
  EXPECT_FALSE(b.get());
  EXPECT_EQ(c.get(), 1);
  EXPECT_EQ(t.get(), "/tmp/x");
  EXPECT_EQ(e.get(), 3);
  EXPECT_EQ(i.origin(), Origin::Environment);
  EXPECT_EQ(e.origin(), Origin::Default);
  setenv("GPUARR_TEST_ENV_INT", "13", 1);  // read once: later changes are not seen
  EXPECT_EQ(i.get(), 12);
  for (const char* n : {"GPUARR_TEST_ENV_INT", "GPUARR_TEST_ENV_BOOL", "GPUARR_TEST_ENV_CHOICE",
                        "GPUARR_TEST_ENV_TEXT", "GPUARR_TEST_ENV_EMPTY"}) {
    unsetenv(n);
  }
}

TEST(Config, BadEnvironmentValueRaisesNamingTheVariableEachTime) {
  setenv("GPUARR_TEST_BAD", "lots", 1);
  IntSetting i{"GPUARR_TEST_BAD", 7, 0, 100, "an int"};
  for (int k = 0; k < 2; ++k) {
    const std::string msg = value_error([&] { i.get(); });
    EXPECT_TRUE(contains(msg, "GPUARR_TEST_BAD='lots'")) << msg;
  }
  setenv("GPUARR_TEST_BAD", "1000", 1);  // out of range
  EXPECT_TRUE(contains(value_error([&] { i.get(); }), "GPUARR_TEST_BAD=1000"));
  // An override replaces a bad environment value; popping it returns to reading it.
  {
    ScopedOverride o(i, "5");
    EXPECT_EQ(i.get(), 5);
  }
  setenv("GPUARR_TEST_BAD", "9", 1);
  EXPECT_EQ(i.get(), 9);
  unsetenv("GPUARR_TEST_BAD");
}

TEST(Config, ScopedOverrideSetsAndRestoresValueAndOrigin) {
  setenv("GPUARR_TEST_OVR", "4", 1);
  IntSetting i{"GPUARR_TEST_OVR", 7, 0, 100, "an int"};
  ChoiceSetting c{"GPUARR_TEST_OVR_CHOICE", {"one", "two"}, "a choice"};
  EXPECT_EQ(i.get(), 4);
  {
    ScopedOverride a(i, "50");
    EXPECT_EQ(i.get(), 50);
    EXPECT_EQ(i.origin(), Origin::Override);
    {
      ScopedOverride b(i, "60");
      EXPECT_EQ(i.get(), 60);
    }
    EXPECT_EQ(i.get(), 50);
    ScopedOverride d(c, "two");
    EXPECT_EQ(c.get(), 1);
  }
  EXPECT_EQ(i.get(), 4);
  EXPECT_EQ(i.origin(), Origin::Environment);
  EXPECT_EQ(c.get(), 0);
  EXPECT_EQ(c.origin(), Origin::Default);
  // A bad override value raises and changes nothing.
  EXPECT_TRUE(contains(value_error([&] { ScopedOverride o(i, "-3"); }), "GPUARR_TEST_OVR=-3"));
  EXPECT_EQ(i.get(), 4);
  EXPECT_FALSE(value_error([&] { i.pop_override(); }).empty());
  unsetenv("GPUARR_TEST_OVR");
}

TEST(Config, ExchangeKeepsTheNewValue) {
  IntSetting i{"GPUARR_TEST_EXCHANGE", 7, 0, 100, "an int"};
  EXPECT_EQ(i.exchange(3), 7);
  EXPECT_EQ(i.get(), 3);
  EXPECT_EQ(i.origin(), Origin::Override);
  EXPECT_EQ(i.exchange(7), 3);
}

TEST(Config, LibraryDefaults) {
  // The defaults the library documents (README); a change here is a behaviour change.
  EXPECT_EQ(staging_chunk_mb.default_text(), "32");
  EXPECT_EQ(staging_buffers.default_text(), "4");
  EXPECT_EQ(staging_threshold_kb.default_text(), "4096");
  EXPECT_EQ(readback_spin_us.default_text(), "50");
  EXPECT_EQ(lazy_min_size.default_text(), std::to_string(1 << 20));
  EXPECT_EQ(small_block_cache.default_text(), "1");
  EXPECT_EQ(fast_operator_slots.default_text(), "1");
  EXPECT_EQ(lu_route.default_text(), "auto");
  EXPECT_EQ(det_cublas_max_n.default_text(), "-1");
  EXPECT_EQ(tridiag_tail.default_text(), "512");
  {
    ScopedOverride o(lu_route, "cusolver");
    EXPECT_EQ(lu_route.get(), LuRouteChoice::Cusolver);
  }
}
