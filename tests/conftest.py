"""Shared test set-up: tests/ on sys.path so tests can import helpers and corpora."""
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
