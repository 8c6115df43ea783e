"""Can-fail tests, one module per catalogue output (a package, so that its conftest does not shadow tests/conftest)."""
