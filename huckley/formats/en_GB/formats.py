"""Dates as day/month/year: 26/11/2026 (Django's own module writes 26 Nov 2026)."""

DATE_FORMAT = "d/m/Y"
DATETIME_FORMAT = "d/m/Y, H:i"
