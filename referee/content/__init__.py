"""Game content from ``data/*.toml``: loaded and validated here, handed to the core as objects."""
