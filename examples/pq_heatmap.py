#!/usr/bin/env python3
"""The P/Q table of "hill climbing + constant random probability" in the Python program (the
GitHub repository Adibvafa/N_Queens; see "The write-ups" in docs/algorithms.md), as a heat
map: the success rate of hc-random-p on 16 queens (700 steps at most) for each probability of a
random jump P and number of queens Q it moves. One nqueens.sweep() call.

    python3 examples/pq_heatmap.py -o pq.png

after `pip install '.[plot]'` (the package and matplotlib; README.md, Python).
"""
import argparse

try:
    import matplotlib
except ImportError:
    raise SystemExit(f"{__file__}: needs matplotlib (pip install matplotlib, or pip install "
                     "'.[plot]' from the repository)") from None

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import nqueens  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--output", default="pq_heatmap.png", help="PNG to write")
    parser.add_argument("-n", type=int, default=16, help="queens (16)")
    parser.add_argument("--runs", type=int, default=200, help="runs per grid point (200)")
    parser.add_argument("--max-steps", type=int, default=700, help="steps per run (700)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    ps = np.round(np.arange(0.06, 0.281, 0.02), 2)
    qs = np.arange(1, 7)
    rows = nqueens.sweep(args.n, "hc-random-p", args.runs,
                         {"p": (ps[0], ps[-1], 0.02), "q": (qs[0], qs[-1])}, seed=args.seed,
                         max_steps=args.max_steps)
    # The sweep varies its first axis (p) slowest.
    rate = np.array([r["success_rate"] for r in rows]).reshape(len(ps), len(qs))

    fig, ax = plt.subplots(figsize=(6, 5))
    image = ax.imshow(100 * rate.T, origin="lower", aspect="auto", cmap="viridis",
                      extent=(ps[0] - 0.01, ps[-1] + 0.01, qs[0] - 0.5, qs[-1] + 0.5))
    fig.colorbar(image, ax=ax, label="solved (%)")
    ax.set_xlabel("P (probability of a random jump)")
    ax.set_ylabel("Q (queens moved per jump)")
    ax.set_title(f"hc-random-p, n = {args.n}: {args.runs} runs per cell, "
                 f"{args.max_steps} steps at most")
    fig.tight_layout()
    fig.savefig(args.output, dpi=100)
    best = np.unravel_index(np.argmax(rate), rate.shape)
    print(f"{args.output}: best P = {ps[best[0]]:.2f}, Q = {qs[best[1]]} "
          f"({100 * rate[best]:.1f}% solved)")


if __name__ == "__main__":
    main()
