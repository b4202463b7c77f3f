"""Settings for `bench/load.py`: the product's own, with the bench's URLs on top."""

from huckley.settings import *  # noqa: F403

ROOT_URLCONF = "bench.urls"
