"""The table room: a game at a table and the people at it, with no wire and no program.

    core       the table core: a game, its seats (people or bots), the bots' moves, the turn
               clock, listeners hearing each seat's share of every move
    seat       one person's seat (screens, messages, focus, half-made input, speech) reading
               its table through a link (TableLink; LocalLink for a table in this process)
    presence   a shared table's seat (TableSeat): who sits where, who is away, table talk
    history    the message history a seat keeps; turntimer: the turn clock's arithmetic
    options    a game's option values read from text and checked (command line, server)
    keyloop    the key loop: a seat shown on a display and driven by its keys. It sits here,
               above display/, because it drives a seat; display/ knows no seat
"""
