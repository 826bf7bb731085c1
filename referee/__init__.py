"""referee: a terminal referee assistant for tabletop combat."""

__version__ = "0.1.0"
