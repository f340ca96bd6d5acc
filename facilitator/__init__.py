"""facilitator: the host's assistant for «16/25», the HSE Lyceum's card game."""

__version__ = "0.1.0"
