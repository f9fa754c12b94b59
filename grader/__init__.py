"""Autograder for the checkpoint exercises (see README.md)."""
