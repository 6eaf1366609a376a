"""The rulebook at the console: `rules` (the book read aloud, the ruling behind the last
refusal) and `card`, the players' one-page reference card."""
