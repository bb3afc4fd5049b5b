#include <gtest/gtest.h>

#include <climits>

#include "core/advanced_indexing.hpp"
#include "core/errors.hpp"

using namespace gpuarr;

namespace {
constexpr int64_t kLo = LLONG_MIN, kHi = LLONG_MAX;
IndexEntry all() { return IndexEntry::slice(kLo, kHi, 1); }
IndexEntry arr(Dims s) { return IndexEntry::int_array(std::move(s)); }
Dims cstrides(const Dims& shape, int64_t isz = 8) { return contiguous_strides(shape, isz, 'C'); }

std::string index_error(const Dims& shape, const std::vector<IndexEntry>& idx) {
  try {
    plan_advanced_index(shape, cstrides(shape), idx);
  } catch (const IndexError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST(AdvancedIndexing, SingleArrayReplacesAxis) {
  const Dims shape{4, 5, 6};
  auto p = plan_advanced_index(shape, cstrides(shape), {arr({2, 3})});
  EXPECT_EQ(p.result_shape, (Dims{2, 3, 5, 6}));
  EXPECT_EQ(p.index_pos, 0);
  EXPECT_EQ(p.src_strides, (Dims{0, 0, 48, 8}));
  ASSERT_EQ(p.arrays.size(), 1u);
  EXPECT_EQ(p.arrays[0].axis, 0);
  EXPECT_EQ(p.arrays[0].axis_size, 4);
  EXPECT_EQ(p.arrays[0].stride, 240);
  EXPECT_EQ(p.result_strides(8), (Dims{720, 240, 48, 8}));
  EXPECT_EQ(p.index_strides(), (Dims{3, 1, 0, 0}));
}

TEST(AdvancedIndexing, InPlaceWhenAdjacentWithNumpyMemoryOrder) {
  // np.zeros((2,3,4))[:, [0,1]] -> shape (2,2,4), strides (32,64,8)
  const Dims shape{2, 3, 4};
  auto p = plan_advanced_index(shape, cstrides(shape), {all(), arr({2})});
  EXPECT_EQ(p.result_shape, (Dims{2, 2, 4}));
  EXPECT_EQ(p.index_pos, 1);
  EXPECT_EQ(p.result_strides(8), (Dims{32, 64, 8}));
  EXPECT_EQ(p.src_strides, (Dims{96, 0, 8}));
  // [:, [[0,1]], :] -> (2,1,2,4) strides (32,128,64,8)
  p = plan_advanced_index(shape, cstrides(shape), {all(), arr({1, 2}), all()});
  EXPECT_EQ(p.result_shape, (Dims{2, 1, 2, 4}));
  EXPECT_EQ(p.result_strides(8), (Dims{32, 128, 64, 8}));
  EXPECT_EQ(p.index_strides(), (Dims{0, 2, 1, 0}));
}

TEST(AdvancedIndexing, SeparatedArraysGoFirst) {
  const Dims shape{2, 3, 4};
  // a[[0,1], :, [0,1]] -> (2, 3)
  auto p = plan_advanced_index(shape, cstrides(shape), {arr({2}), all(), arr({2})});
  EXPECT_EQ(p.result_shape, (Dims{2, 3}));
  EXPECT_EQ(p.index_pos, 0);
  // a[0, :, [0,1]]: the integer counts as an advanced index -> (2, 3)
  p = plan_advanced_index(shape, cstrides(shape), {IndexEntry::integer(0), all(), arr({2})});
  EXPECT_EQ(p.result_shape, (Dims{2, 3}));
  // a[:, 0, [0,1]] -> adjacent -> (2, 2)
  p = plan_advanced_index(shape, cstrides(shape), {all(), IndexEntry::integer(1), arr({2})});
  EXPECT_EQ(p.result_shape, (Dims{2, 2}));
  EXPECT_EQ(p.offset, 32);
  // a[:, [0], ..., [0]]: an empty ellipsis still separates -> (1, 2)
  p = plan_advanced_index(shape, cstrides(shape), {all(), arr({1}), IndexEntry::ellipsis(), arr({1})});
  EXPECT_EQ(p.result_shape, (Dims{1, 2}));
  // a[:, [0], None, [0]] -> (1, 2, 1)
  p = plan_advanced_index(shape, cstrides(shape), {all(), arr({1}), IndexEntry::newaxis(), arr({1})});
  EXPECT_EQ(p.result_shape, (Dims{1, 2, 1}));
  // a[None, [0,1]] -> (1, 2, 3, 4)
  p = plan_advanced_index(shape, cstrides(shape), {IndexEntry::newaxis(), arr({2})});
  EXPECT_EQ(p.result_shape, (Dims{1, 2, 3, 4}));
  EXPECT_EQ(p.index_pos, 1);
}

TEST(AdvancedIndexing, BoolScalars) {
  const Dims shape{2, 3, 4};
  auto p = plan_advanced_index(shape, cstrides(shape), {IndexEntry::bool_scalar(true)});
  EXPECT_EQ(p.result_shape, (Dims{1, 2, 3, 4}));
  p = plan_advanced_index(shape, cstrides(shape), {IndexEntry::bool_scalar(false)});
  EXPECT_EQ(p.result_shape, (Dims{0, 2, 3, 4}));
  // a[[0], True, [0]] -> (1, 4); a[[0], :, True] -> (1, 3, 4); a[:, [0], True] -> (2, 1, 4)
  p = plan_advanced_index(shape, cstrides(shape), {arr({1}), IndexEntry::bool_scalar(true), arr({1})});
  EXPECT_EQ(p.result_shape, (Dims{1, 4}));
  p = plan_advanced_index(shape, cstrides(shape), {arr({1}), all(), IndexEntry::bool_scalar(true)});
  EXPECT_EQ(p.result_shape, (Dims{1, 3, 4}));
  p = plan_advanced_index(shape, cstrides(shape), {all(), arr({1}), IndexEntry::bool_scalar(true)});
  EXPECT_EQ(p.result_shape, (Dims{2, 1, 4}));
  EXPECT_EQ(index_error(shape, {IndexEntry::bool_scalar(false), arr({2})}),
            "shape mismatch: indexing arrays could not be broadcast together with shapes (0,) (2,) ");
  // 0-d array
  p = plan_advanced_index({}, {}, {IndexEntry::bool_scalar(true)});
  EXPECT_EQ(p.result_shape, (Dims{1}));
}

TEST(AdvancedIndexing, Broadcasting) {
  const Dims shape{4, 5, 6};
  auto p = plan_advanced_index(shape, cstrides(shape), {arr({2, 1}), arr({3})});
  EXPECT_EQ(p.result_shape, (Dims{2, 3, 6}));
  EXPECT_EQ(p.index_shape, (Dims{2, 3}));
  EXPECT_EQ(index_error(shape, {arr({2, 2}), arr({3})}),
            "shape mismatch: indexing arrays could not be broadcast together with shapes (2,2) (3,) ");
  // 0-d arrays behave as integers for the shape
  p = plan_advanced_index(shape, cstrides(shape), {arr({}), all(), arr({})});
  EXPECT_EQ(p.result_shape, (Dims{5}));
}

TEST(AdvancedIndexing, Errors) {
  const Dims shape{2, 3, 4};
  EXPECT_EQ(index_error(shape, {arr({1}), arr({1}), arr({1}), arr({1})}),
            "too many indices for array: array is 3-dimensional, but 4 were indexed");
  EXPECT_EQ(index_error(shape, {IndexEntry::integer(5), arr({1})}),
            "index 5 is out of bounds for axis 0 with size 2");
  EXPECT_EQ(index_error(shape, {arr({1}), IndexEntry::integer(-4)}),
            "index -4 is out of bounds for axis 1 with size 3");
  EXPECT_EQ(index_error(shape, {IndexEntry::ellipsis(), arr({1}), IndexEntry::ellipsis()}),
            "an index can only have a single ellipsis ('...')");
}

TEST(AdvancedIndexing, CheckIndexBoolShapes) {
  const Dims shape{2, 3, 4};
  auto msg = [&](const std::vector<IndexEntry>& idx) -> std::string {
    try {
      check_index(shape, idx);
    } catch (const IndexError& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_EQ(msg({IndexEntry::bool_array({4})}),
            "boolean index did not match indexed array along axis 0; size of axis is 2 but size "
            "of corresponding boolean axis is 4");
  EXPECT_EQ(msg({all(), IndexEntry::bool_array({5})}),
            "boolean index did not match indexed array along axis 1; size of axis is 3 but size "
            "of corresponding boolean axis is 5");
  EXPECT_EQ(msg({IndexEntry::bool_array({2, 2})}),
            "boolean index did not match indexed array along axis 1; size of axis is 3 but size "
            "of corresponding boolean axis is 2");
  // A mask axis of size 0 matches any size (NumPy's rule); the other axes still must match.
  EXPECT_EQ(msg({IndexEntry::bool_array({0, 0})}), "");
  EXPECT_EQ(msg({IndexEntry::bool_array({0, 3, 0})}), "");
  EXPECT_EQ(msg({IndexEntry::bool_array({2, 0})}), "");
  EXPECT_EQ(msg({IndexEntry::bool_array({0, 2})}),
            "boolean index did not match indexed array along axis 1; size of axis is 3 but size "
            "of corresponding boolean axis is 2");
  EXPECT_EQ(msg({IndexEntry::bool_array({1, 0})}),
            "boolean index did not match indexed array along axis 0; size of axis is 2 but size "
            "of corresponding boolean axis is 1");
  // too many indices wins over the mask mismatch (NumPy checks the count first)
  EXPECT_EQ(msg({IndexEntry::bool_array({4}), IndexEntry::integer(0), IndexEntry::integer(0),
                 IndexEntry::integer(0)}),
            "too many indices for array: array is 3-dimensional, but 4 were indexed");
  auto first = check_index(shape, {IndexEntry::ellipsis(), IndexEntry::bool_array({3, 4})});
  EXPECT_EQ(first, (std::vector<int64_t>{-1, 1}));
  first = check_index(shape, {IndexEntry::bool_scalar(true), IndexEntry::newaxis(), all(),
                              IndexEntry::bool_array({3, 4})});
  EXPECT_EQ(first, (std::vector<int64_t>{-1, -1, 0, 1}));
}

TEST(AdvancedIndexing, ExpandBoolArrays) {
  std::vector<size_t> origin;
  auto ex = expand_bool_arrays({all(), IndexEntry::bool_array({3, 4}), arr({2})}, {7}, &origin);
  ASSERT_EQ(ex.size(), 4u);
  EXPECT_EQ(ex[1].kind, IndexEntry::Kind::IntArray);
  EXPECT_EQ(ex[1].shape, (Dims{7}));
  EXPECT_EQ(ex[2].shape, (Dims{7}));
  EXPECT_EQ(origin, (std::vector<size_t>{0, 1, 1, 2}));
  // a 2-d mask over (2,3) with [0,1] -> broadcast error lists (6,) (6,) (2,)
  const Dims shape{2, 3, 4};
  auto e2 = expand_bool_arrays({IndexEntry::bool_array({2, 3}), arr({2})}, {6});
  EXPECT_EQ(index_error(shape, e2),
            "shape mismatch: indexing arrays could not be broadcast together with shapes (6,) "
            "(6,) (2,) ");
  auto p = plan_advanced_index(shape, cstrides(shape), expand_bool_arrays({IndexEntry::bool_array({2, 3})}, {6}));
  EXPECT_EQ(p.result_shape, (Dims{6, 4}));
  EXPECT_EQ(p.result_strides(8), (Dims{32, 8}));
}

TEST(AdvancedIndexing, NegativeStridesAndSlices) {
  const Dims shape{5, 6};
  Dims strides{-48, 8};
  auto p = plan_advanced_index(shape, strides, {IndexEntry::slice(4, kLo, -2), arr({3})});
  EXPECT_EQ(p.result_shape, (Dims{3, 3}));
  EXPECT_EQ(p.offset, 4 * -48);
  EXPECT_EQ(p.src_strides, (Dims{96, 0}));
  EXPECT_EQ(p.arrays[0].stride, 8);
}

TEST(AdvancedIndexing, ValueBroadcast) {
  EXPECT_EQ(setitem_value_strides({1, 2}, {0, 8}, {2}), (Dims{8}));
  EXPECT_EQ(setitem_value_strides({}, {}, {2, 3}), (Dims{0, 0}));
  EXPECT_EQ(setitem_value_strides({3, 1}, {8, 8}, {2, 3, 4}), (Dims{0, 8, 0}));
  try {
    setitem_value_strides({3}, {8}, {2});
    FAIL();
  } catch (const ValueError& e) {
    EXPECT_STREQ(e.what(),
                 "shape mismatch: value array of shape (3,) could not be broadcast to indexing "
                 "result of shape (2,)");
  }
  try {
    setitem_value_strides({4}, {8}, {1, 3});
    FAIL();
  } catch (const ValueError& e) {
    EXPECT_STREQ(e.what(),
                 "shape mismatch: value array of shape (4,) could not be broadcast to indexing "
                 "result of shape (1,3)");
  }
}

TEST(AdvancedIndexing, Modes) {
  int64_t v = -1;
  EXPECT_TRUE(apply_index_mode(v, 5, IndexMode::Raise));
  EXPECT_EQ(v, 4);
  v = 5;
  EXPECT_FALSE(apply_index_mode(v, 5, IndexMode::Raise));
  v = -7;
  EXPECT_TRUE(apply_index_mode(v, 5, IndexMode::Wrap));
  EXPECT_EQ(v, 3);
  v = -7;
  EXPECT_TRUE(apply_index_mode(v, 5, IndexMode::Clip));
  EXPECT_EQ(v, 0);
  v = 70;
  EXPECT_TRUE(apply_index_mode(v, 5, IndexMode::Clip));
  EXPECT_EQ(v, 4);
  EXPECT_THROW(index_mode_from_string("foo"), ValueError);
}

TEST(AdvancedIndexing, BasicItems) {
  const auto items = basic_items({IndexEntry::integer(-1), IndexEntry::slice(1, kHi, 2),
                                  IndexEntry::newaxis(), IndexEntry::ellipsis()});
  ASSERT_EQ(items.size(), 4u);
  EXPECT_EQ(items[0].kind, IndexItem::Kind::Integer);
  EXPECT_EQ(items[0].value, -1);
  EXPECT_EQ(items[1].kind, IndexItem::Kind::Slice);
  EXPECT_EQ(items[1].start, 1);
  EXPECT_EQ(items[1].stop, kHi);
  EXPECT_EQ(items[1].step, 2);
  EXPECT_EQ(items[2].kind, IndexItem::Kind::NewAxis);
  EXPECT_EQ(items[3].kind, IndexItem::Kind::Ellipsis);
  EXPECT_THROW(basic_items({all(), arr({2})}), std::logic_error);
  EXPECT_THROW(basic_items({IndexEntry::bool_scalar(true)}), std::logic_error);
}

TEST(AdvancedIndexing, MaskNonzero) {
  // [[0, 1, 0], [2, 0, 1]]: any nonzero byte is true, as NumPy reads bool memory.
  const uint8_t m[] = {0, 1, 0, 2, 0, 1};
  auto nz = mask_nonzero(m, {2, 3});
  ASSERT_EQ(nz.size(), 2u);
  EXPECT_EQ(nz[0], (std::vector<int64_t>{0, 1, 1}));
  EXPECT_EQ(nz[1], (std::vector<int64_t>{1, 0, 2}));
  nz = mask_nonzero(m, {6});
  EXPECT_EQ(nz, (std::vector<std::vector<int64_t>>{{1, 3, 5}}));
  // (2, 1, 3): the middle coordinate is always 0
  nz = mask_nonzero(m, {2, 1, 3});
  EXPECT_EQ(nz[0], (std::vector<int64_t>{0, 1, 1}));
  EXPECT_EQ(nz[1], (std::vector<int64_t>{0, 0, 0}));
  EXPECT_EQ(nz[2], (std::vector<int64_t>{1, 0, 2}));
  const uint8_t none[] = {0, 0, 0, 0};
  nz = mask_nonzero(none, {2, 2});
  ASSERT_EQ(nz.size(), 2u);
  EXPECT_TRUE(nz[0].empty() && nz[1].empty());
  nz = mask_nonzero(nullptr, {3, 0});  // empty mask: no element is read
  ASSERT_EQ(nz.size(), 2u);
  EXPECT_TRUE(nz[0].empty());
}

TEST(AdvancedIndexing, FullMaskAndItsAssignment) {
  EXPECT_TRUE(is_full_mask_key({IndexEntry::bool_array({2, 3})}, 2));
  EXPECT_FALSE(is_full_mask_key({IndexEntry::bool_array({2})}, 2));
  EXPECT_FALSE(is_full_mask_key({IndexEntry::bool_array({2, 3}), IndexEntry::ellipsis()}, 2));
  EXPECT_FALSE(is_full_mask_key({arr({2})}, 1));
  EXPECT_FALSE(is_full_mask_key({IndexEntry::bool_scalar(true)}, 0));
  EXPECT_NO_THROW(check_mask_assignment(0, 1, 4));
  EXPECT_NO_THROW(check_mask_assignment(1, 1, 4));
  EXPECT_NO_THROW(check_mask_assignment(1, 4, 4));
  EXPECT_NO_THROW(check_mask_assignment(1, 0, 0));
  try {
    check_mask_assignment(2, 4, 4);
    FAIL();
  } catch (const TypeError& e) {
    EXPECT_STREQ(e.what(), "NumPy boolean array indexing assignment requires a 0 or "
                           "1-dimensional input, input has 2 dimensions");
  }
  try {
    check_mask_assignment(1, 3, 4);
    FAIL();
  } catch (const ValueError& e) {
    EXPECT_STREQ(e.what(), "NumPy boolean array indexing assignment cannot assign 3 input "
                           "values to the 4 output values where the mask is true");
  }
}

TEST(AdvancedIndexing, IndexValuesAndOffsets) {
  const int64_t v[] = {0, -5, 4, 5, -6};
  EXPECT_NO_THROW(check_index_values(v, 3, 0, 5));
  try {
    check_index_values(v, 5, 2, 5);  // 5 comes before -6
    FAIL();
  } catch (const IndexError& e) {
    EXPECT_STREQ(e.what(), "index 5 is out of bounds for axis 2 with size 5");
  }
  EXPECT_THROW(check_index_values(v, 1, 0, 0), IndexError);
  // Element 5 of (2, 3) is (1, 2): C-contiguous bytes 40; broadcast row (0, 8) bytes 16;
  // a transposed (3, 2) int64 array seen as (2, 3) with strides (8, 16): 8 + 32.
  EXPECT_EQ(broadcast_element_offset(5, {2, 3}, {24, 8}), 40);
  EXPECT_EQ(broadcast_element_offset(5, {2, 3}, {0, 8}), 16);
  EXPECT_EQ(broadcast_element_offset(5, {2, 3}, {8, 16}), 40);
  EXPECT_EQ(broadcast_element_offset(0, {}, {}), 0);
}

TEST(AdvancedIndexing, PutClaimsFitSmallArraysAndDenseIndices) {
  EXPECT_TRUE(put_claims_fit(1 << 24, 1));         // small arrays whatever the count
  EXPECT_TRUE(put_claims_fit(int64_t(1) << 30, int64_t(1) << 24));  // 64 elements an index
  EXPECT_FALSE(put_claims_fit(int64_t(1) << 30, (int64_t(1) << 24) - 1));
  EXPECT_FALSE(put_claims_fit((1 << 24) + 1, 3000));
  EXPECT_TRUE(put_claims_fit((1 << 24) + 64, (1 << 18) + 1));
  EXPECT_FALSE(put_claims_fit((1 << 24) + 65, (1 << 18) + 1));
}

TEST(AdvancedIndexing, TakeFromEmptyAxes) {
  const Dims shape{0, 3};
  auto p = plan_advanced_index(shape, cstrides(shape), {arr({2})});
  try {
    check_take_axes(p, IndexMode::Wrap);
    FAIL();
  } catch (const IndexError& e) {
    EXPECT_STREQ(e.what(), "cannot do a non-empty take from an empty axes.");
  }
  EXPECT_THROW(check_take_axes(p, IndexMode::Clip), IndexError);
  EXPECT_NO_THROW(check_take_axes(p, IndexMode::Raise));
  p = plan_advanced_index(shape, cstrides(shape), {arr({0})});  // an empty index
  EXPECT_NO_THROW(check_take_axes(p, IndexMode::Wrap));
  p = plan_advanced_index({4, 0}, cstrides({4, 0}), {arr({2})});  // the indexed axis is not empty
  EXPECT_NO_THROW(check_take_axes(p, IndexMode::Clip));
}

TEST(AdvancedIndexing, HostIndexLayout) {
  const Dims shape{4, 5, 6};
  // Basic keys: the shape of the view, C-contiguous strides.
  auto l = host_index_layout(shape, 8, {IndexEntry::integer(1), IndexEntry::slice(kLo, kHi, 2)}, {{}, {}});
  EXPECT_EQ(l.shape, (Dims{3, 6}));
  EXPECT_EQ(l.strides, (Dims{48, 8}));
  // a[:, [[0, 4]], 2] -> (4, 1, 2): index dims in place
  const int64_t idx[] = {0, 4};
  l = host_index_layout(shape, 8, {all(), arr({1, 2}), IndexEntry::integer(2)},
                        {{}, {idx, nullptr}, {}});
  EXPECT_EQ(l.shape, (Dims{4, 1, 2}));
  EXPECT_EQ(l.strides, (Dims{8, 64, 32}));
  // a[mask] with a (4, 5) mask of 3 true elements -> (3, 6)
  std::vector<uint8_t> mask(20, 0);
  mask[1] = mask[7] = mask[19] = 1;
  l = host_index_layout(shape, 8, {IndexEntry::bool_array({4, 5})}, {{nullptr, mask.data()}});
  EXPECT_EQ(l.shape, (Dims{3, 6}));
  EXPECT_EQ(l.strides, (Dims{48, 8}));
  // a mask and an array: a[mask2, [0, 4]] broadcasts (3,) against (2,)
  try {
    host_index_layout(shape, 8, {IndexEntry::bool_array({4, 5}), arr({2})},
                      {{nullptr, mask.data()}, {idx, nullptr}});
    FAIL();
  } catch (const IndexError& e) {
    EXPECT_STREQ(e.what(), "shape mismatch: indexing arrays could not be broadcast together "
                           "with shapes (3,) (3,) (2,) ");
  }
  // Values are checked array by array, after the shapes.
  const int64_t bad0[] = {0, 4};   // axis 0 has size 4
  const int64_t bad1[] = {7, 9};   // axis 1 has size 5
  try {
    host_index_layout(shape, 8, {arr({2}), arr({2})}, {{bad0, nullptr}, {bad1, nullptr}});
    FAIL();
  } catch (const IndexError& e) {
    EXPECT_STREQ(e.what(), "index 4 is out of bounds for axis 0 with size 4");
  }
  try {
    host_index_layout(shape, 8, {arr({2}), arr({3})}, {{bad0, nullptr}, {bad1, nullptr}});
    FAIL();
  } catch (const IndexError& e) {
    EXPECT_STREQ(e.what(), "shape mismatch: indexing arrays could not be broadcast together "
                           "with shapes (2,) (3,) ");
  }
  // An empty broadcast index checks no values: a[[5], []] -> (0, 6)
  const int64_t five[] = {5};
  const int64_t nothing[] = {0};
  l = host_index_layout(shape, 8, {arr({1}), arr({0})}, {{five, nullptr}, {nothing, nullptr}});
  EXPECT_EQ(l.shape, (Dims{0, 6}));
}
