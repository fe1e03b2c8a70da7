"""The programs room: the ``brailledev`` command and what each command runs.

    cli        the command line: every command registered, mistakes as one sentence
    launch     the one launcher (display, speech, key loop, closing) and the base of the
               programs' seats; savefile: the one save policy, and play's save read strictly
    play       one person against bots (session: the local table and the person's seat)
    pad        a game's score pad on the display; join: a seat at a server's table (and
               ``table new``); serve: the table server; selfplay: bots against bots;
               devices: which display answers, and the braille tables
    options    a game's options on the command line
"""
