"""The paper's Tables 2 and 3 (Section 1.3 and Section 8.1: Theorem 42 applied to batch DP submodular maximisation)
as data: one :class:`TableRow` per batch algorithm with its batch and continual-observation guarantees as LaTeX math,
as printed in the paper. The two tables have the same rows in the paper. The reproduction renders them
(``privtest_artifact.tables.co_table_markdown`` and ``co_table_latex``)."""

from __future__ import annotations

from dataclasses import dataclass

# ruff: noqa: E501  (LaTeX formulas of the paper's table cells are kept on one line each)

__all__ = ["CAPTION", "SUBMODULAR_ROWS", "TableRow"]


@dataclass(frozen=True)
class TableRow:
    """One row: the batch work and setting, its batch guarantee and the CO guarantee of Theorem 42 (LaTeX math).

    Args:
        work, setting, batch, co: strings.

    Raises:
        ValueError: naming a field that is not a string.

    Example:
        >>> SUBMODULAR_ROWS[0].work
        'Mitrovic et al. (2017)'
    """

    work: str
    setting: str
    batch: str
    co: str

    def __post_init__(self):
        for name, value in (("work", self.work), ("setting", self.setting), ("batch", self.batch), ("co", self.co)):
            if not isinstance(value, str):
                raise ValueError(f"{name} must be a string. Found {value!r}.")


#: Rows of Tables 2 and 3 (paper lines 224-236 and 2446-2458).
SUBMODULAR_ROWS = [
    TableRow(
        "Mitrovic et al. (2017)",
        r"Monotone, $(\varepsilon,\delta)$-DP, $k$-Card.",
        r"$(1-\tfrac1e)\mathrm{OPT}-\tilde O(\tfrac{k^{3/2}}{\varepsilon}\ln m\ln\tfrac1\delta)$",
        r"$\tfrac{1-1/e}{1+\kappa}\mathrm{OPT}_t-\tilde O(\tfrac{k^{3/2}}{\kappa\varepsilon}\ln^3 t\ln m\ln\tfrac1\delta)$",
    ),
    TableRow(
        "Rafiey and Yoshida (2020)",
        r"Monotone, $(\varepsilon,\delta)$-DP, $k$-Card.",
        r"$(1-\tfrac1e)\mathrm{OPT}-\tilde O(\tfrac{k^7}{\varepsilon^3}m\ln m)$",
        r"$\tfrac{1-1/e}{1+\kappa}\mathrm{OPT}_t-\tilde O(\tfrac{k^7}{\kappa\varepsilon^3}m\ln m\ln^6 t)$",
    ),
    TableRow(
        "Chaturvedi et al. (2021)",
        r"Decomp. non-mon., $(\varepsilon,\delta)$-DP, $k$-Card.",
        r"$(\tfrac1e-\eta)\mathrm{OPT}-\tilde O(\tfrac{k}{\eta\varepsilon}\ln m\ln\tfrac1\delta)$",
        r"$\tfrac{1/e-\eta}{1+\kappa}\mathrm{OPT}_t-\tilde O(\tfrac{k}{\eta\kappa\varepsilon}\ln^3\tfrac t\beta\ln m\ln\tfrac1\delta)$",
    ),
    TableRow(
        "Chaturvedi et al. (2021)",
        r"Decomp. non-mon., $(\varepsilon,\delta)$-DP, $k$-Matroid",
        r"$(\tfrac1e-\eta)\mathrm{OPT}-\tilde O(\tfrac{k}{\eta\varepsilon}\ln m\ln\tfrac1\delta)$",
        r"$\tfrac{1/e-\eta}{1+\kappa}\mathrm{OPT}_t-\tilde O(\tfrac{k}{\eta\kappa\varepsilon}\ln^3\tfrac t\beta\ln m\ln\tfrac1\delta)$",
    ),
    TableRow(
        "Ghazi et al. (2024)",
        r"Decomp. monotone, $\varepsilon$-DP, $k$-Card., $\eta\in(0,1)$",
        r"$(1-\tfrac1e-\eta)\mathrm{OPT}-O(\tfrac{k\ln(m/\beta)}{\varepsilon})$",
        r"$\tfrac{1-1/e-\eta}{1+\kappa}\mathrm{OPT}_t-\tilde O(\tfrac{k}{\kappa\varepsilon}\ln^3\tfrac t\beta\ln\tfrac m\beta)$",
    ),
    TableRow(
        "Ghazi et al. (2024)",
        r"Decomp. monotone, $\varepsilon$-DP, $k$-Matroid, $\eta\in(0,1)$",
        r"$(1-\tfrac1e-\eta)\mathrm{OPT}-O(\tfrac{k\ln(m/(\eta\beta))}{\varepsilon})$",
        r"$\tfrac{1-1/e-\eta}{1+\kappa}\mathrm{OPT}_t-\tilde O(\tfrac{k}{\kappa\varepsilon}\ln^3\tfrac t\beta\ln\tfrac m{\eta\beta})$",
    ),
]

CAPTION = (
    "Application of Theorem 42 to batch DP submodular maximisation algorithms. OPT: batch optimum; OPT_t: CO "
    "optimum at time t; k: cardinality or matroid rank; kappa, eta > 0: user parameters; beta: failure "
    "probability. Monotone refers to argument-monotonicity; the framework also needs data-monotonicity."
)
