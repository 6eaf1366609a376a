"""The release of referee: recorded in every evening file written, so that a later file says so."""

__version__ = "0.1.0"
