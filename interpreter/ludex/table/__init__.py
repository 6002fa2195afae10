"""The table: a game drawn and played in a browser (`ludex serve`) or drawn to a file
(`ludex render`). `layout` places a map's spaces, `board` draws the board as SVG, `view` says
what one seat may see, `session` keeps a game at the table (seats, undo, saves, replays), and
`server` serves it all on the local machine."""
