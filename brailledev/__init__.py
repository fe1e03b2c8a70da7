"""brailledev: card games on a refreshable braille display, and braille cards on paper.

Four rooms, each importing only the rooms above it in this list (``tests/test_imports.py``):

    errors, files, helptext  the base the rooms and emboss/ share: the sentences of a mistake,
                             files written whole, the command line's help in the reader's words
    display/   braille (liblouis), windows and panning, keys and chords, speech, the backends
    table/     the table core, one person's seat behind a link, presence and talk, the message
               history, the turn clock, option values, and the key loop that drives a seat
    network/   the table server (rooms, the web page), the store, the protocol, the wire
               codec, the client and a seat's link to a server's table
    programs/  the commands: play, pad, join, serve, selfplay, devices, over one launcher
               and one save policy

One input path, whatever the front, read top to bottom:

    a display key    table/keyloop.py    Front.press ------------> SeatClient.route
    a web click      network/server/room.py   Room.route -------> TableSeat.route
    the seat         table/seat.py       activate: a move goes to SeatClient.play -> link.play
    its link         LocalLink: Table.play; RoomLink: Room.play_move, which commits;
                     RemoteLink (network/remote.py): the wire, then the server's Room.play
    the table core   table/core.py       Table.play: the engine checks and plays (games/<g>/),
                                         then publish: every seat hears its share (events_for)
    every seat       SeatClient.hear     the events in the reader's words (layouts/<g>/)
    once per change  the key loop redraws the cells (Front.redraw); a room commits, sends each
                     braille client its news, and each web page its screen once the seat
                     that acted is done (Room._change, Room.route)
"""

__version__ = "0.1.0"
