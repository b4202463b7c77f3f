"""The project's own checks for the tools of `make lint`: not part of the product, and
never loaded by Django."""
