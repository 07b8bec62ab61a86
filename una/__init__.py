"""Una: an open-source UNO platform."""

__version__ = "0.1.0"
