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

# Every Dask and distributed dispatch table gpuarr registers with: the module that holds
# it, the table's name, and the name of gpuarr.dask's implementation for gpuarr arrays.
# gpuarr.dask.register() fills them from this list; before that, each gets a lazy entry.
DISPATCH_TABLES = (
    ("dask.sizeof", "sizeof", "_sizeof_gpuarr"),
    ("dask.array.dispatch", "concatenate_lookup", "_concatenate"),
    ("dask.array.dispatch", "take_lookup", "_take"),
    ("dask.array.dispatch", "tensordot_lookup", "_tensordot"),
    ("dask.array.dispatch", "einsum_lookup", "_einsum"),
    ("dask.array.dispatch", "empty_lookup", "_empty"),
    ("dask.array.dispatch", "divide_lookup", "_divide"),
    ("dask.array.dispatch", "percentile_lookup", "_percentile"),
    ("dask.array.dispatch", "numel_lookup", "_numel"),
    ("dask.array.dispatch", "nannumel_lookup", "_nannumel"),
    ("dask.array.dispatch", "to_numpy_dispatch", "_gpuarr_to_numpy"),
    ("distributed.protocol.serialize", "dask_serialize", "_host_serialize"),
    ("distributed.protocol.serialize", "dask_deserialize", "_host_deserialize"),
    ("distributed.protocol.cuda", "cuda_serialize", "_device_serialize"),
    ("distributed.protocol.cuda", "cuda_deserialize", "_device_deserialize"),
)


def _import_gpuarr_dask():
    # Imported by name at the first lookup, not at module level: gpuarr.dask imports Dask,
    # which gpuarr does not require.
    importlib.import_module("gpuarr.dask")


def _register_lazily():
    for module_name, table_name, _ in DISPATCH_TABLES:
        module = sys.modules.get(module_name)
        table = getattr(module, table_name, None)
        if hasattr(table, "register_lazy"):
            table.register_lazy("gpuarr", _import_gpuarr_dask)


_register_lazily()
