"""What the plot scripts share: matplotlib without a display, and PNGs written atomically.
Without matplotlib (or numpy, which it needs), a script says what to install in one line."""

import os
import sys

try:
    import matplotlib
except ImportError as missing:
    sys.exit(f"{os.path.basename(sys.argv[0])}: needs matplotlib and numpy ({missing}): install "
             "python3-matplotlib and python3-numpy (.ci/deps --tests does), "
             "or pip install matplotlib")

matplotlib.use("Agg")


def save_png(figure, output):
    """Writes the figure to `output` whole or not at all, and says so."""
    figure.tight_layout()
    temporary = output + ".tmp.png"
    figure.savefig(temporary, dpi=120)
    os.replace(temporary, output)
    print(f"wrote {output}")
