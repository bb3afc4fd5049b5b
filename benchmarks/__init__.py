"""Benchmarks of gpuarr against CuPy and PyTorch, run in one process.

``python -m benchmarks --help`` lists the options. ``harness`` holds the timing, the group
registry, the table, the JSON and the chart; every other module of this package (besides
``harness`` and those whose name starts with ``_``) is imported by ``python -m benchmarks``
and registers its groups there (``foundation`` registers ``foundation`` and
``foundation-transfers``). Current results:
``benchmarks/results/README.md``; the decisions they support: ``docs/decisions.md``.
"""
