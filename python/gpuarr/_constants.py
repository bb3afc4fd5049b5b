"""NumPy's numeric constants, the same Python floats (``gpuarr.pi is numpy.pi``)."""

from numpy import e, euler_gamma, inf, nan, pi

__all__ = ["e", "euler_gamma", "inf", "nan", "pi"]
