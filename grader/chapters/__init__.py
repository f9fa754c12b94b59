"""One spec module per chapter; see grader/README.md."""
