"""Adapters to OpenSpiel and PettingZoo (optional extras, imported lazily)."""
