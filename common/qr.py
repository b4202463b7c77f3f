"""QR codes as inline SVG: the scorer links and the venue's lobby page (no image file, no
outside service). Imports no Django, so the venue's launcher can use it before setup."""

from __future__ import annotations

import qrcode
import qrcode.image.svg


def qr_svg(text: str) -> str:
    """A QR code of `text` as SVG markup; "" for no text."""
    if not text:
        return ""
    image = qrcode.make(text, image_factory=qrcode.image.svg.SvgPathImage, box_size=12)
    return str(image.to_string(encoding="unicode"))
