// einsum subscripts: parsing and validation against the operands' shapes, with NumPy's
// (C einsum's) rules and error messages. Plain C++: the execution lives in ops/einsum.cu.
#pragma once
#include <string>
#include <vector>

#include "core/layout.hpp"

namespace gpuarr {

// Labels are small integers: 'A'..'Z' -> 0..25, 'a'..'z' -> 26..51 (ASCII order, which is
// the order of NumPy's implicit output), and the broadcast (ellipsis) dimensions take
// 52, 53, ... counted from the left of the broadcast block (right-aligned across operands).
constexpr int kEinsumLetterLabels = 52;

struct EinsumSpec {
  int num_labels = 0;                            // labels are 0 .. num_labels-1
  std::vector<std::vector<int>> operand_labels;  // per operand, one label per dimension
  std::vector<int> output_labels;                // distinct
  Dims label_sizes;                              // broadcast size of each label
};

// Parses `subscripts` ("ij,jk->ik", "...ii", "i,i", ...) for operands of `shapes`.
// Throws ValueError with NumPy's messages.
EinsumSpec parse_einsum(const std::string& subscripts, const std::vector<Dims>& shapes);

// The character of a letter label (for messages and tests).
char einsum_label_char(int label);

// One operand as a view over the label space: for each distinct label of the operand, its
// size and the summed byte stride (repeated labels take the diagonal: strides add;
// dimensions of size 1 against a larger label size broadcast with stride 0).
struct EinsumOperandView {
  std::vector<int> labels;  // distinct, in order of first appearance
  Dims shape;
  Dims strides;
};
EinsumOperandView einsum_operand_view(const EinsumSpec& spec, int operand, const Dims& shape,
                                      const Dims& strides);

// The order in which to contract operands pairwise: each step names two positions in the
// current list of terms, i < j (the result takes position i and position j is removed).
// `greedy`: the pair whose result is smallest first; otherwise left to right.
std::vector<std::pair<int, int>> einsum_contraction_order(const EinsumSpec& spec, bool greedy);

}  // namespace gpuarr
