"""The mechanisms of the community's DP-testing benchmark suites, re-implemented for the black-box auditor
(:mod:`privtest.audit`): StatDP, DP-Sniper, DP-Auditorium and Delta-Siege.

Each mechanism is re-implemented from its published definition (the file is named in :attr:`SuiteMechanism.source`,
at the commits listed in :data:`SOURCES`), draws only from the ``rng`` it is given, and is vectorized over runs. A
:class:`SuiteMechanism` carries what an audit needs: the sampler, the input pairs (the suite's own where it publishes
them: StatDP's patterns, :func:`statdp_patterns`, which DP-Sniper reuses; otherwise the same patterns as a witness
search), the integer codings of the output (a real-valued output is discretized on a stated grid, :func:`grid`), the
claimed eps (and delta, for Delta-Siege's Gaussians: an (eps, delta) claim audited on the auditor's delta path), and
the true eps where a closed form is known (exact or an upper bound, :attr:`SuiteMechanism.true_kind`).

The building blocks are public: :func:`sparse_vector` (every SVT variant of the four suites is one parameterization
of it), :func:`noisy_max`, :func:`truncated_geometric`, :func:`rappor` (with :func:`murmur3_32`, the hash its Bloom
filter uses), :func:`prefix_sum` (DP-Sniper's PrefixSum), :func:`inversion_laplace` (Delta-Siege's floating-point
Laplace), :func:`box_muller_gauss` and :func:`polar_gauss` (its Gaussians on 2^32 words, std
:func:`classic_gauss_std`) and :func:`suite_mechanisms`, the list audited by the artifact's output
``fig_audit_suites``.

Example:
    StatDP's histogram with the wrong noise scale (Lap(eps) instead of Lap(1/eps): 1/eps-DP) audited at its claim:

    >>> from privtest.audit import audit
    >>> m = next(x for x in suite_mechanisms() if x.name == "histogram_eps")
    >>> res = audit(m.sample, m.pairs, m.codings, 20_000, rng=0, claimed_eps=m.claimed_eps)
    >>> m.claimed_eps, round(m.true_eps, 4), res.refuted
    (0.7, 1.4286, True)
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from privtest import _validate
from privtest.audit import Coding
from privtest.svt_variants import CODINGS as SVT_CODINGS
from privtest.svt_variants import pattern_distance

__all__ = [
    "SOURCES",
    "SuiteMechanism",
    "box_muller_gauss",
    "classic_gauss_std",
    "grid",
    "inversion_laplace",
    "murmur3_32",
    "noisy_max",
    "polar_gauss",
    "prefix_sum",
    "rappor",
    "sparse_vector",
    "statdp_patterns",
    "suite_mechanisms",
    "truncated_geometric",
]

#: The repositories (and the commits read) the definitions come from.
SOURCES = {
    "StatDP": "cmla-psu/statdp@d1f1e8f",
    "DP-Sniper": "eth-sri/dp-sniper@ee087b2",
    "DP-Auditorium": "google/differential-privacy@b5b0286 (python/dp_auditorium)",
    "Delta-Siege": "eth-sri/Delta-Siege@358377f",
}


@dataclass(frozen=True)
class SuiteMechanism:
    """One mechanism of a benchmark suite, ready for :func:`privtest.audit.audit`.

    Attributes:
        suite: "StatDP", "DP-Sniper", "DP-Auditorium" or "Delta-Siege" (a key of :data:`SOURCES`).
        name: the suite's name for it (e.g. "noisy_max_v1a", "SparseVectorTechnique3").
        claimed_eps: the eps it claims (nats, > 0): pure DP, or at ``delta``.
        true_eps: its true eps (at ``delta``) where a closed form is known (inf: unbounded), NaN if none is known.
        true_kind: "exact" (true_eps is the mechanism's eps), "exact (the pair)" (the privacy loss of the one audited
            input pair), "upper bound" (eps <= true_eps) or "" (unknown).
        private: whether it is claimed_eps-DP (False: the suite, or the literature it cites, marks it non-private).
        sample: ``sample(input, k, rng)``: k runs on one input (the output structure its codings read).
        pairs: label -> (input a, input b), neighbouring inputs searched by the audit.
        codings: how outputs become one or two integer features (:class:`privtest.audit.Coding`).
        source: the suite file (``path:line`` where one line holds the definition) the definition comes from.
        pairs_source: where the input pairs come from.
        coding_note: the coding in words (the discretization grid of a real-valued output).
        label_note: what the suite itself says about the mechanism's privacy, when it differs from ``private``.
        delta: the claimed delta (0: pure DP; > 0: an (eps, delta) claim, audited on
            :func:`privtest.audit.audit`'s delta path; true_eps is then the eps at that delta).

    A record of the suite's definitions (:func:`suite_mechanisms` builds them); its fields are not checked.

    Example:
        >>> m = next(x for x in suite_mechanisms() if x.name == "noisy_max_v2b")
        >>> m.suite, m.private, m.true_eps
        ('StatDP', False, inf)
    """

    suite: str
    name: str
    claimed_eps: float
    true_eps: float
    true_kind: str
    private: bool
    sample: Callable = field(repr=False)
    pairs: dict = field(repr=False)
    codings: list = field(repr=False)
    source: str = ""
    pairs_source: str = ""
    coding_note: str = ""
    label_note: str = ""
    delta: float = 0.0


def statdp_patterns(m: int, one_differ: bool = False) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """StatDP's input patterns (``statdp/generators.py``, ``generate_databases``, lines 66-83; DP-Sniper's
    ``dpsniper/input/pattern_generator.py`` reuses them): d1 = (1, ..., 1) against one below, one above and, unless
    ``one_differ``, one above rest below, one below rest above, half half, all above, all below, and the x shape
    pair.

    Args:
        m: number of queries, an integer >= 2.
        one_differ: StatDP's ONE_DIFFER sensitivity (only the first query differs) instead of ALL_DIFFER.

    Returns:
        dict label -> (queries a, queries b), float arrays (m,) whose entries differ by at most 1.

    Raises:
        ValueError: if m < 2 (naming m).

    Example:
        >>> p = statdp_patterns(4)
        >>> len(p), p["x shape"][0].tolist(), p["x shape"][1].tolist()
        (8, [1.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 1.0])
    """
    m = _validate.integer("m", m, 2)
    _validate.boolean("one_differ", one_differ)
    h = m // 2
    d1 = np.ones(m)

    def rest(first, others):
        return np.r_[float(first), np.full(m - 1, float(others))]

    out = {"one below": (d1, rest(0, 1)), "one above": (d1, rest(2, 1))}
    if not one_differ:
        out |= {
            "one above rest below": (d1, rest(2, 0)),
            "one below rest above": (d1, rest(0, 2)),
            "half half": (d1, np.r_[np.full(h, 2.0), np.zeros(m - h)]),
            "all above": (d1, np.full(m, 2.0)),
            "all below": (d1, np.zeros(m)),
            "x shape": (np.r_[np.ones(h), np.zeros(m - h)], np.r_[np.zeros(h), np.ones(m - h)]),
        }
    return out


def grid(y, width: float, lo: float, hi: float) -> np.ndarray:
    """The integer code of a real output: floor(y / width), clipped to [floor(lo / width) - 1, floor(hi / width)]
    (every output below lo shares one code, and so does every output at or above hi).

    Args:
        y: real outputs (any shape; NaN is refused). width: cell width > 0. lo, hi: finite, lo < hi.

    Returns:
        int64 array of y's shape.

    Raises:
        ValueError: naming width, lo, hi or y when out of range.

    Example:
        >>> grid([-7.0, 0.3, 1.99, 2.0, 50.0], 0.25, -5, 5).tolist()
        [-21, 1, 7, 8, 20]
    """
    _validate.positive("width", width)
    _validate.finite("lo", lo)
    _validate.finite("hi", hi)
    if not lo < hi:
        raise ValueError(f"lo must be below hi. Found lo = {lo!r}, hi = {hi!r}.")
    y = np.asarray(y, dtype=float)
    if np.isnan(y).any():
        raise ValueError("y must not hold NaN (a real output to discretize).")
    return np.clip(np.floor(y / width), math.floor(lo / width) - 1, math.floor(hi / width)).astype(np.int64)


def _check_queries(queries) -> None:
    """Refuse, naming ``queries``, anything but a non-empty 1-d array of finite query answers."""
    _validate.finite("queries", queries, scalar=False)
    if np.ndim(queries) != 1 or np.size(queries) == 0:
        raise ValueError(f"queries must be a non-empty 1-d array. Found {_validate.fmt(queries)}.")


def sparse_vector(
    queries,
    n: int,
    rng,
    *,
    threshold: float,
    rho_scale: float,
    nu_scale: float,
    cutoff: int | None = 1,
    release: bool = False,
    redraw_scale: float | None = None,
    strict: bool = False,
):
    """n runs of the sparse vector technique (Lyu, Su, Li, PVLDB 2017, Alg. 1-6 and their variants in the suites):
    rho ~ Lap(rho_scale) once per run, then per query i, top iff q_i + nu_i >= threshold + rho (> if ``strict``) with
    nu_i ~ Lap(nu_scale) (no noise if 0); after ``cutoff`` tops the run aborts (None: never).

    Args:
        queries: the m >= 1 query answers (finite reals, 1-d).
        n: runs, an integer >= 0. rng: anything :func:`numpy.random.default_rng` accepts.
        threshold: the public threshold (finite). rho_scale: threshold noise scale > 0. nu_scale: query noise scale
            >= 0. cutoff: tops before aborting, an integer >= 1, or None. release: a top releases q_i + nu_i (Alg. 3).
        redraw_scale: a top redraws rho ~ Lap(redraw_scale) (Alg. 2), or None. strict: compare with > instead of >=.

    Returns:
        (answers, values) as :meth:`privtest.svt_variants.SVTVariant.run`: int8 (n, m) of 1 (top), 0 (bottom),
        -1 (aborted), and float (n, m) of the released values (NaN where nothing is released).

    Raises:
        ValueError: naming the parameter out of range.

    Example:
        >>> a, v = sparse_vector([0.0, 5.0, 5.0], 3, 0, threshold=1.0, rho_scale=1e-9, nu_scale=0.0)
        >>> a.tolist()
        [[0, 1, -1], [0, 1, -1], [0, 1, -1]]
    """
    _check_queries(queries)
    n = _validate.integer("n", n, 0)
    rng = _validate.generator(rng)
    _validate.finite("threshold", threshold)
    _validate.positive("rho_scale", rho_scale)
    _validate.nonnegative("nu_scale", nu_scale)
    if cutoff is not None:
        cutoff = _validate.integer("cutoff", cutoff, 1)
    if redraw_scale is not None:
        _validate.positive("redraw_scale", redraw_scale)
    q = np.asarray(queries, dtype=float)
    m = len(q)
    rho = rng.laplace(0.0, rho_scale, n)
    answers = np.full((n, m), -1, dtype=np.int8)
    values = np.full((n, m), np.nan)
    tops = np.zeros(n, dtype=np.int64)
    for i in range(m):
        active = tops < cutoff if cutoff is not None else np.ones(n, dtype=bool)
        noisy = q[i] + (rng.laplace(0.0, nu_scale, n) if nu_scale > 0 else 0.0)
        top = noisy > threshold + rho if strict else noisy >= threshold + rho
        answers[active, i] = top[active]
        hit = active & top
        if release:
            values[hit, i] = np.broadcast_to(noisy, (n,))[hit]
        if redraw_scale is not None:
            rho[hit] = rng.laplace(0.0, redraw_scale, int(np.count_nonzero(hit)))
        tops += hit
    return answers, values


def noisy_max(queries, n: int, rng, *, scale: float, noise: str = "laplace", report: str = "index") -> np.ndarray:
    """n runs of report noisy max: q_i + noise_i with noise "laplace", "exponential" or "gumbel" of the given scale;
    reports the index of the largest (``report="index"``) or its value (``"value"``, the incorrect variants of
    StatDP and DP-Sniper).

    Args:
        queries: m >= 1 finite query answers (1-d). n: runs, an integer >= 0. rng: a seed or Generator.
        scale: noise scale > 0. noise: "laplace", "exponential" or "gumbel". report: "index" or "value".

    Returns:
        int64 (n,) of indices, or float (n,) of values.

    Raises:
        ValueError: naming the parameter out of range.

    Example:
        >>> noisy_max([0.0, 100.0, 0.0], 4, 0, scale=1.0).tolist()
        [1, 1, 1, 1]
    """
    _check_queries(queries)
    n = _validate.integer("n", n, 0)
    rng = _validate.generator(rng)
    _validate.positive("scale", scale)
    draw = {"laplace": rng.laplace, "exponential": None, "gumbel": rng.gumbel}
    if noise not in draw:
        raise ValueError(f"noise must be one of {sorted(draw)}. Found {noise!r}.")
    if report not in ("index", "value"):
        raise ValueError(f"report must be 'index' or 'value'. Found {report!r}.")
    q = np.asarray(queries, dtype=float)
    size = (n, len(q))
    z = rng.exponential(scale, size) if noise == "exponential" else draw[noise](0.0, scale, size)
    noisy = q[None, :] + z
    return noisy.argmax(axis=1).astype(np.int64) if report == "index" else noisy.max(axis=1)


def _geo_cdf(c: int, k: int, size: int) -> np.ndarray:
    """F(z), z = 0..size, of GeoSample (Balcer and Vadhan, Alg. 4.8; dpsniper/mechanisms/geometric.py
    ``_compute_f``), as exact Python integers in an object array."""
    d = (2 ** (k + 1) + 1) * (2**k + 1) ** (size - 1)
    f = [2 ** (k * (c - z)) * (2**k + 1) ** (size - (c - z)) for z in range(c)]
    f += [d - 2 ** (k * (z - c + 1)) * (2**k + 1) ** (size - 1 - (z - c)) for z in range(c, size)]
    return np.array([*f, d], dtype=object)


def truncated_geometric(c: int, n: int, rng, *, eps: float = 0.1, size: int = 5) -> np.ndarray:
    """n runs of DP-Sniper's TruncatedGeometricMechanism (``dpsniper/mechanisms/geometric.py``: GeoSample, Balcer and
    Vadhan 2018, Alg. 4.8) on the count c in [0, size]: z is the smallest value with F(z) >= u, u uniform on
    {1, ..., F(size)}, with k = ceil(ln(2 / eps)). It is ln(1 + 2^-k)-DP (Thm 4.7 there).

    Args:
        c: the count, an integer in [0, size]. n: runs, an integer >= 0. rng: a seed or Generator.
        eps: the parameter eps in (0, 2) (k = ceil(ln(2 / eps)) >= 1). size: individuals counted, an integer >= 1.

    Returns:
        int64 (n,) in [0, size].

    Raises:
        ValueError: naming the parameter out of range.

    Example:
        >>> z = truncated_geometric(2, 10_000, 0)
        >>> int(z.min()), int(z.max()), round(float(np.mean(z == 0)), 1)  # heavy ends: F jumps at 0 and size
        (0, 5, 0.4)
    """
    size = _validate.integer("size", size, 1)
    c = _validate.integer("c", c, 0, maximum=size)
    n = _validate.integer("n", n, 0)
    rng = _validate.generator(rng)
    _validate.interval("eps", eps, 0.0, 2.0, lo_open=True, hi_open=True)
    k = math.ceil(math.log(2.0 / eps))
    f = _geo_cdf(c, k, size)
    if int(f[-1]) >= 2**62:
        raise ValueError(f"eps and size give F(size) = {int(f[-1])} >= 2^62: choose a larger eps or smaller size.")
    u = rng.integers(1, int(f[-1]) + 1, n)
    return np.searchsorted(f.astype(np.int64), u, side="left").astype(np.int64)


def _geo_eps(eps: float, size: int) -> float:
    """The exact eps of :func:`truncated_geometric`: max |ln Pr[z | c] - ln Pr[z | c + 1]| over z and c."""
    k = math.ceil(math.log(2.0 / eps))
    pmf = [np.diff(np.r_[0, _geo_cdf(c, k, size)].astype(object)) for c in range(size + 1)]
    return max(
        abs(math.log(int(pmf[c][z])) - math.log(int(pmf[c + 1][z]))) for c in range(size) for z in range(size + 1)
    )


def murmur3_32(key: str, seed: int = 0) -> int:
    """MurmurHash3 x86_32 of the UTF-8 bytes of ``key``, as a signed 32-bit integer (what ``mmh3.hash`` returns; the
    Bloom-filter hash of DP-Sniper's RAPPOR, ``dpsniper/mechanisms/rappor.py``).

    Args:
        key: a string. seed: an integer in [0, 2^32).

    Returns:
        int in [-2^31, 2^31).

    Raises:
        ValueError: naming key or seed when invalid.

    Example:
        >>> murmur3_32(""), murmur3_32("", 1), hex(murmur3_32("hello") & 0xFFFFFFFF)
        (0, 1364076727, '0x248bfa47')
    """
    if not isinstance(key, str):
        raise ValueError(f"key must be a string. Found {key!r}.")
    seed = _validate.integer("seed", seed, 0, maximum=2**32 - 1)
    mask, c1, c2 = 0xFFFFFFFF, 0xCC9E2D51, 0x1B873593

    def rotl(x, r):
        return ((x << r) | (x >> (32 - r))) & mask

    data = key.encode("utf-8")
    h = seed
    blocks = len(data) // 4
    for i in range(blocks):
        k = int.from_bytes(data[4 * i : 4 * i + 4], "little")
        k = (rotl((k * c1) & mask, 15) * c2) & mask
        h = (rotl(h ^ k, 13) * 5 + 0xE6546B64) & mask
    tail = data[4 * blocks :]
    if tail:
        k = int.from_bytes(tail, "little")
        h ^= (rotl((k * c1) & mask, 15) * c2) & mask
    h ^= len(data)
    h ^= h >> 16
    h = (h * 0x85EBCA6B) & mask
    h ^= h >> 13
    h = (h * 0xC2B2AE35) & mask
    h ^= h >> 16
    return h - 2**32 if h >= 2**31 else h


def _bloom(value, hashes: int, filter_size: int) -> np.ndarray:
    bits = np.zeros(filter_size, dtype=bool)
    for i in range(hashes):
        bits[murmur3_32(str(value), i) % filter_size] = True
    return bits


def rappor(
    value,
    n: int,
    rng,
    *,
    hashes: int = 4,
    filter_size: int = 20,
    f: float = 0.75,
    p: float = 0.45,
    q: float = 0.55,
    instantaneous: bool = True,
) -> np.ndarray:
    """n reports of RAPPOR (Erlingsson, Pihur, Korolova, CCS 2014) as DP-Sniper implements it
    (``dpsniper/mechanisms/rappor.py``): the Bloom filter of str(value) (``hashes`` MurmurHash3 seeds), a fresh
    permanent randomized response per report (a bit set to 1 w.p. f/2, to 0 w.p. f/2, kept otherwise) and, if
    ``instantaneous``, the instantaneous one (report 1 w.p. q where the bit is 1, p where it is 0); without it,
    DP-Sniper's OneTimeRappor.

    Args:
        value: the user's value (any object; hashed as str(value)). n: reports, an integer >= 0. rng: seed/Generator.
        hashes: an integer >= 1. filter_size: an integer >= 1. f, p, q: probabilities in [0, 1].
        instantaneous: apply the instantaneous randomized response.

    Returns:
        int8 (n, filter_size) of reported bits.

    Raises:
        ValueError: naming the parameter out of range.

    Example:
        >>> rappor(1, 2, 0, f=0.0, p=0.0, q=1.0).sum(axis=1).tolist()  # no noise: the Bloom filter itself
        [3, 3]
    """
    n = _validate.integer("n", n, 0)
    rng = _validate.generator(rng)
    hashes = _validate.integer("hashes", hashes, 1)
    filter_size = _validate.integer("filter_size", filter_size, 1)
    for name, v in (("f", f), ("p", p), ("q", q)):
        _validate.interval(name, v, 0.0, 1.0, lo_open=False, hi_open=False)
    bits = np.broadcast_to(_bloom(value, hashes, filter_size), (n, filter_size))
    u = rng.random((n, filter_size))
    prr = np.where(u < 0.5 * f, True, np.where(u < f, False, bits))
    if not instantaneous:
        return prr.astype(np.int8)
    v = rng.random((n, filter_size))
    return np.where(prr, v < q, v < p).astype(np.int8)


#: The simulated random words of Delta-Siege's RNGMechanism (``deltasiege/mechanism/rng_mechanism.py``).
WORD = 2**32


def inversion_laplace(x: float, n: int, rng, *, eps: float, sensitivity: float = 1.0) -> np.ndarray:
    """n outputs of Delta-Siege's LaplaceInversionMechanism (``deltasiege/mechanism/laplace_inversion.py``): a word
    k uniform on {0, ..., 2^32 - 1}, magnitude -ln(1 - k / 2^32) / sqrt(2), a sign from a second word (negative iff
    it is below 2^31), output x + sign * magnitude * std with std = sensitivity * sqrt(2) / eps, in float64 in that
    order of operations. The outputs on x and on x + sensitivity lie on two almost disjoint finite sets.

    Args:
        x: the input (finite). n: outputs, an integer >= 0. rng: seed/Generator. eps: > 0. sensitivity: > 0.

    Returns:
        float64 (n,).

    Raises:
        ValueError: naming the parameter out of range.

    Example:
        >>> y = inversion_laplace(0.0, 100_000, 0, eps=1.0)
        >>> bool(np.all(_on_lattice(y, 0.0, 1.0, 1.0))), bool(np.any(_on_lattice(y + 1.0, 0.0, 1.0, 1.0)))
        (True, False)
    """
    _validate.finite("x", x)
    n = _validate.integer("n", n, 0)
    rng = _validate.generator(rng)
    _validate.positive("eps", eps)
    _validate.positive("sensitivity", sensitivity)
    std = sensitivity * np.sqrt(2) / eps
    mag = -np.log(1 - rng.integers(0, WORD, n) / WORD) / np.sqrt(2)
    sign = 2 * (rng.integers(0, WORD, n) / WORD < 0.5) - 1
    return x + (sign * mag) * std


def _on_lattice(y, x: float, eps: float, sensitivity: float) -> np.ndarray:
    """Whether each output y is one :func:`inversion_laplace` can produce on input x (recomputed bit for bit from
    the candidate words next to the inverted one)."""
    std = sensitivity * np.sqrt(2) / eps
    y = np.asarray(y, dtype=float)
    with np.errstate(over="ignore", invalid="ignore"):
        k0 = np.round((1 - np.exp(-np.abs(y - x) / std * np.sqrt(2))) * WORD)
    hit = np.zeros(y.shape, dtype=bool)
    for dk in (-2, -1, 0, 1, 2):
        k = np.clip(k0 + dk, 0, WORD - 1)
        mag = -np.log(1 - k / WORD) / np.sqrt(2)
        hit |= (x + mag * std == y) | (x + (-mag) * std == y)
    return hit


def _uniform(rng: np.random.Generator, n: int) -> np.ndarray:
    """Delta-Siege's RNGMechanism.uniform (``deltasiege/mechanism/rng_mechanism.py:27``): k / 2^32, k uniform on
    {0, ..., 2^32 - 1}."""
    return rng.integers(0, WORD, n) / WORD


def classic_gauss_std(eps: float, delta: float, sensitivity: float = 1.0) -> float:
    """The standard deviation of Delta-Siege's GaussMechanismClassic (``deltasiege/mechanism/gauss_mechanism.py:87``,
    Dwork and Roth 2014, Thm A.1): sqrt(2 ln(1.25 / delta) (sensitivity / eps)^2), for eps in (0, 1] (line 62).

    Raises:
        ValueError: naming eps, delta or sensitivity when out of range.

    Example:
        >>> round(classic_gauss_std(1.0, 1e-3), 4)
        3.7765
    """
    _validate.interval("eps", eps, 0.0, 1.0, lo_open=True, hi_open=False)
    _validate.interval("delta", delta, 0.0, 1.0, lo_open=True, hi_open=True)
    _validate.positive("sensitivity", sensitivity)
    return float(np.sqrt(2 * np.log(1.25 / delta) * np.square(sensitivity / eps)))


def box_muller_gauss(x: float, n: int, rng, *, eps: float, delta: float, sensitivity: float = 1.0) -> np.ndarray:
    """n outputs of Delta-Siege's GaussBoxMullerMechanism (``deltasiege/mechanism/gauss_box_muller.py:60-66``,
    return_s2 = False): r = sqrt(-2 ln u1), theta = 2 pi u2 with u1, u2 words of :func:`_uniform`, output
    x + std * r * cos(theta) in float64 in that order, std = :func:`classic_gauss_std` (u1 = 0, probability 2^-32,
    gives an infinite output, as there).

    Args:
        x: the input (finite). n: outputs, an integer >= 0. rng: seed/Generator. eps: in (0, 1]. delta: in (0, 1).
        sensitivity: > 0.

    Returns:
        float64 (n,).

    Raises:
        ValueError: naming the parameter out of range.

    Example:
        >>> y = box_muller_gauss(0.0, 100_000, 0, eps=1.0, delta=1e-3)
        >>> round(float(np.std(y)), 1), bool(np.abs(y).max() <= 6.67 * classic_gauss_std(1.0, 1e-3))
        (3.8, True)
    """
    _validate.finite("x", x)
    n = _validate.integer("n", n, 0)
    rng = _validate.generator(rng)
    std = classic_gauss_std(eps, delta, sensitivity)
    with np.errstate(divide="ignore"):
        r = np.sqrt(-2 * np.log(_uniform(rng, n)))
    theta = 2 * np.pi * _uniform(rng, n)
    return x + std * r * np.cos(theta)


def polar_gauss(x: float, n: int, rng, *, eps: float, delta: float, sensitivity: float = 1.0) -> np.ndarray:
    """n outputs of Delta-Siege's GaussPolarMechanism (``deltasiege/mechanism/gauss_polar.py:60-100``, return_s2 =
    False): batches of 2n words of :func:`_uniform` mapped to v = 2u - 1 in pairs, kept where 0 < ``|v|`` < 1, until n
    are kept; r = ``|v|^2``, output x + std * v_1 * sqrt(-2 ln(r) / r) in float64 in that order, std =
    :func:`classic_gauss_std`.

    Args:
        as :func:`box_muller_gauss`.

    Returns:
        float64 (n,).

    Raises:
        ValueError: naming the parameter out of range.

    Example:
        >>> y = polar_gauss(1.0, 100_000, 0, eps=1.0, delta=1e-3)
        >>> round(float(np.mean(y)), 1), round(float(np.std(y)), 1)
        (1.0, 3.8)
    """
    _validate.finite("x", x)
    n = _validate.integer("n", n, 0)
    rng = _validate.generator(rng)
    std = classic_gauss_std(eps, delta, sensitivity)
    batches, size = [], 0
    while size < n:
        v = 2 * _uniform(rng, 2 * n).reshape((-1, 2)) - 1
        norm = np.linalg.norm(v, axis=1)
        batches.append(v[(0 < norm) & (norm < 1)])
        size += batches[-1].shape[0]
    v = np.concatenate(batches, axis=0)[:n] if batches else np.zeros((0, 2))
    r = np.linalg.norm(v, axis=1).reshape((-1, 1)) ** 2
    scale = np.sqrt(-2 * np.log(r) / r)
    return (x + std * v * scale)[:, 0]


def prefix_sum(queries, n: int, rng, *, eps: float) -> np.ndarray:
    """n runs of DP-Sniper's PrefixSum (``dpsniper/mechanisms/prefix_sum.py:29-37``; Wang et al., PLDI 2019): the
    prefix sums of q_i + Lap(1 / eps). eps-DP when one query differs by at most 1; when every query may differ by at
    most 1 (DP-Sniper's component-wise patterns) m eps-DP, exactly (the all above / all below pairs).

    Args:
        queries: m >= 1 finite query answers (1-d). n: runs, an integer >= 0. rng: a seed or Generator. eps: > 0.

    Returns:
        float (n, m).

    Raises:
        ValueError: naming the parameter out of range.

    Example:
        >>> prefix_sum([1.0, 2.0, 3.0], 2, 0, eps=1e9).round(6).tolist()
        [[1.0, 3.0, 6.0], [1.0, 3.0, 6.0]]
    """
    _check_queries(queries)
    n = _validate.integer("n", n, 0)
    rng = _validate.generator(rng)
    _validate.positive("eps", eps)
    q = np.asarray(queries, dtype=float)
    return np.cumsum(q[None, :] + rng.laplace(0.0, 1.0 / eps, (n, len(q))), axis=1)


# --- the suites -----------------------------------------------------------------------------------------------------

#: StatDP's claimed eps in this audit: the middle of its benchmark's claimed_privacy (0.2, 0.7, 1.5)
#: (``examples/benchmark.py``, line 99), and its number of queries: the larger of num_input = (5, 10)
#: (``statdp/core.py``, line 30).
STATDP_EPS, STATDP_M = 0.7, 10
#: DP-Sniper's eps (every mechanism's default, ``dpsniper/mechanisms/*.py``) and its input sizes
#: (``dpsniper/experiments/exp_default.py``, lines 45-87).
SNIPER_EPS = 0.1
#: DP-Auditorium's SVT and noisy-max configuration (it publishes no default: eps, cutoff, queries, threshold chosen
#: here).
AUDITORIUM_EPS, AUDITORIUM_M, AUDITORIUM_C = 1.0, 10, 1


def _svt_codings(which: str, width: float = 1.0) -> list[Coding]:
    """The codings of an SVT output that the mechanism itself releases (a suite mechanism that returns only a count
    or a distance is coded by that number, nothing more); "full": :data:`privtest.svt_variants.CODINGS`, the released
    values on a grid of ``width`` (floor(value / width) clipped to [-20, 20], 21 when nothing is released)."""
    if which == "full":
        if width == 1.0:
            return SVT_CODINGS
        return [
            SVT_CODINGS[0],
            Coding(
                "bottoms and released value",
                ("bottoms", "min_value"),
                lambda out: SVT_CODINGS[1].code((out[0], np.asarray(out[1], dtype=float) / width)),
                ops=((">=", "any"), ("<=", "any")),
            ),
            SVT_CODINGS[2],
        ]
    if which == "bottoms":
        return [Coding("bottoms", ("bottoms",), lambda out: np.count_nonzero(out[0] == 0, axis=1))]
    if which == "hamming":
        return [Coding("hamming", ("hamming",), lambda out: pattern_distance(out[0], out[0].shape[1] // 2))]
    raise ValueError(f"which must be 'full', 'bottoms' or 'hamming'. Found {which!r}.")


def _last_released(out, width: float) -> np.ndarray:
    """StatDP iSVT4's output (count of bottoms, out[-1]): out[-1] is the last released value if the run ended on a
    top, else False; coded as (bottoms, floor(value / width) clipped to [-40, 40], 41 for False)."""
    answers, values = out
    idx = np.where(answers >= 0, np.arange(answers.shape[1])[None, :], -1).max(axis=1)
    last = values[np.arange(len(values)), idx]
    code = np.where(np.isfinite(last), np.clip(np.floor(np.nan_to_num(last) / width), -40, 40), 41)
    return np.stack([np.count_nonzero(answers == 0, axis=1), code.astype(np.int64)], axis=1)


def _svt(queries_shift=0.0, **kw):
    def sample(q, k, rng):
        return sparse_vector(np.asarray(q, dtype=float) + queries_shift, k, rng, **kw)

    return sample


def _real(name: str, width: float, lo: float, hi: float, pick=None) -> list[Coding]:
    def code(y):
        y = np.asarray(y, dtype=float)
        return grid(y if pick is None else pick(y), width, lo, hi)

    return [Coding(name, (name,), code)]


def _statdp() -> list[SuiteMechanism]:
    eps, m = STATDP_EPS, STATDP_M
    alg = "statdp/algorithms.py"
    all_pairs, one_pairs = statdp_patterns(m), statdp_patterns(m, one_differ=True)
    pairs_src = "StatDP's patterns (statdp/generators.py, lines 66-83; ALL_DIFFER as examples/benchmark.py, 85-95)"
    one_src = "StatDP's patterns, ONE_DIFFER (statdp/generators.py, lines 66-70; examples/benchmark.py, 89-90)"
    index = [Coding("index", ("index",), lambda y: y, ops=(("==",),))]
    value = _real("value", 0.25, -20.0, 40.0)
    grid_note = "the value on a grid of width 0.25 (floor(y / 0.25)), clipped to [-20, 40]"

    def nm(noise, report):
        return lambda q, k, rng: noisy_max(q, k, rng, scale=2.0 / eps, noise=noise, report=report)

    def hist(scale):
        return lambda q, k, rng: np.asarray(q, dtype=float)[0] + rng.laplace(0.0, scale, k)

    svt_kw = dict(rho_scale=2.0 / eps, nu_scale=4.0 / eps, cutoff=1, threshold=0.5)
    isvt = dict(threshold=1.0)
    rows = [
        ("noisy_max_v1a", nm("laplace", "index"), all_pairs, index, "the reported index", eps, "upper bound", True, 32),
        ("noisy_max_v1b", nm("laplace", "value"), all_pairs, value, grid_note, m * eps / 2, "upper bound", False, 37),
        ("noisy_max_v2a", nm("exponential", "index"), all_pairs, index, "the reported index", eps, "upper bound", True,
         42),
        ("noisy_max_v2b", nm("exponential", "value"), all_pairs, value, grid_note, math.inf, "exact", False, 46),
        ("histogram", hist(1.0 / eps), one_pairs, value, grid_note, eps, "exact", True, 57),
        ("histogram_eps", hist(eps), one_pairs, value, grid_note, 1.0 / eps, "exact", False, 51),
        ("SVT", _svt(**svt_kw), all_pairs, _svt_codings("bottoms"), "its output: the number of bottoms", eps,
         "upper bound", True, 62),
        ("iSVT1", _svt(rho_scale=2.0 / eps, nu_scale=0.0, cutoff=None, **isvt), all_pairs, _svt_codings("hamming"),
         "its output: the Hamming distance to half tops", math.inf, "exact", False, 79),
        ("iSVT2", _svt(rho_scale=2.0 / eps, nu_scale=2.0 / eps, cutoff=None, **isvt), all_pairs,
         _svt_codings("hamming"), "its output: the Hamming distance to half tops", m * eps / 2, "upper bound", False,
         95),
        ("iSVT3", _svt(rho_scale=4.0 / eps, nu_scale=4.0 / (3.0 * eps), cutoff=1, strict=True, **isvt), all_pairs,
         _svt_codings("hamming"), "its output: the Hamming distance to half tops", 1.75 * eps, "upper bound", False,
         112),
        ("iSVT4", _svt(rho_scale=2.0 / eps, nu_scale=2.0 / eps, cutoff=1, strict=True, release=True, **isvt),
         all_pairs, [Coding("bottoms and last", ("bottoms", "last"), lambda out: _last_released(out, 0.5),
                            ops=((">=", "<=", "=="), ("<=", ">=", "==", "any")))],
         "its output (bottoms, last value): the value on a grid of width 0.5 clipped to [-20, 20], False coded 41",
         m * eps / 2, "upper bound", False, 132),
    ]  # fmt: skip
    out = []
    for name, sample, pairs, codings, note, true, kind, private, line in rows:
        out.append(
            SuiteMechanism(
                "StatDP", name, eps, true, kind, private, sample, pairs, codings,
                source=f"{alg}:{line}", pairs_source=one_src if pairs is one_pairs else pairs_src,
                coding_note=note,
            )
        )  # fmt: skip
    return out


def _sniper() -> list[SuiteMechanism]:
    eps = SNIPER_EPS
    mech = "dpsniper/mechanisms"
    src = "the suite's PatternGenerator (dpsniper/input/pattern_generator.py: StatDP's patterns)"
    out = []

    def add(name, sample, pairs, codings, note, true, kind, private, source, claimed=eps, label="", pair_src=src):
        out.append(
            SuiteMechanism(
                "DP-Sniper", name, claimed, true, kind, private, sample, pairs, codings, source=source,
                pairs_source=pair_src, coding_note=note, label_note=label,
            )
        )  # fmt: skip

    scalar = {k: (v[0][:1], v[1][:1]) for k, v in statdp_patterns(2, one_differ=True).items()}
    add("LaplaceMechanism", lambda x, k, rng: x[0] + rng.laplace(0.0, 1.0 / eps, k), scalar,
        _real("value", 2.0, -60.0, 60.0), "the value on a grid of width 2, clipped to [-60, 60]", eps, "exact", True,
        f"{mech}/laplace.py, LaplaceMechanism")  # fmt: skip
    geo_eps = math.log(1 + 2.0 ** -math.ceil(math.log(2.0 / eps)))
    add("TruncatedGeometricMechanism", lambda c, k, rng: truncated_geometric(int(c[0]), k, rng, eps=eps),
        {k: (v[0].astype(int), v[1].astype(int)) for k, v in scalar.items()},
        [Coding("count", ("count",), lambda y: y)], "its output (an integer in [0, 5])", _geo_eps(eps, 5), "exact",
        True, f"{mech}/geometric.py (Balcer-Vadhan Alg. 4.8; claim ln(1 + 2^-k), Thm 4.7 there)", claimed=geo_eps,
        label="constructed with eps = 0.1; its docstring states ln(1 + 2^-ceil(ln(2/eps)))-DP, the claim audited",
        )  # fmt: skip
    hist5 = statdp_patterns(5, one_differ=True)

    def noisy_hist(scale):
        return lambda a, k, rng: np.asarray(a, dtype=float)[None, :] + rng.laplace(0.0, scale, (k, len(a)))

    first = _real("first bin", 1.0, -40.0, 40.0, pick=lambda y: y[:, 0])
    note_first = "the first bin (where the patterns differ) on a grid of width 1, clipped to [-40, 40]"
    add("NoisyHist1", noisy_hist(1.0 / eps), hist5, first, note_first, eps, "exact", True,
        f"{mech}/noisy_hist.py, NoisyHist1 (Ding et al. 2018, Alg. 9)")  # fmt: skip
    first2 = _real("first bin", 0.01, -1.0, 3.0, pick=lambda y: y[:, 0])
    add("NoisyHist2", noisy_hist(eps), hist5, first2,
        "the first bin on a grid of width 0.01, clipped to [-1, 3]", 1.0 / eps, "exact", False,
        f"{mech}/noisy_hist.py, NoisyHist2 (Ding et al. 2018, Alg. 10)")  # fmt: skip
    rnm = statdp_patterns(5)
    index = [Coding("index", ("index",), lambda y: y, ops=(("==",),))]
    value = _real("value", 2.0, -40.0, 80.0)
    vnote = "the value on a grid of width 2, clipped to [-40, 80]"
    for i, (noise, report, codings, note, true, kind, private) in enumerate(
        [
            ("laplace", "index", index, "the reported index", eps, "upper bound", True),
            ("exponential", "index", index, "the reported index", eps, "upper bound", True),
            ("laplace", "value", value, vnote, 5 * eps / 2, "upper bound", False),
            ("exponential", "value", value, vnote, math.inf, "exact", False),
        ]  # fmt: skip
    ):

        def sample(q, k, rng, noise=noise, report=report):
            return noisy_max(q, k, rng, scale=2.0 / eps, noise=noise, report=report)

        add(f"ReportNoisyMax{i + 1}", sample, rnm, codings, note, true, kind, private,
            f"{mech}/report_noisy_max.py, ReportNoisyMax{i + 1} (Ding et al. 2018, Alg. {i + 5})")  # fmt: skip
    m, e1 = 10, eps / 2
    svt = statdp_patterns(m)
    lyu = "(Lyu, Su, Li 2017, Alg. {})"
    specs = [
        (1, 0.5, dict(rho_scale=1 / e1, nu_scale=2 / e1, cutoff=1), eps, "upper bound", True),
        (2, 1.0, dict(rho_scale=1 / e1, nu_scale=2 / e1, cutoff=1, redraw_scale=1 / e1), eps, "upper bound", True),
        (3, 1.0, dict(rho_scale=1 / e1, nu_scale=1 / e1, cutoff=1, release=True), m * eps / 2, "exact", False),
        (4, 1.0, dict(rho_scale=4 / eps, nu_scale=4 / (3 * eps), cutoff=1), 1.75 * eps, "upper bound", False),
        (5, 1.0, dict(rho_scale=1 / e1, nu_scale=0.0, cutoff=None), math.inf, "exact", False),
        (6, 1.0, dict(rho_scale=1 / e1, nu_scale=1 / e1, cutoff=None), m * eps / 2, "upper bound", False),
    ]
    for i, t, kw, true, kind, private in specs:
        add(f"SparseVectorTechnique{i}", _svt(threshold=t, **kw), svt, _svt_codings("full", 10.0),
            "first top and tops; bottoms and the smallest released value (floor(value / 10), clipped to [-20, 20]); "
            "Hamming distance to half tops", true, kind, private,
            f"{mech}/sparse_vector_technique.py, SparseVectorTechnique{i} {lyu.format(i)}")  # fmt: skip
    for name, inst, f, claim in (("Rappor", True, 0.75, None), ("OneTimeRappor", False, 0.95, None)):
        a, b = _bloom(1, 4, 20), _bloom(0, 4, 20)
        if inst:  # RAPPOR's eps_1 (one report): h ln(q*(1 - p*) / (p*(1 - q*)))
            qs, ps = 0.5 * f * (0.45 + 0.55) + (1 - f) * 0.55, 0.5 * f * (0.45 + 0.55) + (1 - f) * 0.45
            claim = 4 * math.log(qs * (1 - ps) / (ps * (1 - qs)))
            per_bit = math.log(qs * (1 - ps) / (ps * (1 - qs))) / 2
        else:  # eps_inf = 2h ln((1 - f/2) / (f/2))
            claim = 2 * 4 * math.log((1 - f / 2) / (f / 2))
            per_bit = math.log((1 - f / 2) / (f / 2))
        differ = int(np.count_nonzero(a != b))
        only_a, only_b = a & ~b, b & ~a

        def code(y, only_a=only_a, only_b=only_b):
            y = np.asarray(y)
            return y[:, only_a].sum(axis=1) - y[:, only_b].sum(axis=1)

        def sample(v, k, rng, inst=inst, f=f):
            return rappor(int(v[0]), k, rng, f=f, instantaneous=inst)

        add(name, sample, {"1 vs 0": (np.array([1]), np.array([0]))},
            [Coding("bloom bits", ("ones on bits of 1 only - ones on bits of 0 only",), code)],
            f"ones among the {differ} Bloom bits where the filters of 1 and 0 differ (+1 for a bit of 1 only, -1 for a "
            "bit of 0 only): the likelihood ratio's sufficient statistic", differ * per_bit, "exact (the pair)", True,
            f"{mech}/rappor.py, {name} (claim from Erlingsson et al. 2014: "
            + ("eps_1 = h ln(q*(1-p*)/(p*(1-q*))))" if inst else "eps_inf = 2h ln((1-f/2)/(f/2)))"),
            claimed=claim, pair_src="DP-Sniper's published witness a1 = [1], a2 = [0] "
            "(eval_sp2021/reference-results/dd_search_reg_data.log, lines 114 and 122)")  # fmt: skip

    # SVT34Parallel (dpsniper/mechanisms/parallel.py): SVT3 and SVT4 with c = 2, t = 1 run side by side on the same
    # queries; claim: the two claims composed, 2 eps (DP-Sniper states none)
    def svt34(q, k, rng, c=2):
        three = sparse_vector(q, k, rng, threshold=1.0, rho_scale=1 / e1, nu_scale=c / e1, cutoff=c, release=True)
        four = sparse_vector(q, k, rng, threshold=1.0, rho_scale=4 / eps, nu_scale=4 / (3 * eps), cutoff=c)
        return three, four

    add("SVT34Parallel", svt34, svt,
        [Coding(f"SVT3: {x.name}", x.features, lambda out, x=x: x.code(out[0]), x.ops)
         for x in _svt_codings("full", 10.0)[1:]]
        + [Coding("SVT4: tops", SVT_CODINGS[0].features, lambda out: SVT_CODINGS[0].code(out[1]))],
        "SVT3's bottoms and smallest released value (floor(value / 10)) or its Hamming distance; SVT4's first top "
        "and tops", m * eps / 4 + (1 + 12) / 4 * eps, "upper bound", False,
        f"{mech}/parallel.py, SVT34Parallel (c = 2; claim 2 eps, the composition of the two claims)",
        claimed=2 * eps)  # fmt: skip

    def numerical_svt(q, k, rng, c=2, t=1.0):
        q = np.asarray(q, dtype=float)
        rho1 = rng.laplace(0.0, 3 / eps, (k, 1))
        above = q[None, :] + rng.laplace(0.0, 6 * c / eps, (k, len(q))) >= t + rho1
        z = q[None, :] + rng.laplace(0.0, 3 * c / eps, (k, len(q)))
        tops_before = np.cumsum(above, axis=1) - above  # tops strictly before each query
        answers = np.where(tops_before >= c, -1, above).astype(np.int8)
        values = np.where(answers == 1, z, np.nan)
        return answers, values

    add("NumericalSVT", numerical_svt, svt, _svt_codings("full", 10.0),
        "first top and tops; bottoms and the smallest released value (floor(value / 10), clipped to [-20, 20]); "
        "Hamming distance to half tops", eps, "upper bound", True,
        f"{mech}/sparse_vector_technique.py, NumericalSVT (c = 2, t = 1; Wang et al., PLDI 2019)")  # fmt: skip

    # PrefixSum: DP-Sniper audits it on PatternGenerator(domain, True) (exp_default.py:86), whose flag is
    # component_wise_neighborhood (pattern_generator.py:25-31): every query may differ by at most 1, the neighbourhood
    # its pairs define, under which the prefix sums of q + Lap(1/eps) are m eps-DP, exactly (all above / all below)
    def increments(y):
        y = np.asarray(y, dtype=float)
        return np.diff(y, axis=1, prepend=0.0)

    def clipped(centre):  # the likelihood-ratio statistic of the pairs whose queries are centre -/+ 1/2
        return lambda y: grid(np.clip(2 * (increments(y) - centre), -1.0, 1.0).sum(axis=1), 0.5, -10.0, 10.0)

    add("PrefixSum", lambda q, k, rng: prefix_sum(q, k, rng, eps=eps), svt,
        [Coding("increments about 1/2", ("sum of clip(2 (d_i - 1/2), -1, 1)",), clipped(0.5)),
         Coding("increments about 3/2", ("sum of clip(2 (d_i - 3/2), -1, 1)",), clipped(1.5)),
         *_real("last prefix sum", 5.0, -150.0, 150.0, pick=lambda y: np.asarray(y, dtype=float)[:, -1])],
        "the increments d_i of the prefix sums (the noisy queries): sum of clip(2 (d_i - c), -1, 1) for c = 1/2 and "
        "3/2 (the likelihood ratio's statistic of the pairs 0 vs 1 and 1 vs 2) on a grid of width 0.5; the last "
        "prefix sum on a grid of width 5 clipped to [-150, 150]", m * eps, "exact", False,
        f"{mech}/prefix_sum.py:29-37, PrefixSum (Wang et al., PLDI 2019)",
        label="audited on DP-Sniper's own pairs, PatternGenerator(domain, True) (exp_default.py:86): the component-"
        "wise neighbourhood (pattern_generator.py:25-31, every query differs by at most 1), under which it is "
        "m eps = 1.0-DP, not eps-DP", pair_src="the suite's PatternGenerator with component_wise_neighborhood = "
        "True (dpsniper/experiments/exp_default.py:86; StatDP's ALL_DIFFER patterns)")  # fmt: skip
    lp_eps, lp_n = 0.005, 20

    def laplace_parallel(x, k, rng):
        return x[0] + rng.laplace(0.0, 1.0 / lp_eps, (k, lp_n))

    add("LaplaceParallel", laplace_parallel, scalar,
        _real("sum", 200.0, -8000.0, 8000.0, pick=lambda y: y.sum(axis=1)),
        "the sum of the 20 outputs (the location's sufficient direction) on a grid of width 200, clipped to "
        "[-8000, 8000]", lp_n * lp_eps, "exact", True,
        f"{mech}/parallel.py, LaplaceParallel (20 x Laplace at eps = 0.005, exp_default.py:80)",
        claimed=lp_n * lp_eps)  # fmt: skip
    return out


def _auditorium() -> list[SuiteMechanism]:
    eps, m, c = AUDITORIUM_EPS, AUDITORIUM_M, AUDITORIUM_C
    svt_file = "python/dp_auditorium/dp_auditorium/mechanisms/sparse_vector_technique.py"
    pairs = statdp_patterns(m)
    src = "witness search over StatDP's patterns (DP-Auditorium searches datasets with Vizier; no pairs published)"
    specs = [
        ("SVT1", dict(rho_scale=2 / eps, nu_scale=4 * c / eps), eps, "upper bound", True, "private", 182),
        ("SVT2", dict(rho_scale=2 * c / eps, nu_scale=4 * c / eps), eps, "upper bound", True, "private", 222),
        ("SVT3", dict(rho_scale=2 / eps, nu_scale=2 * c / eps, release=True), m * eps / (2 * c), "exact", False,
         "non private", 270),
        ("SVT4", dict(rho_scale=4 / eps, nu_scale=4 / (3 * eps)), (1 + 6 * c) / 4 * eps, "upper bound", False,
         "private in its docstring, which also states the guarantee (1 + 6c) eps / 4 (Lyu et al., Thm 5)", 313),
        ("SVT5", dict(rho_scale=2 / eps, nu_scale=0.0), math.inf, "exact", False, "non private", 353),
        ("SVT6", dict(rho_scale=2 / eps, nu_scale=2 / eps), eps / 2 + 2 * c * eps / 2, "upper bound", False,
         "non private", 388),
    ]  # fmt: skip
    out = []
    for name, kw, true, kind, private, label, line in specs:
        # every DP-Auditorium SVT stops after max_answered_queries tops (AbstractSVTMechanism.__call__, line 141)
        out.append(
            SuiteMechanism(
                "DP-Auditorium", name, eps, true, kind, private, _svt(threshold=1.0, cutoff=c, **kw), pairs,
                _svt_codings("full"), source=f"{svt_file}:{line}", pairs_source=src,
                coding_note="first top and tops; bottoms and the smallest released value; Hamming distance",
                label_note=label if label not in ("private", "non private") else "",
            )
        )  # fmt: skip

    def gumbel_max(counts, k, rng):
        return noisy_max(counts, k, rng, scale=2.0 / eps, noise="gumbel")

    out.append(
        SuiteMechanism(
            "DP-Auditorium", "NoisyMaxMechanism", eps, eps, "upper bound", True, gumbel_max,
            statdp_patterns(m, one_differ=True),
            [Coding("index", ("index",), lambda y: y, ops=(("==",),))],
            source="python/dp_auditorium/dp_auditorium/mechanisms/noisy_max.py (Gumbel(2/eps) report noisy max)",
            pairs_source="witness search: element counts of two datasets that differ in one record (StatDP's "
            "ONE_DIFFER patterns)", coding_note="the reported index",
        )
    )  # fmt: skip
    return out


def _delta_siege() -> list[SuiteMechanism]:
    out = []
    # run_benchmarks.py: input pair (0.0, 1.0) (line 58), eps in (0.1, 1.0) for the Laplace mechanisms (line 199)
    for eps in (0.1, 1.0):

        def sample(x, k, rng, eps=eps):
            return inversion_laplace(float(x), k, rng, eps=eps)

        def code(y, eps=eps):
            return np.stack([_on_lattice(y, 0.0, eps, 1.0), _on_lattice(y, 1.0, eps, 1.0)], axis=1).astype(np.int64)

        out.append(
            SuiteMechanism(
                "Delta-Siege", f"laplace_inversion (eps = {eps:g})", eps, math.inf, "exact", False, sample,
                {"0 vs 1": (0.0, 1.0)},
                [Coding("lattice", ("on the lattice of input 0", "on the lattice of input 1"), code)],
                source="deltasiege/mechanism/laplace_inversion.py with rng_mechanism.py (2^32 words)",
                pairs_source="Delta-Siege's input pair (0.0, 1.0) (scripts/run_benchmarks.py, line 58)",
                coding_note="whether the output is one the float64 computation can produce on input 0, resp. input "
                "1 (recomputed bit for bit): a floating-point coding, like Delta-Siege's attack",
            )
        )  # fmt: skip
    # the self-contained Gaussians (GaussMechanismClassic on RNGMechanism words): eps = 1.0 (run_benchmarks.py:199,
    # eps in (0.1, 1.0)) and delta = 1e-3 (line 194, delta in (1e-6, 1e-3, 0.1)); the ideal Gaussian of that std is
    # (1.0, 1e-3)-DP (gauss_mechanism.py:62, 87: Dwork and Roth, Thm A.1)
    g_eps, g_delta = 1.0, 1e-3
    std = classic_gauss_std(g_eps, g_delta)
    for name, fn, lines in (
        ("gauss_boxmuller", box_muller_gauss, "gauss_box_muller.py:60-66"),
        ("gauss_polar", polar_gauss, "gauss_polar.py:60-100"),
    ):

        def sample(x, k, rng, fn=fn):
            return fn(float(x), k, rng, eps=g_eps, delta=g_delta)

        out.append(
            SuiteMechanism(
                "Delta-Siege", f"{name} (eps = {g_eps:g}, delta = {g_delta:g})", g_eps, math.nan, "", True, sample,
                {"0 vs 1": (0.0, 1.0)}, _real("value", 0.25, -6 * std, 1 + 6 * std),
                source=f"deltasiege/mechanism/{lines} with gauss_mechanism.py:87 (std) and rng_mechanism.py:27 "
                "(2^32 words)",
                pairs_source="Delta-Siege's input pair (0.0, 1.0) (scripts/run_benchmarks.py, line 58)",
                coding_note=f"the value on a grid of width 0.25, clipped to [-6 std, 1 + 6 std] (std = {std:.4g}): a "
                "real-valued coding (the distribution, not the float64 set: an output comes from 2^64 word pairs, "
                "too many to recompute per output as for laplace_inversion)",
                label_note="private by the classic analysis of the real-valued Gaussian (Dwork and Roth, Thm A.1); "
                "Delta-Siege's repository labels no mechanism; its true eps at delta for the float64 implementation "
                "is not known in closed form",
                delta=g_delta,
            )
        )  # fmt: skip
    return out


def suite_mechanisms(suites=None) -> list[SuiteMechanism]:
    """Every audited mechanism of the four suites (module docstring), in suite order.

    Args:
        suites: the suite names to keep (a subset of :data:`SOURCES`' keys), or None for all.

    Returns:
        list of :class:`SuiteMechanism`.

    Raises:
        ValueError: naming suites when one is unknown.

    Example:
        >>> [len(suite_mechanisms([s])) for s in SOURCES]
        [11, 20, 7, 4]
    """
    if suites is not None:
        if isinstance(suites, str) or not set(suites) <= set(SOURCES):
            raise ValueError(f"suites must be a subset of {sorted(SOURCES)}. Found {suites!r}.")
    build = {"StatDP": _statdp, "DP-Sniper": _sniper, "DP-Auditorium": _auditorium, "Delta-Siege": _delta_siege}
    keep = list(SOURCES) if suites is None else [s for s in SOURCES if s in set(suites)]
    return [m for s in keep for m in build[s]()]
