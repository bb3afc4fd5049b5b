#include "runtime/config.hpp"

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <limits>

#include "core/errors.hpp"
#include "core/linalg_plan.hpp"

namespace gpuarr::config {

namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

std::vector<Setting*>& registry() {
  static std::vector<Setting*> all;
  return all;
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string strip(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

std::string join(const std::vector<std::string>& words, const char* sep) {
  std::string out;
  for (size_t i = 0; i < words.size(); ++i) out += (i ? sep : "") + words[i];
  return out;
}

}  // namespace

const char* origin_name(Origin o) {
  switch (o) {
    case Origin::Default: return "default";
    case Origin::Environment: return "environment";
    default: return "override";
  }
}

bool parse_bool(const char* name, const std::string& text) {
  const std::string t = lower(strip(text));
  if (t == "1" || t == "true" || t == "on" || t == "yes") return true;
  if (t == "0" || t == "false" || t == "off" || t == "no") return false;
  throw ValueError(std::string(name) + "='" + text +
                   "' is not a boolean (expected 1/0, true/false, on/off or yes/no)");
}

int64_t parse_int(const char* name, const std::string& text, int64_t lo, int64_t hi) {
  const std::string t = strip(text);
  char* end = nullptr;
  errno = 0;
  const long long v = t.empty() ? 0 : std::strtoll(t.c_str(), &end, 10);
  if (t.empty() || *end != '\0' || errno == ERANGE) {
    throw ValueError(std::string(name) + "='" + text + "' is not an integer");
  }
  if (v < lo || v > hi) {
    std::string range = "[" + std::to_string(lo) + ", " + (hi == kMax ? "inf" : std::to_string(hi)) + "]";
    throw ValueError(std::string(name) + "=" + t + " is outside " + range);
  }
  return v;
}

int parse_choice(const char* name, const std::string& text,
                 const std::vector<std::string>& choices) {
  const std::string t = lower(strip(text));
  for (size_t i = 0; i < choices.size(); ++i)
    if (t == choices[i]) return static_cast<int>(i);
  throw ValueError(std::string(name) + "='" + text + "' is not one of " + join(choices, ", "));
}

Setting::Setting(const char* name, Kind kind, const char* meaning, int64_t default_value,
                 std::string default_text, int64_t lo, int64_t hi,
                 std::vector<std::string> choices)
    : name_(name), kind_(kind), meaning_(meaning), default_value_(default_value),
      default_text_(std::move(default_text)), lo_(lo), hi_(hi), choices_(std::move(choices)) {
  registry().push_back(this);
}

Setting::~Setting() {
  auto& all = registry();
  for (auto it = all.begin(); it != all.end(); ++it) {
    if (*it == this) {
      all.erase(it);
      break;
    }
  }
}

std::string Setting::type_text() const {
  switch (kind_) {
    case Kind::Bool: return "bool";
    case Kind::Int:
      return "int in [" + std::to_string(lo_) + ", " +
             (hi_ == kMax ? std::string("inf") : std::to_string(hi_)) + "]";
    case Kind::Choice: return "one of " + join(choices_, "|");
    default: return "path";
  }
}

std::string Setting::default_text() const { return default_text_; }

int64_t Setting::parse(const std::string& text, std::string* text_out) const {
  switch (kind_) {
    case Kind::Bool: return parse_bool(name_, text) ? 1 : 0;
    case Kind::Int: return parse_int(name_, text, lo_, hi_);
    case Kind::Choice: return parse_choice(name_, text, choices_);
    default: *text_out = text; return 0;
  }
}

void Setting::load_locked() const {
  if (loaded_.load(std::memory_order_relaxed)) return;
  const char* env = std::getenv(name_);
  std::string text = default_text_;
  int64_t v = default_value_;
  Origin origin = Origin::Default;
  if (env && *env) {  // an empty variable counts as unset
    v = parse(env, &text);  // throws (and stays unloaded) on a bad value
    origin = Origin::Environment;
  }
  text_ = text;
  origin_ = origin;
  value_.store(v, std::memory_order_relaxed);
  loaded_.store(true, std::memory_order_release);
}

int64_t Setting::load() const {
  std::lock_guard<std::mutex> lock(mu_);
  load_locked();
  return value_.load(std::memory_order_relaxed);
}

std::string Setting::text() const {
  std::lock_guard<std::mutex> lock(mu_);
  load_locked();
  return text_;
}

Origin Setting::origin() const {
  std::lock_guard<std::mutex> lock(mu_);
  load_locked();
  return origin_;
}

std::string Setting::value_text() const {
  std::lock_guard<std::mutex> lock(mu_);
  load_locked();
  const int64_t v = value_.load(std::memory_order_relaxed);
  switch (kind_) {
    case Kind::Bool: return v ? "1" : "0";
    case Kind::Int: return std::to_string(v);
    case Kind::Choice: return choices_[static_cast<size_t>(v)];
    default: return text_;
  }
}

int64_t Setting::exchange_number(int64_t v) {
  std::lock_guard<std::mutex> lock(mu_);
  load_locked();
  origin_ = Origin::Override;
  return value_.exchange(v, std::memory_order_relaxed);
}

void Setting::push_override(const std::string& text) {
  std::lock_guard<std::mutex> lock(mu_);
  std::string t;
  const int64_t v = parse(text, &t);  // before any change: a bad value leaves all as it was
  overrides_.push_back(Saved{loaded_.load(std::memory_order_relaxed),
                             value_.load(std::memory_order_relaxed), text_, origin_});
  text_ = t;
  origin_ = Origin::Override;
  value_.store(v, std::memory_order_relaxed);
  loaded_.store(true, std::memory_order_release);
}

void Setting::pop_override() {
  std::lock_guard<std::mutex> lock(mu_);
  if (overrides_.empty()) throw ValueError(std::string(name_) + ": no override to restore");
  const Saved s = overrides_.back();
  overrides_.pop_back();
  text_ = s.text;
  origin_ = s.origin;
  value_.store(s.value, std::memory_order_relaxed);
  loaded_.store(s.loaded, std::memory_order_release);
}

BoolSetting::BoolSetting(const char* name, bool default_value, const char* meaning)
    : Setting(name, Kind::Bool, meaning, default_value ? 1 : 0, default_value ? "1" : "0", 0, 1,
              {}) {}

IntSetting::IntSetting(const char* name, int64_t default_value, int64_t lo, int64_t hi,
                       const char* meaning)
    : Setting(name, Kind::Int, meaning, default_value, std::to_string(default_value), lo, hi, {}) {}

ChoiceSetting::ChoiceSetting(const char* name, std::vector<std::string> choices,
                             const char* meaning)
    : Setting(name, Kind::Choice, meaning, 0, choices.at(0), 0,
              static_cast<int64_t>(choices.size()) - 1, choices) {}

TextSetting::TextSetting(const char* name, const char* default_text, const char* meaning)
    : Setting(name, Kind::Text, meaning, 0, default_text, 0, 0, {}) {}

const std::vector<Setting*>& all_settings() { return registry(); }

Setting& find(const std::string& name) {
  for (Setting* s : registry())
    if (name == s->name()) return *s;
  throw ValueError("no gpuarr setting named '" + name + "'");
}

// ---- the table -----------------------------------------------------------------------------
// A knob a user may need, or an override of a measured routing rule (to re-measure it on
// another GPU: see the rule's comment for the benchmark). The order is show_config's.

IntSetting transfer_threads{
    "GPUARR_TRANSFER_THREADS", 0, 0, 256,
    "host threads copying between pageable memory and the pinned staging buffers "
    "(0: the CPU's cores, at most 16)"};
IntSetting staging_chunk_mb{
    "GPUARR_STAGING_CHUNK_MB", 32, 1, 4096,
    "size in MiB of each pinned staging buffer of large pageable transfers"};
IntSetting staging_buffers{
    "GPUARR_STAGING_BUFFERS", 4, 2, 64,
    "pinned staging buffers per device (copies into one overlap DMA from another)"};
IntSetting staging_threshold_kb{
    "GPUARR_STAGING_THRESHOLD_KB", 4096, 64, kMax,
    "pageable transfers from this size in KiB on go through the staging buffers (>= 64: "
    "smaller copies keep the GIL, and the .npy reader waits for the GIL inside the pipeline)"};
IntSetting readback_spin_us{
    "GPUARR_READBACK_SPIN_US", 50, 0, 1000000,
    "microseconds a small read-back (item(), a flag) spins on mapped memory before it waits "
    "on the stream (0: wait at once)"};
BoolSetting small_block_cache{
    "GPUARR_SMALL_BLOCK_CACHE", true,
    "keep freed small device blocks per stream for reuse (a new pool's default)"};
TextSetting cache_dir{
    "GPUARR_CACHE_DIR", "",
    "directory of the on-disk JIT kernel cache (empty: $HOME/.cache/gpuarr/kernels)"};
IntSetting lazy_min_size{
    "GPUARR_LAZY_MIN_SIZE", int64_t(1) << 20, 0, kMax,
    "elementwise results of at least this many elements are deferred and fused into chains "
    "(0: never defer)"};
BoolSetting fast_operator_slots{
    "GPUARR_FAST_OPERATOR_SLOTS", true,
    "ndarray's arithmetic operators and fused calls use type slots that call C++ directly "
    "(0: CPython's generic slots)"};
BoolSetting segv_backtrace{
    "GPUARR_SEGV_BACKTRACE", false,
    "print a native backtrace on SIGSEGV/SIGBUS (read when gpuarr is imported)"};
EnumSetting<LuRouteChoice> lu_route{
    "GPUARR_LU_ROUTE", {"auto", "cusolver"},
    "LU for inv, solve, det: auto = our kernels where they serve (small matrices' "
    "Gauss-Jordan, the blocked LU on sm_90), cusolver = the libraries' always (cuSOLVER "
    "Xgetrf a matrix, cuBLAS's batched LU)"};
IntSetting det_cublas_max_n{
    "GPUARR_DET_CUBLAS_MAX_N", -1, -1, kMax,
    "det/slogdet take cuBLAS getrfBatched iff n <= this (-1: the measured rule)"};
IntSetting inv_early_min_n{
    "GPUARR_INV_EARLY_MIN_N", 512, 0, kMax,
    "from this n on (and on the batched route), inv/solve read the singular check right "
    "after the factorisation"};
IntSetting qr_own_max_n{
    "GPUARR_QR_OWN_MAX_N", kQrOwnDefaultMaxN, 0, kMax,
    "qr of real matrices up to this size takes our one-block kernel (0: cuSOLVER always)"};
IntSetting svd_polar_min_n{
    "GPUARR_SVD_POLAR_MIN_N", kSvdPolarDefaultMinN, 0, kMax,
    "svd of one real matrix takes the polar route (QDWH + eigh) from this min(m, n) on "
    "(0: cuSOLVER gesvd always)"};
IntSetting tridiag_tail{
    "GPUARR_TRIDIAG_TAIL", 512, 1, kMax,
    "last columns of eigh's own tridiagonal reduction (float64, n >= 3072) left to "
    "cusolverDnDsytrd"};

}  // namespace gpuarr::config
