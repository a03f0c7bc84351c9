"""The bench/run benchmark runner (standard library only)."""
