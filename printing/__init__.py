"""The printed sheets of a session and a season, as PDF (docs/tournament.md, Printing).

`sheets` reads what each sheet shows into plain data (a fixed number of queries per
sheet, whatever the number of tables); `pdf` draws that data with ReportLab and knows
nothing of the database; `api` serves them under /api/ (docs/api.md, Printing).
"""
