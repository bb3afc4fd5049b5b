"""gpuarr.linalg: numpy.linalg on the GPU (norms, eigen-solvers, decompositions, solvers
and the Array API's products)."""

from gpuarr._core import LinAlgError
from gpuarr.linalg._eigen import eigh, eigvalsh, eig, eigvals, EighResult, EigResult  # noqa: F401
from gpuarr.linalg._norms import norm, matrix_norm, vector_norm
from gpuarr.linalg._solvers import *  # noqa: F401,F403  (inv det solve qr svd ...)
from gpuarr.linalg._solvers import __all__ as _solvers_all
from gpuarr.linalg._products import *  # noqa: F401,F403  (matmul ... cross, multi_dot)
from gpuarr.linalg._products import __all__ as _products_all

__all__ = ["LinAlgError", "norm", "matrix_norm", "vector_norm", "eigh", "eigvalsh", "eig",
           "eigvals"] + _solvers_all + _products_all

# gpuarr.linalg.norm(dask_array) and the like hand the call to the foreign array, as NumPy does.
import numpy as _np  # noqa: E402
from gpuarr import _numpy_dispatch  # noqa: E402

_numpy_dispatch.defer_to_foreign_arrays(globals(), __all__, _np.linalg)
