"""Recipes that span stages: whole pipelines built from the stages below."""

from ._clustering import (
    make_private_clustering,
)

__all__ = [
    "make_private_clustering",
]
