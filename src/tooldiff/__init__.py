"""tooldiff: review AI-agent tool definitions in pull requests."""

__version__ = "0.1.0"
