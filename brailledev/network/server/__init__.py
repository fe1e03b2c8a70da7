"""The table server: many tables in one asyncio process, each seat a braille display, a
terminal or a web page anywhere (``brailledev serve``).

    brailledev serve --port 8765 --db tables.db
"""
