#include "core/einsum_parse.hpp"

#include <algorithm>
#include <cctype>
#include <set>

#include "core/errors.hpp"

namespace gpuarr {
namespace {

int letter_label(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return 26 + (c - 'a');
  return -1;
}

std::string invalid_subscript(char c) {
  return std::string("invalid subscript '") + c +
         "' in einstein sum subscripts string, subscripts must be letters";
}

// One term of the subscripts: letters before and after an optional ellipsis.
struct Term {
  std::vector<int> before, after;
  bool ellipsis = false;
};

Term parse_term(const std::string& s, bool output) {
  Term t;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == ' ') continue;
    if (c == '.') {
      if (t.ellipsis || i + 2 >= s.size() || s[i + 1] != '.' || s[i + 2] != '.') {
        (void)output;
        throw ValueError("einstein sum subscripts string contains a '.' that is not part of "
                         "an '...'");
      }
      t.ellipsis = true;
      i += 2;
      continue;
    }
    const int l = letter_label(c);
    if (l < 0) throw ValueError(invalid_subscript(c));
    (t.ellipsis ? t.after : t.before).push_back(l);
  }
  return t;
}

}  // namespace

char einsum_label_char(int label) {
  if (label < 26) return static_cast<char>('A' + label);
  if (label < kEinsumLetterLabels) return static_cast<char>('a' + label - 26);
  return '.';
}

EinsumSpec parse_einsum(const std::string& subscripts, const std::vector<Dims>& shapes) {
  std::string inputs = subscripts, output;
  bool explicit_output = false;
  const size_t dash = subscripts.find('-');
  if (dash != std::string::npos) {
    if (dash + 1 >= subscripts.size() || subscripts[dash + 1] != '>') {
      throw ValueError("einstein sum subscript string does not contain proper '->' output "
                       "specified");
    }
    inputs = subscripts.substr(0, dash);
    output = subscripts.substr(dash + 2);
    explicit_output = true;
  }
  std::vector<std::string> parts;
  {
    size_t start = 0;
    while (true) {
      const size_t comma = inputs.find(',', start);
      parts.push_back(inputs.substr(start, comma - start));
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  }
  const size_t nop = shapes.size();
  if (nop == 0) {
    throw ValueError("must specify the einstein sum subscripts string and at least one operand");
  }

  std::vector<Term> terms;
  std::vector<int64_t> nbroadcast(nop, 0);
  int64_t max_broadcast = 0;
  for (size_t i = 0; i < nop; ++i) {
    // NumPy's checks, in its order (each before parsing term i) and with its wording: a
    // comma after the last operand's term says "more operands", a missing comma before the
    // last operand says "fewer operands" (the reverse of what happened; NumPy's text).
    if (i + 1 == nop && parts.size() > nop) {
      throw ValueError("more operands provided to einstein sum function than specified in the "
                       "subscripts string");
    }
    if (i + 1 < nop && i + 1 >= parts.size()) {
      throw ValueError("fewer operands provided to einstein sum function than specified in the "
                       "subscripts string");
    }
    Term t = parse_term(parts[i], false);
    const int64_t ndim = static_cast<int64_t>(shapes[i].size());
    const int64_t nletters = static_cast<int64_t>(t.before.size() + t.after.size());
    if (nletters > ndim) {
      throw ValueError("einstein sum subscripts string contains too many subscripts for "
                       "operand " + std::to_string(i));
    }
    if (!t.ellipsis && nletters < ndim) {
      throw ValueError("operand has more dimensions than subscripts given in einstein sum, "
                       "but no '...' ellipsis provided to broadcast the extra dimensions.");
    }
    nbroadcast[i] = ndim - nletters;
    max_broadcast = std::max(max_broadcast, nbroadcast[i]);
    terms.push_back(std::move(t));
  }

  EinsumSpec spec;
  spec.num_labels = kEinsumLetterLabels + static_cast<int>(max_broadcast);
  spec.label_sizes.assign(spec.num_labels, -1);
  std::vector<int> counts(spec.num_labels, 0);
  for (size_t i = 0; i < nop; ++i) {
    std::vector<int> labels = terms[i].before;
    for (int64_t j = 0; j < nbroadcast[i]; ++j) {
      labels.push_back(kEinsumLetterLabels + static_cast<int>(max_broadcast - nbroadcast[i] + j));
    }
    labels.insert(labels.end(), terms[i].after.begin(), terms[i].after.end());
    for (int l : labels) ++counts[l];
    spec.operand_labels.push_back(std::move(labels));
  }

  if (explicit_output) {
    Term t = parse_term(output, true);
    std::vector<bool> seen(spec.num_labels, false);
    auto add = [&](int l) {
      if (seen[l]) {
        throw ValueError(std::string("einstein sum subscripts string includes output "
                                     "subscript '") + einsum_label_char(l) + "' multiple times");
      }
      if (counts[l] == 0) {
        throw ValueError(std::string("einstein sum subscripts string included output "
                                     "subscript '") + einsum_label_char(l) +
                         "' which never appeared in an input");
      }
      seen[l] = true;
      spec.output_labels.push_back(l);
    };
    for (int l : t.before) add(l);
    if (t.ellipsis) {
      for (int64_t j = 0; j < max_broadcast; ++j) {
        spec.output_labels.push_back(kEinsumLetterLabels + static_cast<int>(j));
      }
    } else if (max_broadcast > 0) {
      throw ValueError("output has more dimensions than subscripts given in einstein sum, but "
                       "no '...' ellipsis provided to broadcast the extra dimensions.");
    }
    for (int l : t.after) add(l);
  } else {
    for (int64_t j = 0; j < max_broadcast; ++j) {
      spec.output_labels.push_back(kEinsumLetterLabels + static_cast<int>(j));
    }
    for (int l = 0; l < kEinsumLetterLabels; ++l) {
      if (counts[l] == 1) spec.output_labels.push_back(l);
    }
  }

  // Sizes: repeated labels within an operand must agree exactly; across operands a size
  // of 1 broadcasts.
  bool mismatch = false;
  for (size_t i = 0; i < nop; ++i) {
    const auto& labels = spec.operand_labels[i];
    for (size_t d = 0; d < labels.size(); ++d) {
      for (size_t e = 0; e < d; ++e) {
        if (labels[e] == labels[d] && shapes[i][e] != shapes[i][d]) {
          throw ValueError("dimensions in operand " + std::to_string(i) +
                           " for collapsing index '" + einsum_label_char(labels[d]) +
                           "' don't match (" + std::to_string(shapes[i][e]) + " != " +
                           std::to_string(shapes[i][d]) + ")");
        }
      }
    }
  }
  for (size_t i = 0; i < nop; ++i) {
    const auto& labels = spec.operand_labels[i];
    for (size_t d = 0; d < labels.size(); ++d) {
      int64_t& s = spec.label_sizes[labels[d]];
      const int64_t n = shapes[i][d];
      if (s == -1 || s == 1) {
        s = n;
      } else if (n != s && n != 1) {
        mismatch = true;
      }
    }
  }
  for (auto& s : spec.label_sizes) {
    if (s == -1) s = 1;
  }
  if (mismatch) {
    // NumPy's iterator message: each operand's shape remapped onto the iteration labels
    // (output labels, then the summed ones in label order).
    std::vector<int> iter = spec.output_labels;
    for (int l = 0; l < spec.num_labels; ++l) {
      if (counts[l] > 0 && std::find(iter.begin(), iter.end(), l) == iter.end()) iter.push_back(l);
    }
    std::string msg =
        "operands could not be broadcast together with remapped shapes [original->remapped]:";
    for (size_t i = 0; i < nop; ++i) {
      msg += " " + compact_shape_str(shapes[i]) + "->(";
      const auto& labels = spec.operand_labels[i];
      for (size_t k = 0; k < iter.size(); ++k) {
        if (k) msg += ",";
        auto it = std::find(labels.begin(), labels.end(), iter[k]);
        msg += it == labels.end() ? std::string("newaxis")
                                  : std::to_string(shapes[i][it - labels.begin()]);
      }
      msg += ")";
    }
    throw ValueError(msg);
  }
  return spec;
}

EinsumOperandView einsum_operand_view(const EinsumSpec& spec, int operand, const Dims& shape,
                                      const Dims& strides) {
  EinsumOperandView v;
  const auto& labels = spec.operand_labels[operand];
  for (size_t d = 0; d < labels.size(); ++d) {
    const int l = labels[d];
    const int64_t size = spec.label_sizes[l];
    const int64_t stride = (shape[d] == 1 && size != 1) ? 0 : strides[d];
    auto it = std::find(v.labels.begin(), v.labels.end(), l);
    if (it == v.labels.end()) {
      v.labels.push_back(l);
      v.shape.push_back(size);
      v.strides.push_back(stride);
    } else {
      v.strides[it - v.labels.begin()] += stride;
    }
  }
  return v;
}

std::vector<std::pair<int, int>> einsum_contraction_order(const EinsumSpec& spec, bool greedy) {
  std::vector<std::set<int>> terms;
  for (const auto& labels : spec.operand_labels) terms.emplace_back(labels.begin(), labels.end());
  const std::set<int> out(spec.output_labels.begin(), spec.output_labels.end());
  std::vector<std::pair<int, int>> steps;
  auto result_of = [&](size_t i, size_t j) {
    std::set<int> keep = out;
    for (size_t k = 0; k < terms.size(); ++k) {
      if (k != i && k != j) keep.insert(terms[k].begin(), terms[k].end());
    }
    std::set<int> r;
    for (int l : terms[i]) if (keep.count(l)) r.insert(l);
    for (int l : terms[j]) if (keep.count(l)) r.insert(l);
    return r;
  };
  while (terms.size() > 1) {
    size_t bi = 0, bj = 1;
    if (greedy) {
      double best = -1;
      for (size_t i = 0; i < terms.size(); ++i) {
        for (size_t j = i + 1; j < terms.size(); ++j) {
          double size = 1;
          for (int l : result_of(i, j)) size *= static_cast<double>(spec.label_sizes[l]);
          // Cost: the result's size plus the work of the contraction.
          double work = 1;
          for (int l : terms[i]) work *= static_cast<double>(spec.label_sizes[l]);
          for (int l : terms[j]) if (!terms[i].count(l)) work *= static_cast<double>(spec.label_sizes[l]);
          const double cost = size + work;
          if (best < 0 || cost < best) {
            best = cost;
            bi = i;
            bj = j;
          }
        }
      }
    }
    std::set<int> r = result_of(bi, bj);
    steps.emplace_back(static_cast<int>(bi), static_cast<int>(bj));
    terms[bi] = std::move(r);
    terms.erase(terms.begin() + static_cast<long>(bj));
  }
  return steps;
}

}  // namespace gpuarr
