// gpuarr's ufunc objects (gpuarr.add, gpuarr.sqrt, ...) and the ndarray operators: Python
// objects become operand descriptions, the planner (core/ufunc_plan.hpp) decides the loop,
// errors, copies, deferral and layout, and this file carries the plan out (allocate, copy,
// launch) and converts the result back.
#include <pybind11/stl.h>

#include <cstring>
#include <optional>
#include <iterator>
#include <utility>

#include "bindings/fast_slots.hpp"
#include "bindings/py_array.hpp"
#include "bindings/registry.hpp"
#include "core/errors.hpp"
#include "core/promotion.hpp"
#include "core/ufunc_plan.hpp"
#include "ops/array_ops.hpp"
#include "ops/lazy_elementwise.hpp"
#include "runtime/deferred_work.hpp"
#include "ops/ufunc.hpp"
#include "runtime/device.hpp"

namespace gpuarr::bind {
namespace {

struct PyUfunc {
  const UfuncDef* def;
};

// One input: the Python object, the array behind it, and its description for the planner.
struct Operand {
  py::handle obj;
  const NDArray* array = nullptr;
  UfuncOperand d;
};

const py::object& numpy_generic() {
  static auto* g = new py::object(py::module_::import("numpy").attr("generic"));
  return *g;
}

// Classifies one input (kind and promotion operand); false when gpuarr does not take this
// type.
bool classify(py::handle h, Operand& op) {
  op.obj = h;
  if (is_gpuarr_array(h)) {
    op.d.kind = UfuncOperandKind::Array;
    op.array = &as_array(h).a;
    op.d.promo = {op.array->dtype, WeakKind::None};
    return true;
  }
  PyObject* o = h.ptr();
  op.d.kind = UfuncOperandKind::WeakScalar;
  PromotionOperand& promo = op.d.promo;
  // Exact Python types first: numpy.float64 and numpy.complex128 subclass float and
  // complex but are strong (NEP 50).
  if (PyBool_Check(o)) promo = {DType::Bool, WeakKind::Bool};
  else if (PyFloat_CheckExact(o)) promo = {DType::Float64, WeakKind::Float};
  else if (PyLong_CheckExact(o)) promo = {DType::Int64, WeakKind::Int};
  else if (PyComplex_CheckExact(o)) promo = {DType::Complex128, WeakKind::Complex};
  else if (py::isinstance(h, numpy_generic())) {
    op.d.kind = UfuncOperandKind::StrongScalar;
    promo = {dtype_from_py(h.attr("dtype")), WeakKind::None};
  } else if (PyLong_Check(o)) promo = {DType::Int64, WeakKind::Int};
  else if (PyFloat_Check(o)) promo = {DType::Float64, WeakKind::Float};
  else if (PyComplex_Check(o)) promo = {DType::Complex128, WeakKind::Complex};
  else return false;
  return true;
}

void describe_array(const NDArray& a, UfuncOperand& d) {
  d.kind = UfuncOperandKind::Array;
  d.promo = {a.dtype, WeakKind::None};
  d.shape = &a.shape;
  d.strides = &a.strides;
  d.offset = a.offset;
  d.memory = a.memory.get();
}

// Completes a classified input's description: the view of an array, the value of a Python
// int or bool, and, where the ufunc reads it, whether a scalar exponent is negative.
void describe(Operand& op, bool sign_needed) {
  UfuncOperand& d = op.d;
  if (d.kind == UfuncOperandKind::Array) return describe_array(*op.array, d);
  PyObject* o = op.obj.ptr();
  if (d.promo.weak == WeakKind::Int || d.promo.weak == WeakKind::Bool) {
    int overflow = 0;
    d.int_value = PyLong_AsLongLongAndOverflow(o, &overflow);
    d.int_overflow = static_cast<int8_t>(overflow);
    if (overflow > 0) {
      PyLong_AsUnsignedLongLong(o);
      d.fits_uint64 = !PyErr_Occurred();
      PyErr_Clear();
    }
    d.negative = overflow ? overflow < 0 : d.int_value < 0;
  } else if (sign_needed && PyFloat_CheckExact(o)) {
    d.negative = PyFloat_AS_DOUBLE(o) < 0;
  } else if (sign_needed) {
    const int lt = PyObject_RichCompareBool(o, py::int_(0).ptr(), Py_LT);
    if (lt < 0) PyErr_Clear();  // complex: unordered, not negative
    d.negative = lt == 1;
  }
}

[[noreturn]] void unsupported_type(py::handle h) {
  throw TypeError("Unsupported type " + py::repr(py::type::of(h)).cast<std::string>() +
                  ": gpuarr operations take gpuarr arrays and scalars; move host data with "
                  "gpuarr.asarray");
}

template <class T> void put(unsigned char* out, T v) { std::memcpy(out, &v, sizeof(T)); }

// A Python scalar as one element of `t` (its truth value, 0 or 1, when `truth`), fast for
// the common cases; NumPy's conversion (and its OverflowError for out-of-range Python
// ints) otherwise.
void scalar_to_bytes(const Operand& op, DType t, unsigned char* out, bool truth = false) {
  const UfuncOperand& d = op.d;
  py::handle obj = op.obj;
  if (d.kind == UfuncOperandKind::WeakScalar && t != DType::Float16) {
    if (d.promo.weak == WeakKind::Float) {
      const double v = PyFloat_AS_DOUBLE(obj.ptr());
      switch (t) {
        case DType::Float32: return put(out, static_cast<float>(v));
        case DType::Float64: return put(out, v);
        case DType::Complex64: put(out, static_cast<float>(v)); return put(out + 4, 0.0f);
        case DType::Complex128: put(out, v); return put(out + 8, 0.0);
        default: break;
      }
    } else if ((d.promo.weak == WeakKind::Int || d.promo.weak == WeakKind::Bool) &&
               !d.int_overflow) {
      const long long v = truth ? d.int_value != 0 : d.int_value;
      switch (t) {
        case DType::Bool: return put(out, static_cast<bool>(v != 0));
        case DType::Int8: if (v >= -128 && v <= 127) return put(out, static_cast<int8_t>(v)); break;
        case DType::Int16: if (v >= -32768 && v <= 32767) return put(out, static_cast<int16_t>(v)); break;
        case DType::Int32: if (v >= INT32_MIN && v <= INT32_MAX) return put(out, static_cast<int32_t>(v)); break;
        case DType::Int64: return put(out, static_cast<int64_t>(v));
        case DType::UInt8: if (v >= 0 && v <= 255) return put(out, static_cast<uint8_t>(v)); break;
        case DType::UInt16: if (v >= 0 && v <= 65535) return put(out, static_cast<uint16_t>(v)); break;
        case DType::UInt32: if (v >= 0 && v <= UINT32_MAX) return put(out, static_cast<uint32_t>(v)); break;
        case DType::UInt64: if (v >= 0) return put(out, static_cast<uint64_t>(v)); break;
        case DType::Float32: return put(out, static_cast<float>(v));
        case DType::Float64: return put(out, static_cast<double>(v));
        case DType::Complex64: put(out, static_cast<float>(v)); return put(out + 4, 0.0f);
        case DType::Complex128: put(out, static_cast<double>(v)); return put(out + 8, 0.0);
        default: break;
      }
    }
  }
  if (truth) {
    static auto* one = new py::int_(1);
    static auto* zero = new py::int_(0);
    obj = d.int_value != 0 ? *one : *zero;
  }
  const std::string bytes = scalar_bytes(obj, t, d.kind == UfuncOperandKind::WeakScalar
                                                     ? ScalarCast::Assign
                                                     : ScalarCast::Unsafe);
  std::memcpy(out, bytes.data(), bytes.size());
}

// The constant result of a comparison that needs no kernel (UfuncPlan::constant).
py::object constant_result(const UfuncPlan& plan, const Operand* ops, py::handle out_obj) {
  const NDArray* like = plan.constant_like >= 0 ? ops[plan.constant_like].array : nullptr;
  const int device = like ? like->device() : (require_device(), current_device());
  DeviceGuard guard(device);
  NDArray result = empty_array(like ? like->shape : Dims{}, DType::Bool, 'C');
  fill_array(result, &plan.constant_value);
  if (!out_obj.is_none()) {
    assign_array(as_array(out_obj).a, result);
    return py::reinterpret_borrow<py::object>(out_obj);
  }
  return make_owner(std::move(result));
}

}  // namespace

// Calls ufunc `u` on `nin` inputs. `out` is None or a gpuarr array. The planner
// (core/ufunc_plan.hpp) decides; this carries the plan out.
py::object call_ufunc(const UfuncDef& u, const py::handle* inputs, py::handle out_obj,
                      std::optional<DType> dtype, Casting casting) {
  const int nin = u.nin;
  Operand ops[kMaxUfuncInputs];
  UfuncOperand desc[kMaxUfuncInputs];
  for (int k = 0; k < nin; ++k) {
    if (!classify(inputs[k], ops[k])) unsupported_type(inputs[k]);
    describe(ops[k], k == 1 && u.has(kUfuncNonnegativeIntExponent));
    desc[k] = ops[k].d;
  }
  UfuncCall call;
  call.ufunc = &u;
  call.inputs = desc;
  const NDArray* out_array = nullptr;
  UfuncOperand out_desc;
  if (!out_obj.is_none()) {
    if (is_gpuarr_array(out_obj)) {
      out_array = &as_array(out_obj).a;
      describe_array(*out_array, out_desc);
      call.out = &out_desc;
    } else {
      call.out_not_array = true;
    }
  }
  call.dtype = dtype;
  call.casting = casting;
  if (u.lazy_op) call.defer_min_size = lazy_min_size();
  UfuncPlan plan = plan_ufunc_call(call);
  if (plan.constant) return constant_result(plan, ops, out_obj);
  const UfuncLoopTypes& loop = plan.converting >= 0 ? u.converting_loops[plan.converting].types
                                                    : u.loop_types[plan.loop];

  int device = -1;
  for (int k = 0; k < nin && device < 0; ++k)
    if (ops[k].array) device = ops[k].array->device();
  if (device < 0 && out_array) device = out_array->device();
  if (device < 0) {
    require_device();
    device = current_device();
  }
  DeviceGuard guard(device);

  if (plan.defer) {
    LazyOperand operands[kMaxUfuncInputs];
    for (int k = 0; k < nin; ++k) {
      if (ops[k].array) operands[k].array = ops[k].array;
      else scalar_to_bytes(ops[k], loop.out, operands[k].scalar);
    }
    // Deferred operands have the loop's dtype: a converting loop is never deferred.
    const UfuncLaunch compiled = plan.converting >= 0 ? nullptr : u.launchers[plan.loop];
    if (auto deferred = defer_elementwise(*u.lazy_op, loop.out, plan.shape, operands, nin, compiled))
      return make_owner(std::move(*deferred));
  }

  // Inputs in the loop's types.
  NDArray copies[kMaxUfuncInputs];
  UfuncOperandView views[kMaxUfuncInputs + 1];
  for (int k = 0; k < nin; ++k) {
    UfuncOperandView& v = views[k + 1];
    switch (plan.use[k]) {
      case UfuncInputUse::Convert:
      case UfuncInputUse::CopyForOverlap:
        copies[k] = copy_array(*ops[k].array, loop.in[k], 'K');
        ops[k].array = &copies[k];
        describe_array(copies[k], desc[k]);
        [[fallthrough]];
      case UfuncInputUse::AsIs:
      case UfuncInputUse::Relayout:  // set later, by plan_ufunc_launch
        v.data = ops[k].array->data();
        break;
      case UfuncInputUse::Scalar:
      case UfuncInputUse::ScalarTruth:
        v.is_scalar = true;
        scalar_to_bytes(ops[k], loop.in[k], v.scalar, plan.use[k] == UfuncInputUse::ScalarTruth);
        break;
    }
  }

  // The output: `out` itself when it has the loop's dtype, else a fresh array.
  NDArray result;
  if (plan.write_out) {
    result = *out_array;
  } else {
    const int like = ufunc_result_like(desc, nin, plan.shape);
    result = like >= 0 ? empty_like_array(*ops[like].array, loop.out, 'K')
                       : empty_array(plan.shape, loop.out, 'C');
  }
  views[0].data = result.data();
  plan_ufunc_launch(plan, desc, nin, result.strides);  // plan.shape is the launch's from here
  bool relayout = false;
  for (int k = 0; k < nin; ++k) {
    if (plan.use[k] != UfuncInputUse::Relayout) continue;
    copies[k] = empty_like_array(result, ops[k].array->dtype, 'K');
    assign_array(copies[k], *ops[k].array);
    ops[k].array = &copies[k];
    describe_array(copies[k], desc[k]);
    views[k + 1].data = copies[k].data();
    relayout = true;
  }
  if (relayout) {
    plan.shape = result.shape;
    plan_ufunc_launch(plan, desc, nin, result.strides);
  }
  for (int k = 0; k <= nin; ++k) views[k].strides = &plan.strides[k];
  const UfuncLaunch launch =
      plan.converting >= 0 ? u.converting_launchers[plan.converting] : u.launchers[plan.loop];
  launch(plan.shape, views, stream_for(result));

  if (out_array) {
    if (!plan.write_out) assign_array(*out_array, result);
    return py::reinterpret_borrow<py::object>(out_obj);
  }
  return make_owner(std::move(result));
}

namespace {

std::optional<DType> dtype_arg(py::handle dtype) {
  if (dtype.is_none()) return std::nullopt;
  return dtype_from_py(dtype);
}

py::object call_from_python(const UfuncDef& u, const py::args& args, const py::kwargs& kwargs) {
  py::handle out = py::none();
  py::handle dtype = py::none();
  Casting casting = Casting::SameKind;
  const size_t nargs = args.size();
  if (nargs < static_cast<size_t>(u.nin) || nargs > static_cast<size_t>(u.nin) + 1) {
    throw TypeError(std::string(u.name) + "() takes from " + std::to_string(u.nin) + " to " +
                    std::to_string(u.nin + 1) + " positional arguments but " +
                    std::to_string(nargs) + " were given");
  }
  if (nargs == static_cast<size_t>(u.nin) + 1) out = args[u.nin];
  for (auto item : kwargs) {
    const std::string key = py::str(item.first);
    if (key == "out") {
      if (nargs > static_cast<size_t>(u.nin))
        throw TypeError("cannot specify 'out' as both a positional and keyword argument");
      out = item.second;
    } else if (key == "dtype") {
      dtype = item.second;
    } else if (key == "casting") {
      casting = casting_from_name(py::str(item.second).cast<std::string>().c_str());
    } else if (key == "where") {
      if (!(item.second.ptr() == Py_True))
        throw TypeError(std::string("gpuarr.") + u.name +
                        " does not take a 'where' mask; use gpuarr.where on the result");
    } else if (key == "order" || key == "subok") {
      // Accepted as NumPy does; gpuarr orders outputs like the inputs (order='K').
    } else {
      throw TypeError("'" + key + "' is an invalid keyword to ufunc '" + u.name + "'");
    }
  }
  if (py::isinstance<py::tuple>(out)) {
    py::tuple t = py::reinterpret_borrow<py::tuple>(out);
    if (t.size() != 1)
      throw ValueError("The 'out' tuple must have exactly one entry per ufunc output");
    out = t[0];
  }
  std::vector<py::handle> inputs(args.begin(), args.begin() + u.nin);
  return call_ufunc(u, inputs.data(), out, dtype_arg(dtype), casting);
}

// After a TypeError from a call: an operand of a type that overrides ufuncs (a Dask array,
// ...: a foreign __array_ufunc__) gets the call, as NumPy's protocol gives it. The Python
// layer registers the override (_core._set_ufunc_override), which returns None where no
// operand takes the call. Only the failing path looks, so a call that succeeds costs nothing
// more.
py::object& ufunc_override() {
  static auto* hook = new py::object(py::none());  // leaked: outlives the interpreter's teardown
  return *hook;
}

py::object call_override(const UfuncDef& u, const py::args& args, const py::kwargs& kwargs) {
  const py::object& hook = ufunc_override();
  if (hook.is_none()) return hook;
  return hook(u.name, args, kwargs);
}

std::string loop_type_string(const UfuncLoopTypes& lt, int nin) {
  auto ch = [](DType t) {
    switch (t) {
      case DType::Bool: return '?';
      case DType::Int8: return 'b';
      case DType::UInt8: return 'B';
      case DType::Int16: return 'h';
      case DType::UInt16: return 'H';
      case DType::Int32: return 'i';
      case DType::UInt32: return 'I';
      case DType::Int64: return 'l';
      case DType::UInt64: return 'L';
      case DType::Float16: return 'e';
      case DType::Float32: return 'f';
      case DType::Float64: return 'd';
      case DType::Complex64: return 'F';
      case DType::Complex128: return 'D';
    }
    return '?';
  };
  std::string s;
  for (int k = 0; k < nin; ++k) s += ch(lt.in[k]);
  return s + "->" + ch(lt.out);
}

// A binary operator method: NotImplemented for operand types gpuarr does not take, so that
// Python tries the other operand's reflected method.
template <bool Reflected>
py::object binary_operator(const UfuncDef& u, py::handle self, py::handle other) {
  Operand probe;
  if (!classify(other, probe)) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
  py::handle in[2] = {Reflected ? other : self, Reflected ? self : other};
  return call_ufunc(u, in, py::none(), std::nullopt, Casting::SameKind);
}

py::object inplace_operator(const UfuncDef& u, py::handle self, py::handle other) {
  Operand probe;
  if (!classify(other, probe)) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
  py::handle in[2] = {self, other};
  return call_ufunc(u, in, self, std::nullopt, Casting::SameKind);
}

const UfuncDef& ufunc_named(const char* name) {
  const UfuncDef* u = find_ufunc(name);
  if (!u) throw std::logic_error(std::string("no ufunc ") + name);
  return *u;
}

void add_method(py::object cls, const char* name, py::cpp_function f) {
  cls.attr(name) = f;
}

// Views of the real and imaginary parts of complex arrays (NumPy's .real/.imag).
NDArray component_view(const NDArray& a, bool imag) {
  NDArray v = a;
  v.dtype = real_dtype(a.dtype);
  if (imag) v.offset += itemsize(v.dtype);
  return v;
}

// ndarray's binary operators: the methods, the ufunc, and the number slots the direct path
// fills (the fast slots are indexed by position in this table).
using BinarySlot = binaryfunc PyNumberMethods::*;
struct BinaryOp {
  const char* method;
  const char* reflected;
  const char* inplace;
  const char* ufunc;
  BinarySlot slot;
  BinarySlot inplace_slot;
};
constexpr BinaryOp kBinaryOps[] = {
    {"__add__", "__radd__", "__iadd__", "add", &PyNumberMethods::nb_add,
     &PyNumberMethods::nb_inplace_add},
    {"__sub__", "__rsub__", "__isub__", "subtract", &PyNumberMethods::nb_subtract,
     &PyNumberMethods::nb_inplace_subtract},
    {"__mul__", "__rmul__", "__imul__", "multiply", &PyNumberMethods::nb_multiply,
     &PyNumberMethods::nb_inplace_multiply},
    {"__truediv__", "__rtruediv__", "__itruediv__", "divide", &PyNumberMethods::nb_true_divide,
     &PyNumberMethods::nb_inplace_true_divide},
    {"__floordiv__", "__rfloordiv__", "__ifloordiv__", "floor_divide",
     &PyNumberMethods::nb_floor_divide, &PyNumberMethods::nb_inplace_floor_divide},
    {"__mod__", "__rmod__", "__imod__", "remainder", &PyNumberMethods::nb_remainder,
     &PyNumberMethods::nb_inplace_remainder},
    {"__and__", "__rand__", "__iand__", "bitwise_and", &PyNumberMethods::nb_and,
     &PyNumberMethods::nb_inplace_and},
    {"__or__", "__ror__", "__ior__", "bitwise_or", &PyNumberMethods::nb_or,
     &PyNumberMethods::nb_inplace_or},
    {"__xor__", "__rxor__", "__ixor__", "bitwise_xor", &PyNumberMethods::nb_xor,
     &PyNumberMethods::nb_inplace_xor},
    {"__lshift__", "__rlshift__", "__ilshift__", "left_shift", &PyNumberMethods::nb_lshift,
     &PyNumberMethods::nb_inplace_lshift},
    {"__rshift__", "__rrshift__", "__irshift__", "right_shift", &PyNumberMethods::nb_rshift,
     &PyNumberMethods::nb_inplace_rshift},
};

// Operator slots straight to C++ (GPUARR_FAST_OPERATOR_SLOTS=0 keeps the Python-level
// __add__/__radd__ methods' path): `a + b` otherwise goes through CPython's generic
// slot_nb_add (a method lookup and a call of the bound method), then pybind11's
// dispatcher (argument loading, overload walk), about a microsecond per operator.
// CPython calls a number slot with the operands in source order from either operand's
// type, so the slot takes the forward path when the left operand is a gpuarr array and the
// reflected one otherwise; anything else is NotImplemented, exactly as the methods answer.
constexpr int kFastBinaryOps = static_cast<int>(std::size(kBinaryOps));
const UfuncDef* g_fast_binary[kFastBinaryOps] = {};

PyObject* fast_slot_error() { return translate_active_exception(); }  // in a catch block

template <int I>
PyObject* fast_binary_slot(PyObject* l, PyObject* r) {
  try {
    const UfuncDef& u = *g_fast_binary[I];
    if (is_gpuarr_array(l)) return binary_operator<false>(u, l, r).release().ptr();
    if (is_gpuarr_array(r)) return binary_operator<true>(u, r, l).release().ptr();
    Py_RETURN_NOTIMPLEMENTED;
  } catch (...) {
    return fast_slot_error();
  }
}

template <int I>
PyObject* fast_inplace_slot(PyObject* self, PyObject* other) {
  try {
    if (!is_gpuarr_array(self)) Py_RETURN_NOTIMPLEMENTED;
    return inplace_operator(*g_fast_binary[I], self, other).release().ptr();
  } catch (...) {
    return fast_slot_error();
  }
}

template <int... I>
void fill_fast_slots(binaryfunc* binary, binaryfunc* inplace, std::integer_sequence<int, I...>) {
  ((binary[I] = &fast_binary_slot<I>, inplace[I] = &fast_inplace_slot<I>), ...);
}

PyTypeObject* g_operator_type = nullptr;
binaryfunc g_generic_binary[kFastBinaryOps], g_generic_inplace[kFastBinaryOps];

// Switches ndarray's operator slots between the direct C++ ones and CPython's generic ones
// (which call the __add__/... methods); returns whether the direct ones are on. Called
// after the methods are set (setting a dunder attribute resets its slot to the generic one),
// and by benchmarks to compare both paths in one process.
bool set_fast_operator_slots(bool on) {
  PyTypeObject* t = g_operator_type;
  if (!t || !t->tp_as_number) return false;
  PyNumberMethods* nm = t->tp_as_number;
  binaryfunc fast_binary[kFastBinaryOps], fast_inplace[kFastBinaryOps];
  fill_fast_slots(fast_binary, fast_inplace, std::make_integer_sequence<int, kFastBinaryOps>{});
  for (int i = 0; i < kFastBinaryOps; ++i) {
    nm->*kBinaryOps[i].slot = on ? fast_binary[i] : g_generic_binary[i];
    nm->*kBinaryOps[i].inplace_slot = on ? fast_inplace[i] : g_generic_inplace[i];
  }
  PyType_Modified(t);
  return on;
}

void init_fast_operator_slots(py::handle cls) {
  for (int i = 0; i < kFastBinaryOps; ++i) g_fast_binary[i] = &ufunc_named(kBinaryOps[i].ufunc);
  g_operator_type = reinterpret_cast<PyTypeObject*>(cls.ptr());
  if (PyNumberMethods* nm = g_operator_type->tp_as_number) {
    for (int i = 0; i < kFastBinaryOps; ++i) {
      g_generic_binary[i] = nm->*kBinaryOps[i].slot;
      g_generic_inplace[i] = nm->*kBinaryOps[i].inplace_slot;
    }
  }
}

}  // namespace

GPUARR_BINDINGS(10) {
  py::class_<PyUfunc>(m, "ufunc", py::dynamic_attr(),
                      "A function applied element by element with broadcasting (numpy.ufunc).")
      .def("__call__", [](const PyUfunc& f, py::args args, py::kwargs kw) {
        try {
          return call_from_python(*f.def, args, kw);
        } catch (const TypeError&) {
          py::object r = call_override(*f.def, args, kw);
          if (r.is_none()) throw;
          return r;
        }
      })
      .def_property_readonly("nin", [](const PyUfunc& f) { return f.def->nin; })
      .def_property_readonly("nout", [](const PyUfunc&) { return 1; })
      .def_property_readonly("nargs", [](const PyUfunc& f) { return f.def->nin + 1; })
      .def_property_readonly("ntypes", [](const PyUfunc& f) { return f.def->loop_types.size(); })
      .def_property_readonly("types", [](const PyUfunc& f) {
        std::vector<std::string> t;
        for (const auto& lt : f.def->loop_types) t.push_back(loop_type_string(lt, f.def->nin));
        return t;
      })
      .def("__repr__", [](const PyUfunc& f) { return std::string("<ufunc '") + f.def->name + "'>"; });

  // NumPy's ufuncs; names starting with '_' are kernels of NumPy functions (frexp's halves,
  // sinc, ...) that the Python layer calls.
  py::dict ufuncs, kernels;
  for (const UfuncDef* d : all_ufuncs()) {
    py::object f = py::cast(PyUfunc{d});
    f.attr("__name__") = d->name;
    f.attr("__doc__") = d->doc;
    (d->name[0] == '_' ? kernels : ufuncs)[d->name] = f;
  }
  m.attr("_ufuncs") = ufuncs;
  m.attr("_ufunc_kernels") = kernels;

  py::object cls = m.attr("ndarray");
  for (const BinaryOp& op : kBinaryOps) {
    const UfuncDef* u = &ufunc_named(op.ufunc);
    add_method(cls, op.method, py::cpp_function(
        [u](py::handle self, py::handle other) { return binary_operator<false>(*u, self, other); },
        py::name(op.method), py::is_method(cls)));
    add_method(cls, op.reflected, py::cpp_function(
        [u](py::handle self, py::handle other) { return binary_operator<true>(*u, self, other); },
        py::name(op.reflected), py::is_method(cls)));
    add_method(cls, op.inplace, py::cpp_function(
        [u](py::handle self, py::handle other) { return inplace_operator(*u, self, other); },
        py::name(op.inplace), py::is_method(cls)));
  }
  init_fast_operator_slots(cls);
  m.attr("_fast_operator_slots") = set_fast_operator_slots(fast_slots_enabled());
  m.def("_set_fast_operator_slots", &set_fast_operator_slots, py::arg("on"));
  m.def("_set_ufunc_override", [](py::object hook) { ufunc_override() = std::move(hook); },
        py::arg("hook"),
        "Registers hook(name, args, kwargs), called after a ufunc call raised TypeError: it "
        "returns the result of a foreign operand's __array_ufunc__, or None (None: no hook).");
  // pow takes an optional modulo, which NumPy does not support for arrays either.
  {
    const UfuncDef* u = &ufunc_named("power");
    const UfuncDef* square = &ufunc_named("square");
    add_method(cls, "__pow__", py::cpp_function(
        [u, square](py::handle self, py::handle other, py::handle mod) {
          if (!mod.is_none()) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
          // NumPy's fast path: `a ** 2` with an exact Python int is square(a) (bool -> int8).
          if (PyLong_CheckExact(other.ptr()) && PyLong_AsLong(other.ptr()) == 2) {
            py::handle in[1] = {self};
            return call_ufunc(*square, in, py::none(), std::nullopt, Casting::SameKind);
          }
          return binary_operator<false>(*u, self, other);
        },
        py::name("__pow__"), py::is_method(cls), py::arg("other"), py::arg("mod") = py::none()));
    add_method(cls, "__rpow__", py::cpp_function(
        [u](py::handle self, py::handle other, py::handle mod) {
          if (!mod.is_none()) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
          return binary_operator<true>(*u, self, other);
        },
        py::name("__rpow__"), py::is_method(cls), py::arg("other"), py::arg("mod") = py::none()));
    add_method(cls, "__ipow__", py::cpp_function(
        [u](py::handle self, py::handle other) { return inplace_operator(*u, self, other); },
        py::name("__ipow__"), py::is_method(cls)));
  }
  static const std::pair<const char*, const char*> comparisons[] = {
      {"__eq__", "equal"}, {"__ne__", "not_equal"}, {"__lt__", "less"},
      {"__le__", "less_equal"}, {"__gt__", "greater"}, {"__ge__", "greater_equal"}};
  for (const auto& [method, name] : comparisons) {
    const UfuncDef* u = &ufunc_named(name);
    add_method(cls, method, py::cpp_function(
        [u](py::handle self, py::handle other) { return binary_operator<false>(*u, self, other); },
        py::name(method), py::is_method(cls)));
  }
  cls.attr("__hash__") = py::none();
  static const std::pair<const char*, const char*> unary[] = {
      {"__neg__", "negative"}, {"__pos__", "positive"}, {"__abs__", "absolute"},
      {"__invert__", "invert"}};
  for (const auto& [method, name] : unary) {
    const UfuncDef* u = &ufunc_named(name);
    add_method(cls, method, py::cpp_function(
        [u](py::handle self) {
          py::handle in[1] = {self};
          return call_ufunc(*u, in, py::none(), std::nullopt, Casting::SameKind);
        },
        py::name(method), py::is_method(cls)));
  }
  // conj/conjugate methods: the complex conjugate (a copy, as NumPy's).
  {
    const UfuncDef* u = &ufunc_named("conjugate");
    for (const char* method : {"conj", "conjugate"}) {
      add_method(cls, method, py::cpp_function(
          [u](py::handle self) {
            py::handle in[1] = {self};
            return call_ufunc(*u, in, py::none(), std::nullopt, Casting::SameKind);
          },
          py::name(method), py::is_method(cls)));
    }
  }

  // .real and .imag: views for complex arrays; for real arrays .real is the array itself
  // (a view) and .imag a new array of zeros, as NumPy does.
  auto real_get = [](py::handle self) -> py::object {
    const NDArray& a = as_array(self).a;
    if (is_complex(a.dtype)) return make_view(self, component_view(a, false));
    return make_view(self, a);
  };
  auto imag_get = [](py::handle self) -> py::object {
    const NDArray& a = as_array(self).a;
    if (is_complex(a.dtype)) return make_view(self, component_view(a, true));
    DeviceGuard guard(a.device());
    NDArray z = empty_like_array(a, a.dtype, 'K');
    const char zero[16] = {};
    fill_array(z, zero);
    return make_owner(std::move(z));
  };
  auto real_set = [](py::handle self, py::handle value) {
    const NDArray& a = as_array(self).a;
    assign_from_py(is_complex(a.dtype) ? component_view(a, false) : a, value);
  };
  auto imag_set = [](py::handle self, py::handle value) {
    const NDArray& a = as_array(self).a;
    if (!is_complex(a.dtype)) throw TypeError("array does not have imaginary part to set");
    assign_from_py(component_view(a, true), value);
  };
  py::object property = py::module_::import("builtins").attr("property");
  cls.attr("real") = property(py::cpp_function(real_get), py::cpp_function(real_set));
  cls.attr("imag") = property(py::cpp_function(imag_get), py::cpp_function(imag_set));

  {
    const UfuncDef* w = &ufunc_named("where");
    m.def(
        "_where3",
        [w](py::handle c, py::handle x, py::handle y, py::handle out) {
          py::handle in[3] = {c, x, y};
          return call_ufunc(*w, in, out, std::nullopt, Casting::Unsafe);
        },
        py::arg("condition"), py::arg("x"), py::arg("y"), py::arg("out") = py::none());
  }
  // The dtypes a ufunc call would use, without a device: host tests check loop selection
  // against NumPy's. Operands: NumPy dtypes (arrays) or Python scalars (weak).
  m.def("_ufunc_loop_for", [](const std::string& name, py::sequence operands, py::handle dtype) {
    const UfuncDef& u = ufunc_named(name.c_str());
    PromotionOperand promo[kMaxUfuncInputs];
    for (int k = 0; k < u.nin; ++k) {
      Operand op;
      if (classify(operands[k], op)) promo[k] = op.d.promo;
      else promo[k] = {dtype_from_py(operands[k]), WeakKind::None};
    }
    const int i = resolve_ufunc_loop(u.signature(), promo, dtype_arg(dtype), Casting::SameKind);
    return loop_type_string(u.loop_types[i], u.nin);
  }, py::arg("name"), py::arg("operands"), py::arg("dtype") = py::none());
  // Deferred elementwise work (ops/lazy_elementwise.hpp), for tests and benchmarks.
  m.def("_set_lazy_min_size", &set_lazy_min_size, py::arg("n"));
  m.def("_is_pending", [](py::handle a) {
    return is_gpuarr_array(a) && deferred_producer(*as_array(a).a.memory) != nullptr;
  });
  m.def("_launch_pending", [](py::handle a) {
    if (is_gpuarr_array(a)) (void)as_array(a).a.memory->ptr();
  });
  m.def("_promote_types", [](py::handle a, py::handle b) {
    return numpy_dtype(promote_types(dtype_from_py(a), dtype_from_py(b)));
  });
  m.def("_can_cast_dtypes", [](py::handle from, py::handle to, const std::string& casting) {
    return can_cast(dtype_from_py(from), dtype_from_py(to), casting_from_name(casting.c_str()));
  });
}

}  // namespace gpuarr::bind
