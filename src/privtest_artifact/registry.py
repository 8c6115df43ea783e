"""Testers by name, for the experiments' ``methods`` lists: :data:`FACTORIES` maps a name to a factory
``factory(cfg, pstar, eps_ratio, T) -> Tester`` (a tester for stream length T, acceptance threshold p* and input
privacy eps_1 = eps_ratio * cfg["eps"]), and :func:`make_tester` builds one.

A new tester implements :class:`privtest.testers.Tester` (Python refuses to instantiate it while a member is
missing) and registers its factory here. AboveThreshold is not registered: its inputs are real-valued queries, not
+-1 mechanisms with a p* (build :class:`privtest.baselines.AboveThreshold` directly).
"""

from __future__ import annotations

from collections.abc import Callable

from privtest.baselines.cohen import cohen_tester
from privtest.baselines.ghazi import ghazi_tester
from privtest.baselines.liu_talwar import liu_talwar_tester
from privtest.testers import (
    Tester,
    gtm_certified_tester,
    gtm_exact_tail_tester,
    gtm_expost_tester,
    gtm_tester,
)

#: method name -> factory(cfg, pstar, eps_ratio, T). cfg keys: eps, beta and each factory's own (GTM: theta, gamma,
#: optional variant; GTM ex-post: C_H, gamma; LiuTalwar: optional delta (default 1e-6) and eps0 (default "auto")).
FACTORIES: dict[str, Callable[[dict, float, float, int], Tester]] = {
    "GTM": gtm_tester,
    "GTM ex-post": gtm_expost_tester,
    "GTM exact tails": gtm_exact_tail_tester,
    "GTM certified": gtm_certified_tester,
    "Cohen": cohen_tester,
    "LiuTalwar": liu_talwar_tester,
    "Ghazi": ghazi_tester,
}


def make_tester(method: str, cfg: dict, pstar, eps_ratio: float, T: int) -> Tester:
    """Build tester ``method`` (a key of :data:`FACTORIES`) for stream length T, threshold p*, eps_1 = ratio * eps.

    Raises:
        ValueError: for an unknown method, or parameters outside the tester's ranges.
    """
    if method not in FACTORIES:
        raise ValueError(f"method must be one of {sorted(FACTORIES)}. Found {method!r}.")
    return FACTORIES[method](cfg, pstar, eps_ratio, T)
