// Bindings of the products: matmul (function and ndarray operators), dot family, einsum,
// cross, and the pieces of linalg.norm. Arguments are arranged in python/gpuarr/_products.py
// except for matmul and the operators, which come straight here.
#include <pybind11/stl.h>

#include "bindings/py_array.hpp"
#include "bindings/registry.hpp"
#include "core/errors.hpp"
#include "ops/products.hpp"

namespace gpuarr::bind {
namespace {

NDArray operand(py::handle obj) {
  if (is_gpuarr_array(obj)) return as_array(obj).a;
  py::object arr = to_device(obj, py::none(), false, py::none(), 0);
  return as_array(arr).a;
}

py::object matmul_py(py::handle a, py::handle b, py::handle out) {
  const NDArray x = operand(a), y = operand(b);
  if (out.is_none()) {
    NDArray r;
    {
      r = matmul(x, y, nullptr);
    }
    return make_owner(std::move(r));
  }
  py::handle o = out;
  if (py::isinstance<py::tuple>(out)) {
    py::tuple t = out.cast<py::tuple>();
    if (t.size() != 1) throw ValueError("The 'out' tuple must have exactly one entry");
    o = t[0];
  }
  if (!is_gpuarr_array(o)) throw TypeError("return arrays must be of ArrayType");
  matmul(x, y, &as_array(o).a);
  return py::reinterpret_borrow<py::object>(o);
}

py::object imatmul_py(py::handle self, py::handle b) {
  const NDArray y = operand(b);
  const NDArray& x = as_array(self).a;
  if (x.ndim() < 1 || y.ndim() < 2) {
    throw ValueError("inplace matrix multiplication requires the first operand to have at "
                     "least one and the second at least two dimensions.");
  }
  matmul(x, y, &as_array(self).a);
  return py::reinterpret_borrow<py::object>(self);
}

Dims dims_of(py::handle obj) { return shape_from_py(obj); }

}  // namespace

GPUARR_BINDINGS(110) {
  m.def("matmul", &matmul_py, py::arg("x1"), py::arg("x2"), py::pos_only(), py::kw_only(),
        py::arg("out") = py::none(), "Matrix product of two arrays (numpy.matmul).");
  py::object cls = m.attr("ndarray");
  cls.attr("__matmul__") = py::cpp_function(
      [](py::handle self, py::handle other) { return matmul_py(self, other, py::none()); },
      py::name("__matmul__"), py::is_method(cls));
  cls.attr("__rmatmul__") = py::cpp_function(
      [](py::handle self, py::handle other) { return matmul_py(other, self, py::none()); },
      py::name("__rmatmul__"), py::is_method(cls));
  cls.attr("__imatmul__") = py::cpp_function(&imatmul_py, py::name("__imatmul__"),
                                             py::is_method(cls));

  m.def("_dot", [](py::handle a, py::handle b) { return make_owner(dot(operand(a), operand(b))); });
  m.def("_vdot", [](py::handle a, py::handle b) { return make_owner(vdot(operand(a), operand(b))); });
  m.def("_inner", [](py::handle a, py::handle b) { return make_owner(inner(operand(a), operand(b))); });
  m.def("_kron", [](py::handle a, py::handle b) { return make_owner(kron(operand(a), operand(b))); });
  m.def("_tensordot", [](py::handle a, py::handle b, py::handle axes_a, py::handle axes_b) {
    return make_owner(tensordot(operand(a), dims_of(axes_a), operand(b), dims_of(axes_b)));
  });
  m.def("_vecdot", [](py::handle a, py::handle b, int64_t axis) {
    return make_owner(vecdot(operand(a), operand(b), axis));
  });
  m.def("_einsum", [](const std::string& subs, py::sequence ops, py::handle dtype, bool greedy) {
    std::vector<NDArray> arrays;
    for (py::handle o : ops) arrays.push_back(operand(o));
    const int dt = dtype.is_none() ? -1 : static_cast<int>(dtype_from_py(dtype));
    return make_owner(einsum(subs, arrays, dt, greedy));
  });
  m.def("_cross", [](py::handle a, py::handle b, int64_t axisa, int64_t axisb, int64_t axisc) {
    return make_owner(cross(operand(a), operand(b), axisa, axisb, axisc));
  });
  // op: 0 L1, 1 L2, 2 sum of squares, 3 max, 4 min, 5 count, 6 power p, 7 sum.
  m.def("_reduce_norm", [](py::handle x, py::handle axes, int op, double p, bool keepdims) {
    static const RowOp ops[] = {RowOp::NormL1,  RowOp::NormL2,    RowOp::NormSumSq,
                                RowOp::NormMax, RowOp::NormMin,   RowOp::NormCount,
                                RowOp::NormPow, RowOp::Sum};
    return make_owner(reduce_norm(operand(x), dims_of(axes), ops[op], p, keepdims));
  });
  m.def("_singular_values", [](py::handle x) {
    NDArray a = operand(x);
    NDArray s;
    {
      py::gil_scoped_release release;
      s = singular_values(a);
    }
    return make_owner(std::move(s));
  });
  // A view of x with `axes` moved to the end (in order) — used by norm's matrix paths.
  m.def("_move_axes_last", [](py::handle x, py::handle axes) {
    const NDArray& a = as_array(x).a;
    Dims ax;
    for (int64_t v : dims_of(axes)) ax.push_back(normalize_axis(v, a.ndim()));
    return make_view(x, move_axes_last(a, ax));
  });
  // A view with size-1 dims inserted at the (sorted, final-array) positions `axes`.
  m.def("_expand_axes", [](py::handle x, py::handle axes) {
    NDArray a = as_array(x).a;
    Dims ax = dims_of(axes);
    std::sort(ax.begin(), ax.end());
    for (int64_t d : ax) {
      a.shape.insert(a.shape.begin() + d, 1);
      a.strides.insert(a.strides.begin() + d, 0);
    }
    return make_view(x, a);
  });
}

}  // namespace gpuarr::bind
