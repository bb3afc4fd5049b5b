#include "core/npy_header.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

#include "core/errors.hpp"

namespace gpuarr::npy {
namespace {

const char kMagicPrefix[] = "\x93NUMPY";  // 6 bytes

std::string eof_message(const char* what, int64_t expected, int64_t got) {
  return std::string("EOF: reading ") + what + ", expected " + std::to_string(expected) +
         " bytes got " + std::to_string(got);
}

// ---- a small parser of the Python literals a header holds (ast.literal_eval subset) ----

struct Value {
  enum Kind { Str, Int, Bool, None, Float, Tuple, List, Dict } kind = None;
  std::string text;                // Str: the string; Float: the source text
  int64_t i = 0;                   // Int, Bool
  bool int_overflow = false;       // an integer beyond int64 (repr from text)
  std::vector<Value> items;        // Tuple, List; Dict: key, value, key, value, ...
};

std::string repr(const Value& v) {
  switch (v.kind) {
    case Value::Str: return py_str_repr(v.text);
    case Value::Int: return v.int_overflow ? v.text : std::to_string(v.i);
    case Value::Bool: return v.i ? "True" : "False";
    case Value::None: return "None";
    case Value::Float: return v.text;
    case Value::Tuple:
    case Value::List: {
      const bool tup = v.kind == Value::Tuple;
      std::string s = tup ? "(" : "[";
      for (size_t k = 0; k < v.items.size(); ++k) {
        if (k) s += ", ";
        s += repr(v.items[k]);
      }
      if (tup && v.items.size() == 1) s += ",";
      return s + (tup ? ")" : "]");
    }
    case Value::Dict: {
      std::string s = "{";
      for (size_t k = 0; k + 1 < v.items.size(); k += 2) {
        if (k) s += ", ";
        s += repr(v.items[k]) + ": " + repr(v.items[k + 1]);
      }
      return s + "}";
    }
  }
  return "";
}

struct SyntaxError {};

class LiteralParser {
 public:
  explicit LiteralParser(const std::string& s) : s_(s) {}

  Value parse_all() {
    Value v = value();
    skip_space();
    if (pos_ != s_.size()) throw SyntaxError{};
    return v;
  }

 private:
  void skip_space() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' ||
                                s_[pos_] == '\r' || s_[pos_] == '\f' || s_[pos_] == '\v')) {
      ++pos_;
    }
  }
  char peek() {
    skip_space();
    return pos_ < s_.size() ? s_[pos_] : '\0';
  }
  bool eat(char c) {
    if (peek() == c) {
      ++pos_;
      return true;
    }
    return false;
  }

  Value value() {
    if (++depth_ > 100) throw SyntaxError{};
    Value v;
    const char c = peek();
    if (c == '\'' || c == '"') {
      v = string();
      // Adjacent string literals concatenate, as in Python.
      while (peek() == '\'' || peek() == '"') v.text += string().text;
    } else if (c == '(') {
      ++pos_;
      v = sequence(')', Value::Tuple);
    } else if (c == '[') {
      ++pos_;
      v = sequence(']', Value::List);
    } else if (c == '{') {
      ++pos_;
      v = dict();
    } else if (c == '-' || c == '+' || std::isdigit(static_cast<unsigned char>(c))) {
      v = number();
    } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      size_t start = pos_;
      while (pos_ < s_.size() &&
             (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_')) {
        ++pos_;
      }
      const std::string word = s_.substr(start, pos_ - start);
      if (word == "True" || word == "False") {
        v.kind = Value::Bool;
        v.i = word == "True";
      } else if (word == "None") {
        v.kind = Value::None;
      } else {
        throw SyntaxError{};
      }
    } else {
      throw SyntaxError{};
    }
    --depth_;
    return v;
  }

  Value string() {
    const char q = s_[pos_++];
    Value v;
    v.kind = Value::Str;
    while (true) {
      if (pos_ >= s_.size() || s_[pos_] == '\n') throw SyntaxError{};
      char c = s_[pos_++];
      if (c == q) break;
      if (c == '\\') {
        if (pos_ >= s_.size()) throw SyntaxError{};
        const char e = s_[pos_++];
        switch (e) {
          case 'n': v.text += '\n'; break;
          case 't': v.text += '\t'; break;
          case 'r': v.text += '\r'; break;
          case '0': v.text += '\0'; break;
          case '\\': case '\'': case '"': v.text += e; break;
          case '\n': break;
          default: v.text += '\\'; v.text += e;  // Python keeps unknown escapes
        }
        continue;
      }
      v.text += c;
    }
    return v;
  }

  Value number() {
    const size_t start = pos_;
    bool neg = false;
    while (pos_ < s_.size() && (s_[pos_] == '-' || s_[pos_] == '+')) {
      if (s_[pos_] == '-') neg = !neg;
      ++pos_;
      skip_space();
    }
    const size_t digits = pos_;
    while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) ||
                                s_[pos_] == '.' || s_[pos_] == '_')) {
      ++pos_;
    }
    std::string tok = s_.substr(digits, pos_ - digits);
    // Python 2 wrote long integers as "3L" (NumPy strips the suffix for 1.0/2.0 files).
    if (!tok.empty() && (tok.back() == 'L' || tok.back() == 'l')) tok.pop_back();
    Value v;
    if (tok.empty()) throw SyntaxError{};
    const bool all_digits = std::all_of(tok.begin(), tok.end(),
                                        [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)); });
    if (!all_digits) {
      // A float such as 3.0 or 1e3: kept as text (a header never has a valid one).
      bool ok = std::isdigit(static_cast<unsigned char>(tok[0])) || tok[0] == '.';
      for (char ch : tok) {
        if (!(std::isdigit(static_cast<unsigned char>(ch)) || ch == '.' || ch == 'e' ||
              ch == 'E')) {
          ok = false;
        }
      }
      if (!ok) throw SyntaxError{};
      v.kind = Value::Float;
      v.text = (neg ? "-" : "") + tok;
      return v;
    }
    if (tok.size() > 1 && tok[0] == '0' && tok.find_first_not_of('0') != std::string::npos) {
      throw SyntaxError{};  // leading zeros are a syntax error in Python 3
    }
    v.kind = Value::Int;
    uint64_t mag = 0;
    for (char ch : tok) {
      const uint64_t d = static_cast<uint64_t>(ch - '0');
      if (mag > (UINT64_MAX - d) / 10) {
        v.int_overflow = true;
        break;
      }
      mag = mag * 10 + d;
    }
    if (!v.int_overflow && mag > static_cast<uint64_t>(INT64_MAX) + (neg ? 1 : 0)) {
      v.int_overflow = true;
    }
    if (v.int_overflow) {
      v.text = (neg ? "-" : "") + tok;
    } else {
      v.i = neg ? static_cast<int64_t>(0 - mag) : static_cast<int64_t>(mag);
    }
    (void)start;
    return v;
  }

  Value sequence(char close, Value::Kind kind) {
    Value v;
    v.kind = kind;
    bool saw_comma = false;
    while (true) {
      if (eat(close)) break;
      v.items.push_back(value());
      if (eat(',')) {
        saw_comma = true;
        continue;
      }
      if (eat(close)) break;
      throw SyntaxError{};
    }
    // "(3)" is the integer 3, not a tuple.
    if (kind == Value::Tuple && v.items.size() == 1 && !saw_comma) return v.items[0];
    return v;
  }

  Value dict() {
    Value v;
    v.kind = Value::Dict;
    while (true) {
      if (eat('}')) break;
      Value key = value();
      if (!eat(':')) throw SyntaxError{};
      Value val = value();
      // A repeated key keeps the last value, as Python's dict display does.
      bool replaced = false;
      for (size_t k = 0; k < v.items.size(); k += 2) {
        if (repr(v.items[k]) == repr(key)) {
          v.items[k + 1] = std::move(val);
          replaced = true;
          break;
        }
      }
      if (!replaced) {
        v.items.push_back(std::move(key));
        v.items.push_back(std::move(val));
      }
      if (eat(',')) continue;
      if (eat('}')) break;
      throw SyntaxError{};
    }
    return v;
  }

  const std::string& s_;
  size_t pos_ = 0;
  int depth_ = 0;
};

bool host_is_little_endian() {
  const uint16_t one = 1;
  unsigned char b;
  std::memcpy(&b, &one, 1);
  return b == 1;
}

}  // namespace

std::string py_bytes_repr(const std::string& s) {
  const bool has_sq = s.find('\'') != std::string::npos;
  const bool has_dq = s.find('"') != std::string::npos;
  const char q = (has_sq && !has_dq) ? '"' : '\'';
  std::string out = "b";
  out += q;
  static const char hex[] = "0123456789abcdef";
  for (unsigned char c : s) {
    if (c == static_cast<unsigned char>(q) || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c < 0x20 || c >= 0x7f) {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  out += q;
  return out;
}

std::string py_str_repr(const std::string& s) {
  // As Python's str repr for ASCII text; other bytes are shown as \x escapes of latin-1.
  std::string r = py_bytes_repr(s);
  return r.substr(1);
}

Version parse_magic(const std::string& first_bytes) {
  if (static_cast<int64_t>(first_bytes.size()) < kMagicLen) {
    throw ValueError(eof_message("magic string", kMagicLen,
                                 static_cast<int64_t>(first_bytes.size())));
  }
  if (first_bytes.compare(0, 6, kMagicPrefix, 6) != 0) {
    throw ValueError("the magic string is not correct; expected b'\\x93NUMPY', got " +
                     py_bytes_repr(first_bytes.substr(0, 6)));
  }
  Version v;
  v.major = static_cast<unsigned char>(first_bytes[6]);
  v.minor = static_cast<unsigned char>(first_bytes[7]);
  if (!((v.major == 1 || v.major == 2 || v.major == 3) && v.minor == 0)) {
    throw ValueError("we only support format version (1,0), (2,0), and (3,0), not (" +
                     std::to_string(v.major) + ", " + std::to_string(v.minor) + ")");
  }
  return v;
}

int length_field_size(const Version& v) { return v.major == 1 ? 2 : 4; }

int64_t parse_header_length(const std::string& field, const Version& v) {
  const int n = length_field_size(v);
  if (static_cast<int>(field.size()) < n) {
    throw ValueError(eof_message("array header length", n, static_cast<int64_t>(field.size())));
  }
  int64_t len = 0;
  for (int k = n - 1; k >= 0; --k) len = (len << 8) | static_cast<unsigned char>(field[k]);
  return len;
}

std::optional<DType> descr_to_dtype(const std::string& descr, bool* byteswap, bool* is_object) {
  *byteswap = false;
  *is_object = false;
  std::string d = descr;
  char order = '=';
  if (!d.empty() && (d[0] == '<' || d[0] == '>' || d[0] == '|' || d[0] == '=')) {
    order = d[0];
    d = d.substr(1);
  }
  if (d == "O" || d == "O8" || d == "object") {
    *is_object = true;
    return std::nullopt;
  }
  std::optional<DType> t;
  if (d == "?" || d == "b1" || d == "bool") {
    t = DType::Bool;
  } else if (d.size() >= 2 && std::string("iufc").find(d[0]) != std::string::npos &&
             std::all_of(d.begin() + 1, d.end(),
                         [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }) &&
             d.size() <= 4) {
    try {
      t = dtype_from_kind_and_size(d[0], std::stoll(d.substr(1)));
    } catch (const TypeError&) {
      return std::nullopt;
    }
  } else if (order == '=') {
    // A canonical name ("float64"); NumPy never writes these but accepts them.
    try {
      t = dtype_from_name(d);
    } catch (const TypeError&) {
      return std::nullopt;
    }
  } else {
    return std::nullopt;
  }
  if (itemsize(*t) > 1 && order != '|' && order != '=') {
    *byteswap = (order == '>') == host_is_little_endian();
  }
  return t;
}

std::string dtype_descr(DType t) {
  const char order = itemsize(t) == 1 ? '|' : (host_is_little_endian() ? '<' : '>');
  return std::string(1, order) + kind_char(t) + std::to_string(itemsize(t));
}

Header parse_header(const std::string& text, const Version& v, int64_t max_header_size) {
  (void)v;
  // NumPy compares the length of the decoded text; our headers are ASCII in practice.
  if (max_header_size >= 0 && static_cast<int64_t>(text.size()) > max_header_size) {
    throw ValueError("Header info length (" + std::to_string(text.size()) +
                     ") is large and may not be safe to load securely.\n"
                     "To allow loading, adjust `max_header_size` or fully trust the `.npy` "
                     "file using `allow_pickle=True`.\n"
                     "For safety against large resource use or crashes, sandboxing may be "
                     "necessary.");
  }
  Value d;
  try {
    d = LiteralParser(text).parse_all();
  } catch (const SyntaxError&) {
    throw ValueError("Cannot parse header: " + py_str_repr(text));
  }
  if (d.kind != Value::Dict) throw ValueError("Header is not a dictionary: " + repr(d));
  const Value* descr = nullptr;
  const Value* fortran = nullptr;
  const Value* shape = nullptr;
  bool bad_keys = d.items.size() != 6;
  for (size_t k = 0; k + 1 < d.items.size(); k += 2) {
    const Value& key = d.items[k];
    if (key.kind != Value::Str) {
      bad_keys = true;
      continue;
    }
    if (key.text == "descr") descr = &d.items[k + 1];
    else if (key.text == "fortran_order") fortran = &d.items[k + 1];
    else if (key.text == "shape") shape = &d.items[k + 1];
    else bad_keys = true;
  }
  if (bad_keys || !descr || !fortran || !shape) {
    std::vector<std::string> keys;
    for (size_t k = 0; k < d.items.size(); k += 2) keys.push_back(repr(d.items[k]));
    std::sort(keys.begin(), keys.end());
    std::string list = "[";
    for (size_t k = 0; k < keys.size(); ++k) list += (k ? ", " : "") + keys[k];
    throw ValueError("Header does not contain the correct keys: " + list + "]");
  }
  Header h;
  bool shape_ok = shape->kind == Value::Tuple;
  if (shape_ok) {
    for (const Value& x : shape->items) {
      // Python's bool is an int; a negative extent or one beyond int64 cannot be an array.
      if ((x.kind != Value::Int && x.kind != Value::Bool) || x.int_overflow || x.i < 0) {
        shape_ok = false;
        break;
      }
      h.shape.push_back(x.i);
    }
  }
  if (!shape_ok) throw ValueError("shape is not valid: " + repr(*shape));
  try {
    checked_size(h.shape, 1);
  } catch (const ValueError&) {
    throw ValueError("shape is not valid: " + repr(*shape));
  }
  if (fortran->kind != Value::Bool) {
    throw ValueError("fortran_order is not a valid bool: " + repr(*fortran));
  }
  h.fortran_order = fortran->i != 0;
  h.descr_repr = repr(*descr);
  if (descr->kind == Value::Str) {
    h.dtype = descr_to_dtype(descr->text, &h.byteswap, &h.is_object);
  } else if (descr->kind != Value::List) {
    // NumPy's descr_to_dtype raises TypeError for anything but a str or a list.
    throw ValueError("descr is not a valid dtype descriptor: " + h.descr_repr);
  }
  return h;
}

std::string format_header(DType t, bool fortran_order, const Dims& shape) {
  std::string shape_repr = "(";
  for (size_t k = 0; k < shape.size(); ++k) {
    if (k) shape_repr += ", ";
    shape_repr += std::to_string(shape[k]);
  }
  if (shape.size() == 1) shape_repr += ",";
  shape_repr += ")";
  std::string header = "{'descr': '" + dtype_descr(t) + "', 'fortran_order': " +
                       (fortran_order ? "True" : "False") + ", 'shape': " + shape_repr + ", }";
  if (!shape.empty()) {
    const int64_t grow = fortran_order ? shape.back() : shape.front();
    const int64_t digits = static_cast<int64_t>(std::to_string(grow).size());
    header += std::string(static_cast<size_t>(std::max<int64_t>(0, kGrowthAxisMaxDigits - digits)), ' ');
  }
  for (int major = 1; major <= 2; ++major) {
    const int64_t field = major == 1 ? 2 : 4;
    const int64_t hlen = static_cast<int64_t>(header.size()) + 1;
    const int64_t padlen = kArrayAlign - ((6 + 2 + field + hlen) % kArrayAlign);
    const int64_t total = hlen + padlen;
    if (major == 1 && total > 0xFFFF) continue;
    std::string out(kMagicPrefix, 6);
    out += static_cast<char>(major);
    out += '\0';
    for (int64_t k = 0; k < field; ++k) out += static_cast<char>((total >> (8 * k)) & 0xFF);
    out += header;
    out += std::string(static_cast<size_t>(padlen), ' ');
    out += '\n';
    return out;
  }
  throw ValueError("Header length too big for version=(2, 0)");
}

std::string truncated_data_message(const Dims& shape, int64_t count, int64_t got_items) {
  return "Failed to read all data for array. Expected " + shape_str(shape) + " = " +
         std::to_string(count) + " elements, could only read " + std::to_string(got_items) +
         " elements. (file seems not fully written?)";
}

void byteswap_inplace(void* data, int64_t nbytes, int unit) {
  auto* p = static_cast<unsigned char*>(data);
  if (unit <= 1) return;
  const int64_t n = nbytes / unit;
  switch (unit) {
    case 2:
      for (int64_t k = 0; k < n; ++k) std::swap(p[2 * k], p[2 * k + 1]);
      return;
    case 4:
      for (int64_t k = 0; k < n; ++k) {
        uint32_t x;
        std::memcpy(&x, p + 4 * k, 4);
        x = __builtin_bswap32(x);
        std::memcpy(p + 4 * k, &x, 4);
      }
      return;
    case 8:
      for (int64_t k = 0; k < n; ++k) {
        uint64_t x;
        std::memcpy(&x, p + 8 * k, 8);
        x = __builtin_bswap64(x);
        std::memcpy(p + 8 * k, &x, 8);
      }
      return;
    default:
      for (int64_t k = 0; k < n; ++k) std::reverse(p + unit * k, p + unit * (k + 1));
  }
}

}  // namespace gpuarr::npy
