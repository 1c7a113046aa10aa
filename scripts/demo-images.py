#!/usr/bin/env python3
"""Draws the demo's startup logos and covers (committed under server/src/demo/images; the
build does not run this). A logo is the startup's initials on its sector's colours; a cover is
an abstract drawing in the same colours, with no text to translate. Each is written at the
widths the site serves (logos 96 and 192 px, covers 640 and 1280 px) as WebP.

    pip install Pillow && apt-get install fonts-inter && scripts/demo-images.py
"""
import math
import os
import random
import sys

from PIL import Image, ImageDraw, ImageFilter, ImageFont

OUT = os.path.join(os.path.dirname(__file__), "..", "server", "src", "demo", "images")
FONT = "/usr/share/fonts/opentype/inter/InterDisplay-Bold.otf"

# slug, name, sector: the demo's startups (server/src/demo/startups.rs), in its order.
STARTUPS = [
    ("cemre-enerji", "Cemre Enerji", "energy"),
    ("cicek-tarim", "Çiçek Tarım", "agriculture"),
    ("irmak-su-teknolojileri", "Irmak Su Teknolojileri", "agriculture"),
    ("inci-saglik", "İnci Sağlık", "healthcare"),
    ("zeytin-finans", "Zeytin Finans", "fintech"),
    ("kalkan-siber", "Kalkan Siber", "cybersecurity"),
    ("rota-mobilite", "Rota Mobilite", "mobility"),
    ("dalga-iletisim", "Dalga İletişim", "communications"),
    ("pusula-yazilim", "Pusula Yazılım", "consumer-software"),
    ("odeme-koprusu", "Ödeme Köprüsü", "fintech"),
    ("sifa-genomik", "Şifa Genomik", "healthcare"),
    ("toprak-analitik", "Toprak Analitik", "agriculture"),
    ("yildiz-batarya", "Yıldız Batarya", "energy"),
    ("guvenli-kimlik", "Güvenli Kimlik", "cybersecurity"),
    ("ag-kurdu", "Ağ Kurdu", "communications"),
    ("hasat-pazari", "Hasat Pazarı", "agriculture"),
    ("medikal-lojistik", "Medikal Lojistik", "healthcare"),
    ("otopark-akil", "Otopark Akıl", "mobility"),
    ("ekin-kredi", "Ekin Kredi", "fintech"),
    ("oyun-atolyesi", "Oyun Atölyesi", "consumer-software"),
    ("veri-kalesi", "Veri Kalesi", "cybersecurity"),
    ("ruzgar-gulu", "Rüzgar Gülü", "energy"),
    ("uydu-bag", "Uydu Bağ", "communications"),
    ("bisiklet-agi", "Bisiklet Ağı", "mobility"),
    ("aile-hekimim", "Aile Hekimim", "healthcare"),
    ("unlu-tarifler", "Ünlü Tarifler", "consumer-software"),
]

# Dark and light colour of each sector.
COLOURS = {
    "energy": ((120, 53, 15), (245, 158, 11)),
    "agriculture": ((20, 83, 45), (132, 204, 22)),
    "healthcare": ((136, 19, 55), (244, 114, 182)),
    "fintech": ((19, 78, 74), (45, 212, 191)),
    "cybersecurity": ((30, 27, 75), (129, 140, 248)),
    "mobility": ((12, 74, 110), (56, 189, 248)),
    "communications": ((76, 29, 149), (192, 132, 252)),
    "consumer-software": ((127, 29, 29), (251, 146, 60)),
}


def upper_tr(c):
    return {"i": "İ", "ı": "I"}.get(c, c.upper())


def initials(name):
    return "".join(upper_tr(w[0]) for w in name.split()[:2])


def gradient(w, h, dark, light, angle):
    """A diagonal gradient from dark to light."""
    img = Image.new("RGB", (w, h))
    px = img.load()
    ca, sa = math.cos(angle), math.sin(angle)
    span = abs(w * ca) + abs(h * sa)
    for y in range(h):
        for x in range(w):
            t = ((x * ca + y * sa) / span) % 1.0 if span else 0
            t = max(0.0, min(1.0, t))
            px[x, y] = tuple(int(d + (l - d) * t * 0.75) for d, l in zip(dark, light))
    return img


def logo(name, sector, k):
    dark, light = COLOURS[sector]
    size = 384
    img = gradient(size, size, dark, light, math.pi / 4)
    draw = ImageDraw.Draw(img, "RGBA")
    # A quiet mark behind the letters: one of four shapes.
    shape = k % 4
    if shape == 0:
        draw.ellipse((200, -60, 460, 200), fill=(255, 255, 255, 38))
    elif shape == 1:
        draw.polygon([(384, 170), (384, 384), (170, 384)], fill=(255, 255, 255, 38))
    elif shape == 2:
        draw.rectangle((250, 0, 384, 384), fill=(255, 255, 255, 30))
    else:
        draw.ellipse((-80, 230, 190, 500), fill=(255, 255, 255, 38))
    text = initials(name)
    font = ImageFont.truetype(FONT, 170 if len(text) == 2 else 200)
    box = draw.textbbox((0, 0), text, font=font)
    tw, th = box[2] - box[0], box[3] - box[1]
    draw.text(((size - tw) / 2 - box[0], (size - th) / 2 - box[1]), text, font=font, fill="white")
    return img


def cover(sector, k):
    dark, light = COLOURS[sector]
    w, h = 1280, 720
    rnd = random.Random(k)
    img = gradient(w, h, dark, light, 0.35 + (k % 5) * 0.1)
    layer = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    for _ in range(7):
        r = rnd.randint(120, 360)
        x, y = rnd.randint(-100, w), rnd.randint(-100, h)
        draw.ellipse((x - r, y - r, x + r, y + r), fill=(255, 255, 255, rnd.randint(14, 34)))
    layer = layer.filter(ImageFilter.GaussianBlur(24))
    img = Image.alpha_composite(img.convert("RGBA"), layer)
    over = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(over)
    # A rising line across the cover: the round's promise, in the light colour.
    points, y = [], h * 0.78
    for i in range(9):
        y -= rnd.uniform(-20, 70)
        points.append((i * w / 8, max(h * 0.2, y)))
    draw.line(points, fill=light + (220,), width=8, joint="curve")
    for x, y in points[1:-1]:
        draw.ellipse((x - 9, y - 9, x + 9, y + 9), fill=(255, 255, 255, 230))
    # A faint grid.
    for gx in range(0, w, 80):
        draw.line([(gx, 0), (gx, h)], fill=(255, 255, 255, 16), width=1)
    for gy in range(0, h, 80):
        draw.line([(0, gy), (w, gy)], fill=(255, 255, 255, 16), width=1)
    return Image.alpha_composite(img, over).convert("RGB")


def main():
    os.makedirs(OUT, exist_ok=True)
    for k, (slug, name, sector) in enumerate(STARTUPS):
        big = logo(name, sector, k)
        for px in (96, 192):
            big.resize((px, px), Image.LANCZOS).save(os.path.join(OUT, f"{slug}-logo-{px}.webp"), "WEBP", quality=88, method=6)
        c = cover(sector, k)
        for px in (640, 1280):
            c.resize((px, px * 9 // 16), Image.LANCZOS).save(os.path.join(OUT, f"{slug}-cover-{px}.webp"), "WEBP", quality=72, method=6)
        print(slug, file=sys.stderr)


if __name__ == "__main__":
    main()
