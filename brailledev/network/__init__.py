"""The network: the table server (rooms, the web page), the store, the protocol, the wire
codec, and the client that sits a braille seat at a server's table (``join``)."""
