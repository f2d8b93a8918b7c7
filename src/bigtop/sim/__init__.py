"""Tournaments, statistics and plots."""
