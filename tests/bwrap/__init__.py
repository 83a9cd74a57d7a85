"""bwrap provider tests: a package, so module names do not clash with other providers' tests."""
