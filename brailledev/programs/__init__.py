"""The programs: ``play``, ``pad``, ``selfplay``, ``devices`` and the ``brailledev`` command
line that holds them, with ``serve``, ``table``, ``join`` and ``emboss``."""
