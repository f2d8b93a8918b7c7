"""Migration scripts, oldest first."""
