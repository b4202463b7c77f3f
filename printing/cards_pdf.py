"""The table cards as PDF: one card per page, drawn straight on a ReportLab canvas (the
number, the QR code of the card's permanent link, the link written out, the rules), with
the fonts and margins of `printing.pdf`."""

from __future__ import annotations

import io
from collections.abc import Sequence

import qrcode
import qrcode.constants
from django.utils.translation import gettext
from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from printing.pdf import MARGIN, Paper, fit, fonts
from printing.sheets import Heading, TableCard


def _qr(canvas: Canvas, url: str, x: float, y: float, side: float) -> None:
    """The QR code of `url` as one filled path, a rectangle per run of dark modules: a
    card of 250 tables draws in a second, where a shape per module took half a minute."""
    code = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_M, border=4)
    code.add_data(url)
    code.make(fit=True)
    matrix = code.get_matrix()
    module = side / len(matrix)
    path = canvas.beginPath()
    for row, cells in enumerate(matrix):
        top = y + side - (row + 1) * module
        col = 0
        while col < len(cells):
            if not cells[col]:
                col += 1
                continue
            run = col
            while run < len(cells) and cells[run]:
                run += 1
            path.rect(x + col * module, top, (run - col) * module, module)
            col = run
    canvas.saveState()
    canvas.setFillColor(colors.black)
    canvas.drawPath(path, stroke=0, fill=1)
    canvas.restoreState()


def table_cards_pdf(
    cards: Sequence[TableCard], paper: Paper, heading: Heading, *, empty: str
) -> bytes:
    """One card per page: the table's number as large as the page allows, the QR code of
    its permanent link, the link written out for a phone with no camera, and the rules."""
    regular, bold = fonts()
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=paper.size)
    canvas.setTitle(gettext("%(title)s: table cards") % {"title": heading.title})
    canvas.setAuthor("Huckley")
    width, height = paper.size
    inner = width - 2 * MARGIN
    for card in cards:
        label = (
            gettext("Table %(number)s · online") if card.online else gettext("Table %(number)s")
        ) % {"number": card.number}
        number = str(card.number)
        canvas.setFont(bold, 28)
        canvas.drawCentredString(width / 2, height - MARGIN - 28, label)
        size = fit(number, bold, 220, inner)
        canvas.setFont(bold, size)
        canvas.drawCentredString(width / 2, height - MARGIN - 40 - size * 0.8, number)
        side = min(95 * mm, inner)
        qr_top = height - MARGIN - 60 - size * 0.8
        _qr(canvas, card.url, (width - side) / 2, qr_top - side, side)
        y = qr_top - side - 24
        canvas.setFont(regular, 14)
        canvas.drawCentredString(
            width / 2, y, gettext("Scan to score this table's game, all night:")
        )
        url_size = fit(card.url, bold, 16, inner)
        canvas.setFont(bold, url_size)
        canvas.drawCentredString(width / 2, y - 24, card.url)
        # Long session and club names are set smaller to fit the width, never cut.
        canvas.setFont(regular, fit(card.rules_name, regular, 16, inner))
        canvas.drawCentredString(width / 2, y - 54, card.rules_name)
        canvas.setFont(regular, fit(card.caption, regular, 11, inner))
        canvas.drawCentredString(width / 2, y - 76, card.caption)
        if card.online:
            online = gettext(
                "This table plays online: play on your phone, from your own seat link."
            )
            canvas.setFont(bold, fit(online, bold, 16, inner))
            canvas.drawCentredString(width / 2, y - 104, online)
        canvas.showPage()
    if not cards:
        canvas.setFont(regular, 14)
        canvas.drawString(MARGIN, height - MARGIN - 14, empty)
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()
