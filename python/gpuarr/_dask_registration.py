"""gpuarr's registration with Dask and distributed, deferred until one of their lookups
first meets a gpuarr array.

gpuarr never imports Dask. Where Dask or distributed is already imported when gpuarr is (a
distributed worker unpickling its first gpuarr array, a session that imported Dask first),
their dispatch tables get a lazy entry for the top-level module ``gpuarr`` (Dask's own
``Dispatch.register_lazy``, as Dask registers CuPy): the first lookup of a gpuarr type in
any of them imports ``gpuarr.dask``, which registers everything (chunk type, lookups,
sizeof, serializers). Where Dask comes later, ``import gpuarr.dask`` (or the ``gpuarr``
array backend) registers it.
"""

import importlib
import sys

# The dispatch tables that may meet a gpuarr array first, by the module that holds them.
_DISPATCH_TABLES = {
    "dask.sizeof": ("sizeof",),
    "dask.array.dispatch": (
        "concatenate_lookup", "take_lookup", "tensordot_lookup", "einsum_lookup",
        "empty_lookup", "divide_lookup", "percentile_lookup", "numel_lookup",
        "nannumel_lookup", "to_numpy_dispatch"),
    "distributed.protocol.serialize": ("dask_serialize", "dask_deserialize"),
    "distributed.protocol.cuda": ("cuda_serialize", "cuda_deserialize"),
}


def _import_gpuarr_dask():
    # Imported by name at the first lookup, not at module level: gpuarr.dask imports Dask,
    # which gpuarr does not require.
    importlib.import_module("gpuarr.dask")


def _register_lazily():
    for module_name, names in _DISPATCH_TABLES.items():
        module = sys.modules.get(module_name)
        if module is None:
            continue
        for name in names:
            table = getattr(module, name, None)
            if hasattr(table, "register_lazy"):
                table.register_lazy("gpuarr", _import_gpuarr_dask)


_register_lazily()
