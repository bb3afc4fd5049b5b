#include <gtest/gtest.h>

#include <string>

#include "core/einsum_parse.hpp"
#include "core/errors.hpp"

using namespace gpuarr;

namespace {

// Labels back to characters ('.' for broadcast dimensions), for compact expectations.
std::string chars(const std::vector<int>& labels) {
  std::string s;
  for (int l : labels) s += einsum_label_char(l);
  return s;
}

std::string error_of(const std::string& subs, const std::vector<Dims>& shapes) {
  try {
    parse_einsum(subs, shapes);
  } catch (const ValueError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(EinsumParse, ExplicitOutput) {
  auto s = parse_einsum("ij,jk->ik", {{2, 3}, {3, 4}});
  EXPECT_EQ(chars(s.operand_labels[0]), "ij");
  EXPECT_EQ(chars(s.operand_labels[1]), "jk");
  EXPECT_EQ(chars(s.output_labels), "ik");
  EXPECT_EQ(s.label_sizes[26 + ('i' - 'a')], 2);
  EXPECT_EQ(s.label_sizes[26 + ('j' - 'a')], 3);
  EXPECT_EQ(s.label_sizes[26 + ('k' - 'a')], 4);
}

TEST(EinsumParse, ImplicitOutputIsSortedSingletons) {
  EXPECT_EQ(chars(parse_einsum("ij,jk", {{2, 3}, {3, 4}}).output_labels), "ik");
  EXPECT_EQ(chars(parse_einsum("ji", {{2, 3}}).output_labels), "ij");
  EXPECT_EQ(chars(parse_einsum("ii", {{3, 3}}).output_labels), "");
  EXPECT_EQ(chars(parse_einsum("i,i", {{3}, {3}}).output_labels), "");
  EXPECT_EQ(chars(parse_einsum("i,j", {{3}, {4}}).output_labels), "ij");
  // Upper case sorts before lower case (ASCII), as in NumPy.
  EXPECT_EQ(chars(parse_einsum("bA", {{2, 3}}).output_labels), "Ab");
  EXPECT_EQ(chars(parse_einsum("iij", {{3, 3, 2}}).output_labels), "j");
}

TEST(EinsumParse, Ellipsis) {
  auto s = parse_einsum("...ij,...jk", {{5, 2, 3}, {3, 4}});
  EXPECT_EQ(s.num_labels, kEinsumLetterLabels + 1);
  EXPECT_EQ(chars(s.operand_labels[0]), ".ij");
  EXPECT_EQ(chars(s.operand_labels[1]), "jk");
  EXPECT_EQ(chars(s.output_labels), ".ik");
  EXPECT_EQ(s.label_sizes[kEinsumLetterLabels], 5);

  // Right-aligned broadcast dimensions, size-1 broadcasting.
  auto t = parse_einsum("...i,...i->...", {{4, 1, 3}, {5, 3}});
  EXPECT_EQ(t.operand_labels[0], (std::vector<int>{kEinsumLetterLabels, kEinsumLetterLabels + 1, 26 + 8}));
  EXPECT_EQ(t.operand_labels[1], (std::vector<int>{kEinsumLetterLabels + 1, 26 + 8}));
  EXPECT_EQ(t.label_sizes[kEinsumLetterLabels], 4);
  EXPECT_EQ(t.label_sizes[kEinsumLetterLabels + 1], 5);
  EXPECT_EQ(t.output_labels, (std::vector<int>{kEinsumLetterLabels, kEinsumLetterLabels + 1}));

  // Ellipsis in the middle, and covering no dimension.
  auto u = parse_einsum("i...j->j...i", {{2, 7, 8, 3}});
  EXPECT_EQ(chars(u.operand_labels[0]), "i..j");
  EXPECT_EQ(chars(u.output_labels), "j..i");
  auto v = parse_einsum("...ij->ji", {{2, 3}});
  EXPECT_EQ(chars(v.output_labels), "ji");
  // Spaces are ignored.
  EXPECT_EQ(chars(parse_einsum(" i j , j k -> i k ", {{2, 3}, {3, 4}}).output_labels), "ik");
}

TEST(EinsumParse, ScalarsAndNoOutput) {
  auto s = parse_einsum(",ij->ij", {{}, {2, 3}});
  EXPECT_TRUE(s.operand_labels[0].empty());
  EXPECT_EQ(chars(s.output_labels), "ij");
  EXPECT_EQ(chars(parse_einsum("ij->", {{2, 3}}).output_labels), "");
  EXPECT_EQ(chars(parse_einsum("->", {{}}).output_labels), "");
  EXPECT_EQ(chars(parse_einsum("", {{}}).output_labels), "");
}

TEST(EinsumParse, SizeOneBroadcastsAcrossOperands) {
  auto s = parse_einsum("ij,jk->ik", {{2, 1}, {3, 4}});
  EXPECT_EQ(s.label_sizes[26 + ('j' - 'a')], 3);
}

TEST(EinsumParse, Errors) {
  EXPECT_EQ(error_of("ijk", {{2, 3}}),
            "einstein sum subscripts string contains too many subscripts for operand 0");
  EXPECT_EQ(error_of("i,ijk", {{2}, {2, 3}}),
            "einstein sum subscripts string contains too many subscripts for operand 1");
  EXPECT_EQ(error_of("i", {{2, 3}}),
            "operand has more dimensions than subscripts given in einstein sum, but no '...' "
            "ellipsis provided to broadcast the extra dimensions.");
  // NumPy's (inverted) wording: a term too many says "more operands", one too few "fewer".
  EXPECT_EQ(error_of("i,j", {{2}}),
            "more operands provided to einstein sum function than specified in the subscripts "
            "string");
  EXPECT_EQ(error_of("i", {{2}, {2}}),
            "fewer operands provided to einstein sum function than specified in the subscripts "
            "string");
  EXPECT_EQ(error_of("i,j,k", {{2}, {2}}),
            "more operands provided to einstein sum function than specified in the subscripts "
            "string");
  // Earlier terms are parsed first, as in NumPy.
  EXPECT_EQ(error_of("ijk,j,k", {{2}, {2}}),
            "einstein sum subscripts string contains too many subscripts for operand 0");
  EXPECT_EQ(error_of("i", {}),
            "must specify the einstein sum subscripts string and at least one operand");
  EXPECT_EQ(error_of("i1", {{2, 3}}),
            "invalid subscript '1' in einstein sum subscripts string, subscripts must be letters");
  EXPECT_EQ(error_of("ij->ii", {{2, 3}}),
            "einstein sum subscripts string includes output subscript 'i' multiple times");
  EXPECT_EQ(error_of("ij->k", {{2, 3}}),
            "einstein sum subscripts string included output subscript 'k' which never appeared "
            "in an input");
  EXPECT_EQ(error_of("...i->i", {{2, 3}}),
            "output has more dimensions than subscripts given in einstein sum, but no '...' "
            "ellipsis provided to broadcast the extra dimensions.");
  EXPECT_EQ(error_of("ij-ji", {{2, 3}}),
            "einstein sum subscript string does not contain proper '->' output specified");
  EXPECT_EQ(error_of("i..j", {{2, 3}}),
            "einstein sum subscripts string contains a '.' that is not part of an '...'");
  EXPECT_EQ(error_of("...i...", {{2, 3}}),
            "einstein sum subscripts string contains a '.' that is not part of an '...'");
  EXPECT_EQ(error_of("ii", {{2, 3}}),
            "dimensions in operand 0 for collapsing index 'i' don't match (2 != 3)");
  EXPECT_EQ(error_of("ij,jk", {{2, 3}, {4, 5}}),
            "operands could not be broadcast together with remapped shapes "
            "[original->remapped]: (2,3)->(2,newaxis,3) (4,5)->(newaxis,5,4)");
}

TEST(EinsumParse, OperandViewTakesDiagonalsAndBroadcasts) {
  auto s = parse_einsum("iij,jk", {{3, 3, 1}, {4, 5}});
  auto v = einsum_operand_view(s, 0, {3, 3, 1}, {24, 8, 8});
  EXPECT_EQ(chars(v.labels), "ij");
  EXPECT_EQ(v.shape, (Dims{3, 4}));
  EXPECT_EQ(v.strides, (Dims{32, 0}));
  auto w = einsum_operand_view(s, 1, {4, 5}, {40, 8});
  EXPECT_EQ(chars(w.labels), "jk");
  EXPECT_EQ(w.strides, (Dims{40, 8}));
  auto t = parse_einsum("iii->i", {{2, 2, 2}});
  auto x = einsum_operand_view(t, 0, {2, 2, 2}, {32, 16, 8});
  EXPECT_EQ(x.shape, (Dims{2}));
  EXPECT_EQ(x.strides, (Dims{56}));
}

TEST(EinsumParse, ContractionOrder) {
  auto s = parse_einsum("ij,jk,kl->il", {{2, 3}, {3, 4}, {4, 5}});
  auto left = einsum_contraction_order(s, false);
  ASSERT_EQ(left.size(), 2u);
  EXPECT_EQ(left[0], (std::pair<int, int>(0, 1)));
  EXPECT_EQ(left[1], (std::pair<int, int>(0, 1)));
  // Greedy: a huge first pair is avoided.
  auto g = parse_einsum("ij,jk,k->i", {{100, 100}, {100, 100}, {100}});
  auto order = einsum_contraction_order(g, true);
  ASSERT_EQ(order.size(), 2u);
  EXPECT_EQ(order[0], (std::pair<int, int>(1, 2)));
  EXPECT_TRUE(einsum_contraction_order(parse_einsum("ij", {{2, 3}}), true).empty());
}
