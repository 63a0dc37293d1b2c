"""The version string (a leaf module: saves and the CLI read it without importing cardcore)."""
__version__ = "0.4.0"
