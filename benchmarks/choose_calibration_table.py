"""The Markdown table of :func:`privtest.calibration.choose_calibration` for the library guide (docs/library.md):
eps = 1, beta = 0.05, p* = 0.5, T = 50, eps_t in {0.05, 0.1}, the default guarantee (pbar_t at least that of the
defaults theta = 1, gamma = 1.5 at every t <= T; the stream has at most T steps).

Rows: the candidates that meet the guarantee (the chosen one in bold), then how many grid points do not. Deterministic
(no randomness; fixed formats), about 1 s per eps_t.

Usage: python benchmarks/choose_calibration_table.py
"""

from privtest.calibration import choose_calibration

EPS, BETA, PSTAR, T = 1.0, 0.05, 0.5, 50
EPS_T = (0.05, 0.1)


def _params(p: dict) -> str:
    out = [f"theta = {p['theta']:g}", f"gamma = {p['gamma']:g}"]
    if p.get("budget_scale", 1.0) != 1.0:
        out.append(f"kappa = {p['budget_scale']:.3g}")
    return ", ".join(out)


def table() -> str:
    lines = [
        f"| eps_t | calibration | parameters | expected evaluations, t <= {T} | min pbar_t | guarantee |",
        "| ---: | --- | --- | ---: | ---: | --- |",
    ]
    missed = []
    for eps_t in EPS_T:
        choice = choose_calibration(EPS, eps_t, BETA, PSTAR, T)
        for i, r in enumerate(choice.candidates):
            if not r.meets:
                continue
            name = f"**{r.name}**" if i == choice.chosen else r.name
            lines.append(
                f"| {eps_t:g} | {name} | {_params(r.parameters)} | {r.expected_evaluations:,.0f} | {r.pbar:.4g} "
                f"| {r.guarantee} |"
            )
        missed.append(f"{sum(not r.meets for r in choice.candidates)} at eps_t = {eps_t:g}")
    lines += [
        "",
        f"eps = {EPS:g}, beta = {BETA:g}, p* = {PSTAR:g}, T = {T}; every candidate is eps-DP; bold: the choice. "
        f"Candidates that miss the guarantee (not shown): {', '.join(missed)}.",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    print(table())
