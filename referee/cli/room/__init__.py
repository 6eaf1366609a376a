"""The room and the second station: the table page on the projector and the assistants' phones
served (`serve`, `links`), the GM's hand on the wall and the room's clock (`room`), the
requests from the phones, the players' screen in a terminal (`watch`), and commands typed at
another laptop."""
