"""The web seat: the page a sighted relative or a screen-reader user plays from in a browser
(``/`` makes a table, ``/t/CODE`` joins it), and the seat-filtered picture of the table the
server sends it with every screen."""
