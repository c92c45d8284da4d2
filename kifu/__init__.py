"""kifu."""
