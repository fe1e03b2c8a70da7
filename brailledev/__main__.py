"""``python -m brailledev``: the ``brailledev`` command."""

import sys

from brailledev.programs.cli import main

if __name__ == "__main__":
    sys.exit(main())
