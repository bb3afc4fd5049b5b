"""gpuarr.random: NumPy's random API on the device (counter-based Philox4x32-10).

``default_rng(seed)`` gives a ``Generator``; the module-level functions are NumPy's legacy
API and draw from a per-device ``RandomState`` (``seed``, ``get_random_state`` and
``set_random_state`` act on the current device's one, as in CuPy). Same seed -> same arrays
on the same gpuarr version; NumPy's bit streams are not reproduced.

float32 normals (``standard_normal``/``normal``/``randn`` with ``dtype=float32``) use
Box-Muller through the hardware log2/rsqrt/sin/cos approximations with the angle
2*pi*(u - 1/2): absolute error <= ~2e-6 against an exact Box-Muller of the same bits, at the
speed of writing the output. float64 normals use the libm-accurate functions.
"""

from gpuarr import _core
from numpy.random import SeedSequence  # host-side seeding: NumPy's own class

from gpuarr.random._generator import Generator, RandomState, default_rng

_states = {}


def _device_id():
    return _core.get_device()


def get_random_state() -> RandomState:
    """The current device's RandomState (created, freshly seeded, on first use)."""
    dev = _device_id()
    rs = _states.get(dev)
    if rs is None:
        rs = _states[dev] = RandomState()
    return rs


def set_random_state(rs: RandomState) -> None:
    """Makes `rs` the current device's RandomState."""
    if not isinstance(rs, RandomState):
        raise TypeError("Random state must be an instance of RandomState. "
                        f"Actual: {type(rs)}")
    _states[_device_id()] = rs


def seed(seed=None) -> None:
    """Reseeds the current device's RandomState."""
    get_random_state().seed(seed)


def reset_states() -> None:
    """Forgets every device's RandomState (the next draw seeds a fresh one)."""
    _states.clear()


_LEGACY = [
    "random", "random_sample", "rand", "randn", "uniform", "normal", "standard_normal",
    "randint", "random_integers", "choice", "permutation", "shuffle", "beta", "binomial",
    "exponential", "gamma", "geometric", "lognormal", "poisson", "chisquare", "laplace",
    "logistic", "multinomial", "multivariate_normal", "standard_exponential",
    "standard_gamma", "standard_t", "triangular", "weibull",
    # compositions of the same kernels
    "gumbel", "pareto", "power", "rayleigh", "standard_cauchy", "f", "negative_binomial",
    "dirichlet", "noncentral_chisquare", "noncentral_f", "wald", "vonmises", "logseries",
    "zipf", "hypergeometric", "bytes",
]


def _make_legacy(name):
    method = getattr(RandomState, name)

    def fn(*args, **kwargs):
        return method(get_random_state(), *args, **kwargs)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = (f"numpy.random.{name} on the device, drawn from the current device's "
                  f"RandomState (``get_random_state().{name}``).")
    if method.__doc__:
        fn.__doc__ += "\n\n" + method.__doc__
    return fn


for _name in _LEGACY:
    globals()[_name] = _make_legacy(_name)
ranf = sample = globals()["random_sample"]
del _name

__all__ = ["Generator", "RandomState", "SeedSequence", "default_rng", "get_random_state",
           "set_random_state",
           "seed", "reset_states", "ranf", "sample"] + _LEGACY
