"""What the plot scripts share: matplotlib without a display, and PNGs written atomically."""

import os

import matplotlib

matplotlib.use("Agg")


def save_png(figure, output):
    """Writes the figure to `output` whole or not at all, and says so."""
    figure.tight_layout()
    temporary = output + ".tmp.png"
    figure.savefig(temporary, dpi=120)
    os.replace(temporary, output)
    print(f"wrote {output}")
