"""Reading the printed sheets back: the PDF's text (pdftotext), its pages' sizes
(pdfinfo), its pages as images (pdftoppm) and the QR codes on them (zxing-cpp).

pdftotext, pdfinfo and pdftoppm come with poppler-utils, a system package: on a machine
without it the tests that need them skip and say so; under HUCKLEY_STRICT_SKIPS=1 (CI,
which installs it in .ci/run) that skip is a failure.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from rest_framework.test import APIClient

POPPLER = ("pdftotext", "pdfinfo", "pdftoppm")


@pytest.fixture
def poppler() -> None:
    missing = [tool for tool in POPPLER if shutil.which(tool) is None]
    if missing:
        pytest.skip(
            f"{', '.join(missing)} not found: install poppler-utils "
            "(apt-get install poppler-utils) to read the printed PDFs back"
        )


def _write(tmp_path: Path, content: bytes) -> Path:
    assert content.startswith(b"%PDF-"), content[:200]
    path = tmp_path / f"sheet-{len(list(tmp_path.glob('*.pdf')))}.pdf"
    path.write_bytes(content)
    return path


@pytest.fixture
def pdf_text(poppler: None, tmp_path: Path) -> Callable[[bytes], list[str]]:
    """Each page's text, whitespace folded to single spaces (a Paragraph wraps lines)."""

    def read(content: bytes) -> list[str]:
        path = _write(tmp_path, content)
        out = subprocess.run(
            ["pdftotext", "-layout", str(path), "-"], capture_output=True, check=True, text=True
        ).stdout
        return [" ".join(page.split()) for page in out.split("\f")[:-1]]

    return read


@pytest.fixture
def page_sizes(poppler: None, tmp_path: Path) -> Callable[[bytes], list[tuple[int, int]]]:
    """Each page's size in points, rounded: A4 is 595 x 842, Letter 612 x 792."""

    def read(content: bytes) -> list[tuple[int, int]]:
        path = _write(tmp_path, content)
        out = subprocess.run(
            ["pdfinfo", "-f", "1", "-l", "100000", str(path)],
            capture_output=True,
            check=True,
            text=True,
        ).stdout
        return [
            (round(float(w)), round(float(h)))
            for w, h in re.findall(r"Page +\d+ size: +([\d.]+) x ([\d.]+)", out)
        ]

    return read


@pytest.fixture
def qr_codes(poppler: None, tmp_path: Path) -> Callable[[bytes], list[list[str]]]:
    """Each page rendered to an image, and the text of every QR code found on it."""
    import zxingcpp
    from PIL import Image

    def read(content: bytes) -> list[list[str]]:
        path = _write(tmp_path, content)
        prefix = tmp_path / path.stem
        subprocess.run(["pdftoppm", "-r", "72", "-png", str(path), str(prefix)], check=True)
        pages = []
        for image in sorted(tmp_path.glob(f"{path.stem}-*.png")):
            with Image.open(image) as picture:
                found = zxingcpp.read_barcodes(picture, formats=zxingcpp.BarcodeFormat.QRCode)
            pages.append([code.text for code in found])
        return pages

    return read


@pytest.fixture
def api_as(director: Any) -> Callable[[Any], APIClient]:
    def client(user: Any = None) -> APIClient:
        api = APIClient()
        if user is not None:
            api.force_authenticate(user)
        return api

    return client
