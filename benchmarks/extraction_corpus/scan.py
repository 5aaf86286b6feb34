"""Turn rendered pages into image-only "scans": grey, slightly rotated, speckled.

No text layer is left, so a reader needs OCR. Deterministic (seeded noise).
"""

from __future__ import annotations

import random

import pymupdf


def scan_document(src: pymupdf.Document, seed: int, dpi: int = 150) -> pymupdf.Document:
    rnd = random.Random(seed)
    out = pymupdf.open()
    for i in range(src.page_count):
        page = src[i]
        angle = rnd.uniform(-1.2, 1.2)
        zoom = dpi / 72
        mat = pymupdf.Matrix(zoom, zoom).prerotate(angle)
        pix = page.get_pixmap(matrix=mat, colorspace=pymupdf.csGRAY, alpha=False)
        samples = bytearray(pix.samples)
        w, h, stride = pix.width, pix.height, pix.stride
        for _ in range(w * h // 400):  # dark specks
            x, y = rnd.randrange(w), rnd.randrange(h)
            samples[y * stride + x] = rnd.randrange(40, 160)
        for _ in range(w * h // 60):  # paper grain
            x, y = rnd.randrange(w), rnd.randrange(h)
            i = y * stride + x
            samples[i] = max(0, samples[i] - rnd.randrange(10, 45))
        noisy = pymupdf.Pixmap(pymupdf.csGRAY, w, h, bytes(samples), False)
        img = noisy.tobytes("jpg", jpg_quality=70)
        rect = page.rect
        new = out.new_page(width=rect.width, height=rect.height)
        new.insert_image(rect, stream=img)
    return out
