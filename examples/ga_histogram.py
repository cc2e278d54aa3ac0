#!/usr/bin/env python3
"""The genetic algorithm of the Python report (Cabrera and Roetta, "N-Queen Problem"; see "The
write-ups" in docs/algorithms.md) on 8 queens (ga --preset report), run 1000 times: a histogram
of the generations each run took to solve. Run i of nqueens.batch() is
nqueens.solve(..., chain=i), so the histogram's runs are the batch's, and their mean matches it.

    python3 examples/ga_histogram.py -o ga.png

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
    parser.add_argument("-o", "--output", default="ga_histogram.png", help="PNG to write")
    parser.add_argument("--runs", type=int, default=1000, help="runs (1000)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    runs = [nqueens.solve(8, "ga", seed=args.seed, chain=i, preset="report")
            for i in range(args.runs)]
    generations = np.array([r.steps for r in runs if r.solved])
    batch = nqueens.batch(8, "ga", runs=args.runs, seed=args.seed, device="cpu", preset="report")
    assert len(generations) == batch["solved"], "the replayed runs differ from the batch"
    assert abs(generations.mean() - batch["mean_steps_success"]) < 1e-6 * generations.mean()

    fig, ax = plt.subplots(figsize=(7, 4))
    # Log-spaced bins between whole numbers, so that no bin falls between two integers.
    edges = np.unique(np.round(np.logspace(0, np.log10(generations.max() + 1), 40))) - 0.5
    ax.hist(generations, bins=edges)
    ax.set_xscale("log")
    ax.set_xlabel("generations to solve")
    ax.set_ylabel("runs")
    over = np.mean(generations > 400)
    ax.set_title(f"ga --preset report, n = 8: {len(generations)} of {args.runs} solved\n"
                 f"mean {generations.mean():.1f}, median {np.median(generations):.0f}, "
                 f"{100 * over:.1f}% over 400")
    fig.tight_layout()
    fig.savefig(args.output, dpi=100)
    print(f"{args.output}: mean {generations.mean():.1f} generations, "
          f"median {np.median(generations):.0f}, max {generations.max()}")


if __name__ == "__main__":
    main()
