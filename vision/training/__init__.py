"""Scripts that train the learned parts of `vision` (PyTorch, never run by the tests)."""
