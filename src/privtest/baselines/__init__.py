"""Prior-work baselines of Section 9 and the classic AboveThreshold of Section 6, on the GTM's +-1 mechanism interface.

* :mod:`~privtest.baselines.above_threshold`: AboveThreshold / sparse vector (Dwork-Roth) for real-valued
  sensitivity-1 queries, the reference the lower bounds of Section 6 start from.
* :mod:`~privtest.baselines.liu_talwar`: Liu-Talwar ExtendedAboveThreshold as restated in Section 9.2 (eq. 25,
  Theorem 46).
* :mod:`~privtest.baselines.cohen`: Cohen et al.'s Test procedure as the tester of Algorithm 4 (Proposition 48).
* :mod:`~privtest.baselines.ghazi`: Ghazi et al.'s selection with random dropping (Algorithm 5, Theorem 52), used
  for testing as in Corollary 53.

Each implements the complete :class:`privtest.testers.Tester` interface (guarantees, thresholds, sample bounds,
``run`` and the coupled Bernoulli simulation ``critical_p``), uses only ``Mechanism.count_plus`` on its inputs
(AboveThreshold: query answers), and takes its closed-form parameters from :mod:`privtest.bounds`.
"""

from privtest.baselines.above_threshold import AboveThreshold
from privtest.baselines.cohen import CohenTester, cohen_tester
from privtest.baselines.ghazi import GhaziSelection, ghazi_tester
from privtest.baselines.liu_talwar import LiuTalwarTester, liu_talwar_tester

__all__ = [
    "AboveThreshold",
    "CohenTester",
    "GhaziSelection",
    "LiuTalwarTester",
    "cohen_tester",
    "ghazi_tester",
    "liu_talwar_tester",
]
