"""brailledev: card games on a refreshable braille display, and braille cards on paper."""

__version__ = "0.1.0"
