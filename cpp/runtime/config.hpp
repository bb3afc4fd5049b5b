// Every GPUARR_* environment variable the library reads, in one registry (config.cpp holds
// the table: name, type, default, meaning). A setting is read from the environment once, on
// its first use, and cached: get() is an atomic load. gpuarr.show_config() lists them all.
// Tests change a setting for a scope (ScopedOverride; gpuarr._config.override in Python)
// instead of the process environment. Host-only: no CUDA headers.
#pragma once
#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace gpuarr::config {

enum class Kind { Bool, Int, Choice, Text };
// Where the current value came from.
enum class Origin { Default, Environment, Override };
const char* origin_name(Origin o);  // "default", "environment", "override"

// The parsers behind the settings; each throws ValueError naming `name` and the bad text.
// Booleans: 1/0, true/false, on/off, yes/no (any case).
bool parse_bool(const char* name, const std::string& text);
// A decimal integer in [lo, hi].
int64_t parse_int(const char* name, const std::string& text, int64_t lo, int64_t hi);
// The index of `text` in `choices`.
int parse_choice(const char* name, const std::string& text,
                 const std::vector<std::string>& choices);

// One setting; constructing one registers it (config.cpp's table defines the library's; a
// test may define its own). Do not read a setting during static initialisation.
class Setting {
 public:
  const char* name() const { return name_; }
  Kind kind() const { return kind_; }
  const char* meaning() const { return meaning_; }
  std::string type_text() const;     // "bool", "int in [0, 256]", "one of auto|cusolver", "path"
  std::string default_text() const;  // the default as it would be written in the environment
  std::string value_text() const;    // the current value, read from the environment if not yet
  Origin origin() const;             // reads the environment if not yet read

  // A value for a scope, parsed as the environment's text would be (ValueError if bad);
  // pop_override restores the value (and origin) from before the matching push.
  void push_override(const std::string& text);
  void pop_override();

  Setting(const Setting&) = delete;
  Setting& operator=(const Setting&) = delete;
  virtual ~Setting();  // leaves the registry

 protected:
  Setting(const char* name, Kind kind, const char* meaning, int64_t default_value,
          std::string default_text, int64_t lo, int64_t hi, std::vector<std::string> choices);

  // The cached value (bool 0/1, int, choice index); reads the environment on first use.
  int64_t number() const {
    if (loaded_.load(std::memory_order_acquire)) return value_.load(std::memory_order_relaxed);
    return load();
  }
  std::string text() const;
  int64_t exchange_number(int64_t v);

 private:
  struct Saved {
    bool loaded;
    int64_t value;
    std::string text;
    Origin origin;
  };
  int64_t load() const;  // under mu_: the environment's value, or the default
  void load_locked() const;
  int64_t parse(const std::string& text, std::string* text_out) const;

  const char* name_;
  Kind kind_;
  const char* meaning_;
  int64_t default_value_;
  std::string default_text_;
  int64_t lo_, hi_;
  std::vector<std::string> choices_;

  mutable std::mutex mu_;
  mutable std::atomic<bool> loaded_{false};
  mutable std::atomic<int64_t> value_{0};
  mutable std::string text_;  // Kind::Text's value
  mutable Origin origin_ = Origin::Default;
  std::vector<Saved> overrides_;
};

class BoolSetting : public Setting {
 public:
  BoolSetting(const char* name, bool default_value, const char* meaning);
  bool get() const { return number() != 0; }
};

class IntSetting : public Setting {
 public:
  IntSetting(const char* name, int64_t default_value, int64_t lo, int64_t hi,
             const char* meaning);
  int64_t get() const { return number(); }
  // Sets the value until changed again (a run-time setter); returns the previous value.
  int64_t exchange(int64_t v) { return exchange_number(v); }
};

// One of a fixed list of words; get() is the word's index (the order of `choices`).
class ChoiceSetting : public Setting {
 public:
  ChoiceSetting(const char* name, std::vector<std::string> choices, const char* meaning);
  int get() const { return static_cast<int>(number()); }
};

// A ChoiceSetting read as an enum whose values are the indices of the choices.
template <class E>
class EnumSetting : public ChoiceSetting {
 public:
  using ChoiceSetting::ChoiceSetting;
  E get() const { return static_cast<E>(ChoiceSetting::get()); }
};

// Free text (a path); empty means unset. Not for hot paths (copies under a lock).
class TextSetting : public Setting {
 public:
  TextSetting(const char* name, const char* default_text, const char* meaning);
  std::string get() const { return text(); }
};

// Every setting, in the table's order.
const std::vector<Setting*>& all_settings();
// The setting named `name` ("GPUARR_..."); ValueError if there is none.
Setting& find(const std::string& name);

// push_override for the lifetime of the object.
class ScopedOverride {
 public:
  ScopedOverride(Setting& s, const std::string& text) : s_(s) { s_.push_override(text); }
  ~ScopedOverride() { s_.pop_override(); }
  ScopedOverride(const ScopedOverride&) = delete;
  ScopedOverride& operator=(const ScopedOverride&) = delete;

 private:
  Setting& s_;
};

// ---- the settings (config.cpp: defaults, ranges, meanings) ------------------------------
// Host <-> device transfers.
extern IntSetting transfer_threads;        // GPUARR_TRANSFER_THREADS (0: automatic)
extern IntSetting staging_chunk_mb;        // GPUARR_STAGING_CHUNK_MB
extern IntSetting staging_buffers;         // GPUARR_STAGING_BUFFERS
extern IntSetting staging_threshold_kb;    // GPUARR_STAGING_THRESHOLD_KB
extern IntSetting readback_spin_us;        // GPUARR_READBACK_SPIN_US
// Memory, JIT, dispatch.
extern BoolSetting small_block_cache;      // GPUARR_SMALL_BLOCK_CACHE
extern TextSetting cache_dir;              // GPUARR_CACHE_DIR
extern IntSetting lazy_min_size;           // GPUARR_LAZY_MIN_SIZE
extern BoolSetting fast_operator_slots;    // GPUARR_FAST_OPERATOR_SLOTS
extern BoolSetting segv_backtrace;         // GPUARR_SEGV_BACKTRACE
// Linear algebra routes (overrides of the measured rules, to re-measure them on a GPU).
enum class LuRouteChoice { Auto = 0, Cusolver = 1 };
extern EnumSetting<LuRouteChoice> lu_route;            // GPUARR_LU_ROUTE
extern IntSetting det_cublas_max_n;        // GPUARR_DET_CUBLAS_MAX_N (-1: the measured rule)
extern IntSetting inv_early_min_n;         // GPUARR_INV_EARLY_MIN_N
extern IntSetting qr_own_max_n;            // GPUARR_QR_OWN_MAX_N
extern IntSetting svd_polar_min_n;         // GPUARR_SVD_POLAR_MIN_N
extern IntSetting tridiag_tail;            // GPUARR_TRIDIAG_TAIL

}  // namespace gpuarr::config
