"""Clubs, seasons, players, sessions, sittings, tables, seatings and movements."""
