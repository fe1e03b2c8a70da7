"""The network room: tables held by a server, and seats that reach them over a WebSocket.

    server/    the table server: app (aiohttp: tables, connections, rate limits), room (one
               table: seats, presence, pace, every change committed, then sent)
    web/       the web seat: page (/ and /t/CODE), picture (the seat's table as the page
               draws it), static/ (the page's HTML, CSS and script)
    store      every table's state and log of changes (SQLite)
    protocol   the WebSocket's frames, checked field by field; wire: the values' codec
    client     a reconnecting client (and bots playing through it)
    remote     a seat's link to a server's table, and the thread its client runs in
"""
