"""Private hyperparameter search on real data (Section 1.5): DP Gaussian naive Bayes models as the GTM's M_t.

The input mechanism M_t of ``fig_hpo`` trains one differentially private Gaussian naive Bayes model with
hyperparameter h_t on the private training split of scikit-learn's Wisconsin breast-cancer data (shipped inside the
installed scikit-learn, nothing is downloaded) and outputs +1 iff its accuracy on the public validation split reaches
a target. The GTM evaluates M_t hundreds to thousands of times per step, so every evaluation is a real training run
and the learner has to be fast:

:class:`VectorizedDPGaussianNB` is a faithful vectorized re-implementation of ``diffprivlib.models.GaussianNB``
(diffprivlib 0.6.6; Vaidya, Shafiq, Basu and Hong, "Differentially private naive Bayes classification", WI-IAT 2013):
the same mechanisms with the same budgets and sensitivities, drawn for n models at once from sufficient statistics
computed once:

* class counts: truncated geometric mechanism (eps/3, sensitivity 1, clamped to [1, n]), then diffprivlib's
  round-robin correction so the counts sum to n;
* per class and feature, the sum of the clipped feature: Laplace (eps/(3d), sensitivity upper - lower), clamped to
  [lower n_c, upper n_c] and divided by the noisy count n_c: the mean theta;
* per class and feature, the sum of squared deviations from that noisy mean: bounded-domain Laplace
  (Holohan et al. 2020; eps/(3d), sensitivity max(theta - lower, upper - theta)^2, domain [0, sensitivity n_c])
  divided by n_c: the variance, plus ``var_smoothing``;
* prediction as scikit-learn's GaussianNB (prior = noisy count / n). For two classes, :meth:`accuracies
  <VectorizedDPGaussianNB.accuracies>` decides by the sign of the difference of the two joint log-likelihoods, one
  matrix product per block of models, and uses it only where a rounding-error bound certifies that it agrees with
  :meth:`predict <VectorizedDPGaussianNB.predict>`'s two products per class: the predictions, hence the accuracies,
  are the same bit for bit (near-ties are predicted by ``predict``'s own computation).

Distributions (not bit streams) match diffprivlib: numpy's Laplace/geometric samplers and inverse-CDF sampling of
the bounded-domain Laplace replace diffprivlib's four-uniform and rejection samplers. ``tests/test_hpo.py`` compares
the two with two-sample tests.

Privacy accounting (threat model of ``fig_hpo``): the training split is private; neighbouring training sets differ
in one record, replaced (features and label; n is public, as diffprivlib's count correction needs). Features are
centred on the midpoint of their public clipping bounds before training (a public, data-independent shift), so a
clipped value lies in [-r_j, r_j], r_j = (upper_j - lower_j)/2. A replacement that keeps the label changes one
class's feature sums by <= 2 r_j (the Laplace sensitivity: eps/3 over the d features) and its squared deviations by
<= the bounded-Laplace sensitivity (eps/3): 2 eps/3 in all. A replacement that changes the label from a to b changes
two class counts by 1 (2 eps/3), the feature sums of classes a and b by <= r_j each (2 x eps/6 = eps/3) and the
squared deviations of both classes (2 eps/3): 5 eps/3 in all. So the model with diffprivlib parameter ``epsilon``
is eps_t-DP with eps_t = :data:`PRIVACY_FACTOR` x epsilon = 5 epsilon/3, and accuracy thresholding on public data is
post-processing. (Without centring, diffprivlib's mean sensitivity upper - lower does not cover a label change:
adding a value x changes the sum by |x|, up to max(|lower|, |upper|).)
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from privtest import _validate
from privtest.co.mechanisms import threshold_select
from privtest.mechanisms import Mechanism

#: eps_t / epsilon of the model under replace-one neighbours with centred features (module docstring).
PRIVACY_FACTOR = 5.0 / 3.0

#: Budget shares of diffprivlib's GaussianNB: counts, means, variances (each eps/3; means/variances split over d).
BUDGET_SHARES = (1.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0)


@dataclass(frozen=True)
class Split:
    """A fixed train/validation split of a labelled dataset.

    Attributes:
        X_train: float array (n, D) (private). y_train: int array (n,).
        X_val: float array (m, D) (public). y_val: int array (m,).
        classes: sorted int array of the public label set.
        name: dataset name.
    """

    X_train: np.ndarray
    y_train: np.ndarray
    X_val: np.ndarray
    y_val: np.ndarray
    classes: np.ndarray
    name: str


def load_split(dataset: str = "breast_cancer", val_fraction: float = 0.4, split_seed: int = 0) -> Split:
    """Load a dataset shipped inside scikit-learn (no download) and split it (stratified) into train/validation.

    Args:
        dataset: "breast_cancer" (569 records, 30 features, 2 classes) or "wine" (178, 13, 3).
        val_fraction: fraction in (0, 1) of records in the public validation split.
        split_seed: integer seed of the (public) split; the split is part of the setup, not of the randomness of
            the experiment.

    Raises:
        ValueError: on an unknown dataset or val_fraction outside (0, 1).
    """
    from sklearn import datasets
    from sklearn.model_selection import train_test_split

    loaders = {"breast_cancer": datasets.load_breast_cancer, "wine": datasets.load_wine}
    if dataset not in loaders:
        raise ValueError(f"dataset must be one of {sorted(loaders)}. Found {dataset!r}.")
    _validate.open_unit("val_fraction", val_fraction)
    X, y = loaders[dataset](return_X_y=True)
    Xtr, Xva, ytr, yva = train_test_split(X, y, test_size=val_fraction, random_state=split_seed, stratify=y)
    return Split(
        Xtr.astype(float), ytr.astype(np.int64), Xva.astype(float), yva.astype(np.int64), np.unique(y), dataset
    )


@dataclass(frozen=True)
class Hyper:
    """Hyperparameter h_t: the ``features`` top-ranked features and clipping bounds at quantile ``quantile``.

    Both are computed on the public validation split only: features are ranked by the Fisher score
    |mean_1 - mean_0| / (sd_0 + sd_1) (largest over class pairs), bounds are the per-feature quantiles
    ``quantile`` and ``1 - quantile``.
    """

    features: int
    quantile: float

    def __post_init__(self):
        _validate.integer("features", self.features)
        _validate.interval("quantile", self.quantile, 0.0, 0.5, lo_open=False, hi_open=True)

    @property
    def label(self) -> str:
        return f"d={self.features}, q={self.quantile:g}"


def public_preprocessing(split: Split, h: Hyper) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Feature subset and clipping bounds for ``h`` from the public validation split only.

    Returns:
        (features, lower, upper): int array (d,) of column indices, float arrays (d,) with lower < upper.

    Raises:
        ValueError: if h.features exceeds the number of columns, or a public class is missing from the (public)
            validation split.
    """
    X, y = split.X_val, split.y_val
    if h.features > X.shape[1]:
        raise ValueError(f"features must be <= {X.shape[1]}. Found {h.features}.")
    missing = [int(c) for c in split.classes if not np.any(y == c)]
    if missing:  # public data only: the Fisher score needs every class in the validation split
        raise ValueError(f"y_val must contain every public class; missing {missing}.")
    means = np.stack([X[y == c].mean(0) for c in split.classes])
    sds = np.stack([X[y == c].std(0) for c in split.classes])
    score = np.zeros(X.shape[1])
    for a in range(len(split.classes)):
        for b in range(a + 1, len(split.classes)):
            score = np.maximum(score, np.abs(means[a] - means[b]) / (sds[a] + sds[b] + 1e-12))
    feats = np.argsort(-score, kind="stable")[: h.features]
    lower = np.quantile(X[:, feats], h.quantile, axis=0)
    upper = np.quantile(X[:, feats], 1.0 - h.quantile, axis=0)
    upper = np.where(upper > lower, upper, lower + 1e-9)
    return feats, lower, upper


def bounded_laplace_scale(epsilon: float, ratio) -> np.ndarray:
    """Scale / sensitivity of diffprivlib's ``LaplaceBoundedDomain`` (delta = 0) for domain diameter / sensitivity
    = ``ratio`` (Holohan et al. 2020): the fixed point b = 1/(epsilon - ln Delta_C(b)),
    Delta_C(b) = (2 - e^{-1/b} - e^{-(ratio-1)/b}) / (1 - e^{-ratio/b}), found by bisection as diffprivlib does.

    Args:
        epsilon: > 0.
        ratio: array (any shape) of diameter/sensitivity values >= 1.

    Returns:
        float array with the shape of ``ratio``.
    """
    _validate.positive("epsilon", epsilon)
    r = np.asarray(ratio, dtype=float)

    def f(b):
        dc = (2.0 - np.exp(-1.0 / b) - np.exp(-(r - 1.0) / b)) / (1.0 - np.exp(-r / b))
        return 1.0 / (epsilon - np.log(dc))

    left = np.full(r.shape, 1.0 / epsilon)
    right = f(left)
    for _ in range(200):  # the interval halves each time: 200 halvings reach float resolution
        mid = 0.5 * (left + right)
        fm = f(mid)
        left = np.where(fm >= mid, mid, left)
        right = np.where(fm <= mid, mid, right)
    return 0.5 * (left + right)


@functools.lru_cache(maxsize=64)
def _var_scale_table(eps_local: float, n_total: int) -> np.ndarray:
    """bounded_laplace_scale(eps_local, c) at index c for every class count c = 1..n_total (index 0: NaN), read-only.

    The bisection is elementwise, so each entry is bit for bit the value solved for that count alone.
    """
    table = np.full(n_total + 1, np.nan)
    table[1:] = bounded_laplace_scale(eps_local, np.arange(1, n_total + 1, dtype=float))
    table.flags.writeable = False
    return table


def _sample_laplace_in(value, scale, lower, upper, rng):
    """Laplace(value, scale) conditioned on [lower, upper] (value already inside), by inverse CDF (all arrays)."""
    cdf = lambda x: np.where(x < value, 0.5 * np.exp((x - value) / scale), 1.0 - 0.5 * np.exp((value - x) / scale))  # noqa: E731
    u = rng.uniform(cdf(lower), cdf(upper))
    with np.errstate(divide="ignore"):
        x = np.where(u < 0.5, value + scale * np.log(2.0 * u), value - scale * np.log(2.0 * (1.0 - u)))
    return np.clip(x, lower, upper)


def _sample_laplace_0_to(value, scale, upper, rng):
    """``_sample_laplace_in(value, scale, 0.0, upper, rng)`` for 0 <= value <= upper and scale > 0 (arrays of one
    shape): the same random draws (one ``rng.random`` double per element) and bit for bit the same numbers."""
    u = rng.random(np.shape(value))
    return _laplace_0_to_from_uniform(value, scale, upper, u, np.empty_like(u), np.empty_like(u))


def _laplace_0_to_from_uniform(value, scale, upper, u, work1, work2):
    """The inverse-CDF step of :func:`_sample_laplace_0_to` on given doubles ``u`` of ``rng.random``, in place: the
    sample is written into ``u`` (returned); ``work1``, ``work2`` are scratch arrays of the same shape.

    Only the CDF branch each bound takes is evaluated (0 <= value <= upper); ``rng.uniform(lo, hi)`` is numpy's
    lo + (hi - lo) U on the doubles U of ``rng.random``; the quantile's argument 2 u or 2 (1 - u) is
    2 min(u, 1 - u) (1 - u is exact for u >= 1/2 and above 1/2 otherwise) and its sign is copysign(1, u - 1/2).
    """
    lo_cdf = np.negative(value, out=work1)  # cdf(0) = 0.5 exp(-value/scale) (= 0.5 at value = 0 on either branch)
    lo_cdf /= scale
    np.exp(lo_cdf, out=lo_cdf)
    lo_cdf *= 0.5
    hi_cdf = np.subtract(value, upper, out=work2)  # cdf(upper) = 1 - 0.5 exp((value - upper)/scale)
    hi_cdf /= scale
    np.exp(hi_cdf, out=hi_cdf)
    hi_cdf *= 0.5
    np.subtract(1.0, hi_cdf, out=hi_cdf)
    hi_cdf -= lo_cdf
    u *= hi_cdf
    u += lo_cdf  # rng.uniform(lo_cdf, hi_cdf)
    x = np.subtract(1.0, u, out=work2)
    np.minimum(u, x, out=x)
    x *= 2.0
    with np.errstate(divide="ignore"):
        np.log(x, out=x)
    x *= scale
    sign = np.subtract(u, 0.5, out=work1)
    np.copysign(1.0, sign, out=sign)  # -1: value + scale log(2u); +1: value - scale log(2(1 - u))
    x *= sign
    np.subtract(value, x, out=x)
    return np.clip(x, 0.0, upper, out=u)


def _round_robin_fix(counts: np.ndarray, n_total: int) -> np.ndarray:
    """diffprivlib's correction of noisy class counts (n_models, K) so each row sums to n_total.

    Rows above n_total are decremented one class at a time in ascending order of the noisy counts (floored at 1),
    rows below are incremented in descending order, cycling until the sum is right (diffprivlib's while loop). Ties
    in the order break as numpy's default argsort breaks them (platform-dependent, identical to diffprivlib's call).

    The loop in closed form: a row off by gap = n_total - sum passes |gap| times, which changes the class at position
    j of the ascending order by (gap + j) // K (floor division), unless the floor at 1 binds. It never binds on the
    way up; a row where the closed form would take a count below 1 runs the loop itself (:func:`_round_robin_loop`).
    For K = 2 the order matters only for unequal counts and for ties with an odd gap: argsort is called on those
    ties only.

    Raises:
        ValueError: if n_total < K (every count stays >= 1: no row could reach the sum, the loop would never end).
    """
    counts = np.array(counts, dtype=np.int64)
    K = counts.shape[1]
    if n_total < K:  # every class keeps a count >= 1: no row could reach the sum, the loop would never end
        raise ValueError(f"n_total must be >= the number of classes K = {K}. Found {n_total!r}.")
    if K == 2:
        c0, c1 = counts[:, 0], counts[:, 1]
        gap = n_total - c0 - c1
        low = gap // 2  # the change of the class at position 0 (the smaller count); position 1 gets gap - low
        first1 = c1 < c0
        tie = (c0 == c1) & (gap % 2 == 1)
        if tie.any():  # numpy's default argsort, exactly as diffprivlib calls it: ties then break the same way
            first1[tie] = np.argsort(counts[tie], axis=1)[:, 0] == 1
        add0 = np.where(first1, gap - low, low)
        fixed = np.empty_like(counts)
        np.add(c0, add0, out=fixed[:, 0])
        np.add(c1, gap - add0, out=fixed[:, 1])
    else:
        order = np.argsort(counts, axis=1)
        gap = n_total - counts.sum(axis=1)
        r = np.arange(counts.shape[0])[:, None]
        fixed = counts.copy()
        fixed[r, order] += (gap[:, None] + np.arange(K)) // K
    if fixed.size and fixed.min() < 1:  # only downward: the floor at 1 binds, the loop skips a pass there
        floored = np.flatnonzero((fixed < 1).any(axis=1))
        fixed[floored] = counts[floored]
        _round_robin_loop(fixed, floored, n_total)
    return fixed


def _round_robin_loop(counts: np.ndarray, rows: np.ndarray, n_total: int) -> None:
    """diffprivlib's while loop on ``rows`` of ``counts`` (in place, n_total >= K).

    Bounded: a row above n_total >= K has a count > 1, so every K passes decrement at least once; a row below
    n_total gains 1 per pass.
    """
    K = counts.shape[1]
    order = np.argsort(counts[rows], axis=1)  # numpy's default argsort on the noisy counts, as diffprivlib
    total = counts[rows].sum(1)
    sgn = np.sign(n_total - total)
    i = np.where(total > n_total, 0, K - 1)
    at = np.arange(rows.size)
    while rows.size:
        cls = order[at, i]
        counts[rows, cls] = np.clip(counts[rows, cls] + sgn, 1, n_total)
        i = (i - sgn) % K
        keep = counts[rows].sum(1) != n_total
        rows, at, sgn, i = rows[keep], at[keep], sgn[keep], i[keep]


@dataclass(frozen=True)
class _Validation:
    """What :meth:`VectorizedDPGaussianNB.accuracies` reuses across calls on one validation set (copies of X, y).

    ``y_idx``: searchsorted(classes, y), the index a prediction must equal. ``signed`` (K = 2 only): the rows i with
    y_idx in {0, 1}, as s_i [Xc_i^2, Xc_i, 1] with s_i = +1 for y_idx = 1 and -1 for y_idx = 0 (Xc = X - center);
    ``inv_weight``, ``w_weight``: the column maxima of Xc^2 / 2 and of |Xc| over all rows, each repeated for both
    classes (2d,).
    """

    X: np.ndarray
    y: np.ndarray
    y_idx: np.ndarray
    signed: np.ndarray | None
    inv_weight: np.ndarray | None
    w_weight: np.ndarray | None


#: Array elements per block of :meth:`VectorizedDPGaussianNB.sample_params`'s arithmetic (its scratch stays in cache).
_SAMPLE_BLOCK = 16384

#: Models per matrix product in the certified prediction (the (m, models) block stays in a core's cache).
_PREDICT_BLOCK = 512


class VectorizedDPGaussianNB:
    """diffprivlib's GaussianNB (Vaidya et al. 2013), trained n times at once on one dataset (module docstring).

    Args:
        X: float array (n, d) of training features, already restricted to the model's columns.
        y: int array (n,) of labels in ``classes``.
        lower, upper: float arrays (d,), public clipping bounds with lower < upper.
        epsilon: diffprivlib's privacy parameter > 0 (the model is PRIVACY_FACTOR * epsilon - DP, module docstring).
        classes: public label set (sorted int array). A class may be empty in y: training always fits the public
            label set (diffprivlib fits the classes that occur in y, so a neighbour emptying a class changes its
            output space; here the noisy counts of an empty class are clamped to >= 1 like any other).
        var_smoothing: absolute variance added (diffprivlib's ``epsilon_``), >= 0.

    Attributes:
        fallbacks: number of batches :meth:`accuracies` predicted with :meth:`_predict_index` because a difference of
            joint log-likelihoods was within its rounding-error bound of 0 (a near-tie).

    Raises:
        ValueError: on bad shapes, bounds, epsilon or classes, a label outside ``classes``, or n < len(classes)
            (n is public: the refusal is the same for every dataset of that size).
    """

    def __init__(self, X, y, lower, upper, epsilon: float, classes, var_smoothing: float = 1e-9):
        X = np.asarray(X, dtype=float)
        y = np.asarray(y)
        lower = np.asarray(lower, dtype=float)
        upper = np.asarray(upper, dtype=float)
        if X.ndim != 2 or y.shape != (X.shape[0],) or lower.shape != (X.shape[1],) or upper.shape != lower.shape:
            raise ValueError(f"X must be (n, d), y (n,), lower/upper (d,). Found {X.shape}, {y.shape}, {lower.shape}.")
        if not np.all(upper > lower):
            raise ValueError("upper must be > lower for every feature.")
        # The noise scales grow like (upper - lower)^2 * n: a span whose square underflows or overflows would give the
        # variances' bounded Laplace a zero or infinite scale (NaN variances), so it is refused here, before any draw.
        span2 = (upper - lower) ** 2
        if not (np.all(span2 >= 1e-280) and np.all(np.isfinite(span2 * 4.0 * max(X.shape[0], 1)))):
            raise ValueError(
                "upper - lower must be in [1e-140, about 1e150 / sqrt(n)] for every feature (its square times n must "
                f"be a finite normal double). Found spans in [{np.min(upper - lower)!r}, {np.max(upper - lower)!r}]."
            )
        _validate.positive("epsilon", epsilon)
        _validate.nonnegative("var_smoothing", var_smoothing)
        self.classes = np.asarray(classes)
        if self.classes.ndim != 1 or self.classes.size < 1 or np.any(np.diff(self.classes) <= 0):
            raise ValueError(f"classes must be a sorted 1-d array of distinct labels. Found {self.classes.tolist()}.")
        # The label set is public: a class may be empty in the private data (a neighbour can relabel its only record),
        # and training must not depend on which classes occur (a crash on one neighbour would distinguish them).
        if not np.all(np.isin(y, self.classes)):
            raise ValueError(f"y must take values in the public classes {self.classes.tolist()}.")
        if X.shape[0] < self.classes.size:
            raise ValueError(
                f"n must be >= the number of classes ({self.classes.size}): the noisy counts are clamped to >= 1 and "
                f"corrected to sum to n. Found n = {X.shape[0]}."
            )
        self.epsilon, self.var_smoothing = float(epsilon), float(var_smoothing)
        self.center = 0.5 * (lower + upper)
        self.lower, self.upper = lower - self.center, upper - self.center
        Xc = np.clip(X, lower, upper) - self.center
        self.n_total, self.d = X.shape
        self.n = np.array([np.count_nonzero(y == c) for c in self.classes], dtype=np.int64)
        self.S1 = np.stack([Xc[y == c].sum(0) for c in self.classes])
        self.S2 = np.stack([(Xc[y == c] ** 2).sum(0) for c in self.classes])
        self._val_cache: _Validation | None = None
        self.fallbacks = 0

    def _var_scale(self, eps_local: float, counts: np.ndarray) -> np.ndarray:
        """bounded_laplace_scale(eps_local, counts) for counts in 1..n_total, looked up in a table solved once."""
        return _var_scale_table(float(eps_local), self.n_total)[counts]

    @property
    def eps_t(self) -> float:
        """Privacy of one trained model under replace-one neighbours: PRIVACY_FACTOR * epsilon."""
        return PRIVACY_FACTOR * self.epsilon

    def sample_params(self, n_models: int, rng: np.random.Generator):
        """Train ``n_models`` independent DP models.

        Draws from ``rng``, in this order: two geometric arrays (n_models, K) (the count noise), standard Laplace
        (n_models, K, d) (the mean noise, scaled) and uniform doubles (n_models, K, d) (the variances' bounded Laplace).

        Returns:
            (counts, theta, var): int64 (n_models, K) noisy class counts, float (n_models, K, d) means and variances
            (including var_smoothing), in centred coordinates (add ``self.center`` to theta for raw units).
        """
        rng = _validate.generator(rng)
        K, d, n_total = len(self.classes), self.d, self.n_total
        e_cnt, e_mu, e_var = (s * self.epsilon for s in BUDGET_SHARES)
        q = math.exp(-e_cnt)  # two-sided geometric with ratio exp(-eps/3): difference of two geometrics
        noise = rng.geometric(1.0 - q, size=(n_models, K)) - rng.geometric(1.0 - q, size=(n_models, K))
        counts = _round_robin_fix(np.clip(self.n + noise, 1, n_total), n_total)
        nc_all = counts[:, :, None].astype(float)
        lo, hi = self.lower, self.upper
        local_mu, local_var = e_mu / d, e_var / d
        # rng.laplace(0, b) with b = (hi - lo)/local_mu > 0, as numpy computes it: 0 -/+ b log(.) = b (0 -/+ log(.))
        # bit for bit, except the sign of a product that rounds to zero (b < ~1e-300: spans the constructor refuses);
        # then the doubles of the bounded sampler's uniforms (rng.uniform's, _sample_laplace_0_to): all draws first.
        theta = rng.laplace(0.0, 1.0, size=(n_models, K, d))
        var = rng.random((n_models, K, d))
        mu_scale = (hi - lo) / local_mu
        var_scale = self._var_scale(local_var, counts)[:, :, None]
        # The rest in blocks of models that stay in a core's cache, in place, operation for operation:
        # theta = clip(S1 + Laplace, lo n_c, hi n_c) / n_c, sens = max(theta - lo, hi - theta)^2,
        # ssd = S2 - 2 theta S1 + n theta^2, var = bounded Laplace(clip(ssd, 0, sens n_c), sens scale) / n_c
        # + var_smoothing.
        step = max(1, _SAMPLE_BLOCK // (K * d))
        work = np.empty((5, min(step, n_models), K, d))
        n_col = self.n[:, None]
        for a in range(0, n_models, step):
            z = min(a + step, n_models)
            th, v, nc = theta[a:z], var[a:z], nc_all[a:z]
            b1, b2, b3, b4, b5 = work[:, : z - a]
            th *= mu_scale
            th += self.S1
            np.clip(th, np.multiply(lo, nc, out=b1), np.multiply(hi, nc, out=b2), out=th)
            th /= nc
            sens = np.subtract(th, lo, out=b1)
            np.maximum(sens, np.subtract(hi, th, out=b2), out=sens)
            np.multiply(sens, sens, out=sens)
            ssd = np.multiply(th, 2.0, out=b2)
            ssd *= self.S1
            np.subtract(self.S2, ssd, out=ssd)
            sq = np.multiply(th, th, out=b3)
            sq *= n_col
            ssd += sq
            scale = np.multiply(sens, var_scale[a:z], out=b3)
            dom = sens
            dom *= nc
            np.clip(ssd, 0.0, dom, out=ssd)
            _laplace_0_to_from_uniform(ssd, scale, dom, v, b4, b5)
            v /= nc
            v += self.var_smoothing
        return counts, theta, var

    def _predict_index(self, X, counts, theta, var) -> np.ndarray:
        """Index into ``classes`` of each model's prediction: int array (m, n_models); first maximum wins (argmax)."""
        Xc = np.asarray(X, dtype=float) - self.center
        nm, K, d = theta.shape
        inv = 1.0 / var
        const = np.log(counts / self.n_total) - 0.5 * np.sum(np.log(2.0 * np.pi * var) + theta**2 * inv, axis=2)
        # Joint log-likelihood up to the sample's own constant, as (m, n_models) per class (K is small).
        xx = Xc**2
        best = const[:, 0][None] - 0.5 * (xx @ inv[:, 0].T - 2.0 * Xc @ (theta[:, 0] * inv[:, 0]).T)
        idx = np.zeros(best.shape, dtype=np.int64)
        for k in range(1, K):
            jll = const[:, k][None] - 0.5 * (xx @ inv[:, k].T - 2.0 * Xc @ (theta[:, k] * inv[:, k]).T)
            better = jll > best
            best = np.where(better, jll, best)
            idx[better] = k
        return idx

    def predict(self, X, counts, theta, var) -> np.ndarray:
        """Predicted labels of every model on raw features X (m, d): int array (n_models, m) (sklearn's rule)."""
        return self.classes[self._predict_index(X, counts, theta, var)].T

    def _validation(self, X, y) -> _Validation:
        """The cached :class:`_Validation` of (X, y), rebuilt when X or y differ from the cached copies."""
        X = np.asarray(X, dtype=float)
        y = np.asarray(y)
        if X.ndim != 2 or X.shape[1] != self.d or y.shape != (X.shape[0],):
            raise ValueError(f"X_val must be (m, {self.d}) and y_val (m,). Found {X.shape} and {y.shape}.")
        c = self._val_cache
        if c is not None and c.X.shape == X.shape and np.array_equal(c.X, X) and np.array_equal(c.y, y):
            return c
        y_idx = np.searchsorted(self.classes, y)
        signed = inv_weight = w_weight = None
        if len(self.classes) == 2 and X.shape[0]:
            Xc = X - self.center
            xx = Xc**2
            rows = y_idx < 2  # _predict_index's indices 0, 1 (searchsorted: a label above both matches neither)
            sgn = np.where(y_idx[rows] == 1, 1.0, -1.0)[:, None]
            signed = np.hstack([xx[rows], Xc[rows], np.ones((int(rows.sum()), 1))]) * sgn
            inv_weight, w_weight = np.tile(0.5 * xx.max(axis=0), 2), np.tile(np.abs(Xc).max(axis=0), 2)
        self._val_cache = _Validation(X.copy(), y.copy(), y_idx, signed, inv_weight, w_weight)
        return self._val_cache

    def _correct(self, val: _Validation, counts, theta, var) -> np.ndarray:
        """Number of rows of the validation set each model predicts right: int array (n_models,); the predictions are
        :meth:`_predict_index`'s, bit for bit (certified below, or computed by it).

        For K = 2 the sign of jll_1 - jll_0 decides (strictly positive: class 1; the first maximum wins). It is
        computed with one matrix product per block of models, s_i [Xc^2, Xc, 1] (2d + 1 columns) times
        [-(1/var_1 - 1/var_0)/2, theta_1/var_1 - theta_0/var_0, const_1 - const_0], with the same const, 1/var and
        theta/var as _predict_index. Rounding error analysis (any summation order, with or without FMA): that value
        is within (3d + 7) u M of _predict_index's computed jll_1 - jll_0, u = 2^-53 and
        M = sum_k |const_k| + sum_j (Xc_j^2/(2 var_kj) + |Xc_j theta_kj / var_kj|), so a value farther from 0 than
        the bound tol (M bounded above with column maxima of the validation set, times 1.01, plus 1e-300 for
        underflow) has the sign of _predict_index's difference. If any value of the batch is within tol of 0 (or not
        finite), the batch is predicted by _predict_index itself (counted in ``self.fallbacks``).
        """
        nm, K, d = theta.shape
        if val.signed is None:
            idx = self._predict_index(val.X, counts, theta, var)
            return np.count_nonzero(idx == val.y_idx[:, None], axis=0)
        if not val.signed.shape[0]:
            return np.zeros(nm, dtype=np.intp)
        # const, 1/var and theta/var exactly as _predict_index computes them (same expressions, same shapes).
        inv = 1.0 / var
        const = np.log(counts / self.n_total) - 0.5 * np.sum(np.log(2.0 * np.pi * var) + theta**2 * inv, axis=2)
        w = theta * inv
        R = np.empty((nm, 2 * d + 1))
        np.subtract(inv[:, 1], inv[:, 0], out=R[:, :d])
        R[:, :d] *= -0.5
        np.subtract(w[:, 1], w[:, 0], out=R[:, d : 2 * d])
        np.subtract(const[:, 1], const[:, 0], out=R[:, 2 * d])
        np.abs(w, out=w)
        np.abs(const, out=const)
        M = inv.reshape(nm, 2 * d) @ val.inv_weight + w.reshape(nm, 2 * d) @ val.w_weight + const[:, 0] + const[:, 1]
        tol = (3 * d + 7) * 2.0**-53 * 1.01 * M + 1e-300
        rows = val.signed.shape[0]
        block = min(nm, _PREDICT_BLOCK)
        positive = np.zeros((block, -(-rows // 8) * 8), dtype=bool)  # padded to whole 8-byte words
        words = positive.view(np.uint64)
        right = np.empty(nm, dtype=np.intp)
        for start in range(0, nm, block):
            stop = min(start + block, nm)
            Z = R[start:stop] @ val.signed.T  # s_i (jll_1 - jll_0), (models, rows)
            np.greater(Z, 0.0, out=positive[: stop - start, :rows])
            right[start:stop] = np.bitwise_count(words[: stop - start]).sum(axis=1)  # ones per model
            np.abs(Z, out=Z)
            if not np.all(Z.min(axis=1) > tol[start:stop]):  # a near-tie (or NaN): not certified
                self.fallbacks += 1
                idx = self._predict_index(val.X, counts, theta, var)
                return np.count_nonzero(idx == val.y_idx[:, None], axis=0)
        return right

    def accuracies(self, n_models: int, X_val, y_val, rng: np.random.Generator, chunk: int = 4096) -> np.ndarray:
        """Validation accuracy of ``n_models`` freshly trained DP models: float array (n_models,), in chunks.

        Each chunk is one :meth:`sample_params` call (the random draws depend on ``chunk``); the accuracy of a model is
        the fraction of the m rows of ``X_val`` (raw features, (m, d)) whose label ``y_val`` (m,) it predicts
        (:meth:`predict`'s rule; computed by :meth:`_correct`).

        Raises:
            ValueError: if X_val is not (m, d) or y_val not (m,).
        """
        rng = _validate.generator(rng)
        n_models = int(n_models)
        out = np.empty(n_models)
        val = self._validation(X_val, y_val)
        for start in range(0, n_models, chunk):
            k = min(chunk, n_models - start)
            out[start : start + k] = self._correct(val, *self.sample_params(k, rng)) / val.X.shape[0]
        return out


class DPNaiveBayesMechanism(Mechanism):
    """M_t of ``fig_hpo``: train one DP Gaussian naive Bayes model with hyperparameter h on the private training
    split, output +1 iff its accuracy on the public validation split is >= ``target``.

    eps_t-DP under replace-one neighbours of the training split (module docstring): the model gets diffprivlib
    ``epsilon = eps_t / PRIVACY_FACTOR``; thresholding its public-data accuracy is post-processing. delta = 0.

    Args:
        split: the data split. h: the hyperparameter. eps_t: input privacy > 0. target: accuracy in (0, 1].

    Attributes:
        eps, delta: (eps_t, 0). trainings: number of models trained so far by ``count_plus``.
    """

    def __init__(self, split: Split, h: Hyper, eps_t: float, target: float):
        _validate.positive("eps_t", eps_t)
        if not (0.0 < target <= 1.0):
            raise ValueError(f"target must be in (0, 1]. Found {target!r}.")
        self.split, self.h, self.target = split, h, float(target)
        feats, lower, upper = public_preprocessing(split, h)
        self.features = feats
        self.model = VectorizedDPGaussianNB(
            split.X_train[:, feats], split.y_train, lower, upper, eps_t / PRIVACY_FACTOR, split.classes
        )
        self.X_val = split.X_val[:, feats]
        self.eps, self.delta = float(eps_t), 0.0
        self.trainings = 0

    def sample(self, n: int, rng: np.random.Generator) -> np.ndarray:
        """n independent evaluations: int array (n,) of -1/+1."""
        rng = _validate.generator(rng)
        acc = self.model.accuracies(n, self.X_val, self.split.y_val, rng)
        self.trainings += int(n)
        return np.where(acc >= self.target - 1e-12, 1, -1)

    def count_plus(self, n, rng):
        rng = _validate.generator(rng)
        n_arr = np.asarray(n, dtype=np.int64)
        if np.any(n_arr < 0):
            raise ValueError("n must be >= 0.")
        flat = n_arr.ravel()
        plus = self.sample(int(flat.sum()), rng) == 1
        owner = np.repeat(np.arange(flat.size), flat)  # evaluation i belongs to entry owner[i]
        return np.bincount(owner, weights=plus, minlength=flat.size).astype(np.int64).reshape(n_arr.shape)


def neighbour_loss_bound(model: VectorizedDPGaussianNB, X2, y2, theta) -> float:
    """Upper bound on the privacy loss between ``model``'s training set and the neighbour (X2, y2) implied by the
    component mechanisms, for given noisy means ``theta`` (K, d) (adaptive composition conditions on them).

    Geometric and Laplace parts contribute eps_part * |change| / sensitivity; a bounded-domain Laplace part
    contributes its eps_part when 0 < |change| <= sensitivity and +inf if the change exceeds its sensitivity.
    Used by the tests of the accounting (the bound must stay <= PRIVACY_FACTOR * epsilon for every neighbour).
    """
    other = VectorizedDPGaussianNB(
        X2,
        y2,
        model.lower + model.center,
        model.upper + model.center,
        model.epsilon,
        model.classes,
        model.var_smoothing,
    )
    if other.n_total != model.n_total:
        raise ValueError("neighbours must have the same size (replace-one relation).")
    e_cnt, e_mu, e_var = (s * model.epsilon for s in BUDGET_SHARES)
    d = model.d
    loss = e_cnt * np.abs(other.n - model.n).sum()
    loss += (e_mu / d) * np.sum(np.abs(other.S1 - model.S1) / (model.upper - model.lower))
    sens = np.maximum(theta - model.lower, model.upper - theta) ** 2
    ssd1 = model.S2 - 2 * theta * model.S1 + model.n[:, None] * theta**2
    ssd2 = other.S2 - 2 * theta * other.S1 + other.n[:, None] * theta**2
    change = np.abs(ssd2 - ssd1)
    if np.any(change > sens * (1 + 1e-9)):
        return math.inf
    loss += (e_var / d) * np.count_nonzero(change > 1e-12 * sens)
    return float(loss)


class RandomSearchCandidate:
    """The candidate mechanism Q of private selection on ``fig_hpo``'s task (Liu and Talwar's random search): draw h
    uniformly from the public search space ``hypers``, train one eps-DP model with h on the private training split,
    release (index of h, model) with score = the model's accuracy on the public validation split (post-processing).
    eps-DP under replace-one neighbours (:class:`DPNaiveBayesMechanism`).

    Args:
        split: the data split. hypers: the search space (list of :class:`Hyper`). eps: privacy of one training > 0.

    Attributes:
        eps: eps. trainings: models trained so far by ``draw``.
    """

    def __init__(self, split: Split, hypers: list[Hyper], eps: float, target: float = 1.0):
        _validate.positive("eps", eps)
        if not hypers:
            raise ValueError("hypers must hold at least one hyperparameter.")
        self.mechs = [DPNaiveBayesMechanism(split, h, eps, target) for h in hypers]
        self.split, self.eps, self.trainings = split, float(eps), 0

    def draw(self, size: int, rng: np.random.Generator):
        """``size`` independent candidates: (index of h: int64 array (size,), validation accuracy: float (size,))."""
        rng = _validate.generator(rng)
        idx = rng.integers(len(self.mechs), size=int(size))
        v = np.empty(int(size))
        for j in np.unique(idx):
            m = self.mechs[int(j)]
            sel = idx == j
            v[sel] = m.model.accuracies(int(sel.sum()), m.X_val, self.split.y_val, rng)
        self.trainings += int(size)
        return idx, v


def private_selection(Q: RandomSearchCandidate, target: float, stop_probability: float, eps0: float, runs: int, rng):
    """``runs`` independent runs of private selection with a known threshold (Algorithm 2, ThresholdSelect, =
    OpenDP's ``make_select_private_candidate`` with the cap T out of reach): release the first candidate whose
    validation accuracy is >= ``target``; after each failed candidate stop with probability ``stop_probability``.

    Privacy (Lemma 34(1)): 2 eps + eps0 for an eps-DP Q (OpenDP's uncapped version: 2 eps,
    :data:`privtest.opendp.OPENDP_SELECTION_FACTOR`). Failure (Lemma 34(2)): <= (1 - p1)(1 + eps0/2) xi / p1.

    Returns:
        (choice, draws): int64 arrays (runs,): the index + 1 of the released h (0 = no release) and the number of
        candidates drawn (models trained).
    """
    rng = _validate.generator(rng)
    runs = _validate.step_index(runs)
    choice = np.zeros(int(runs), dtype=np.int64)
    draws = np.zeros(int(runs), dtype=np.int64)
    for i in range(int(runs)):
        h, _, n = threshold_select(Q, target - 1e-12, stop_probability, eps0, rng, batch=4)
        choice[i], draws[i] = (0 if h is None else int(h) + 1), n
    return choice, draws


#: Display names of the two variants of the private-selection peer of fig_hpo (OpenDP's
#: ``make_select_private_candidate``): with the stop probability as documented, and as OpenDP 0.16.0 draws it.
PEER = "OpenDP selection"
PEER_RELEASED = "OpenDP 0.16.0 as released"


def select_p(p_all, eps_train: float, target: float):
    """The rows of an HPO p table (``privtest_artifact.outputs.fig_hpo``'s table ``p``: one row per (eps_train, target,
    step t), columns ``eps_train``, ``target``, ``t``, ``p_hat`` and its interval) of one per-training eps and target,
    one per step t, sorted by t (a pandas DataFrame with a fresh index). Here, not in the analysis module, so that a
    notebook reading the tables depends on no analysis code."""
    sel = np.isclose(p_all.eps_train.astype(float), eps_train, rtol=1e-12, atol=0) & np.isclose(p_all.target, target)
    return p_all[sel].sort_values("t").reset_index(drop=True)
