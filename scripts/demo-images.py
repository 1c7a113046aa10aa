#!/usr/bin/env python3
"""Draws the demo's startup logos and covers and its founders' portraits (committed under
server/src/demo/images; the build does not run this). A logo is the startup's initials on its
sector's colours; a cover is an abstract drawing in the same colours, with no text to
translate; a portrait is a flat drawing of a fictional person, not a photograph of anyone.
Each is written at the widths the site serves (logos and portraits 96 and 192 px, covers 640
and 1280 px) as WebP.

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


# The demo's founders (server/src/demo/startups.rs FOUNDERS, in its order): file name, and a
# drawing: skin, hair colour, hair style, top colour, glasses.
FOUNDERS = [
    ("ayse-kaya", (233, 190, 160), (60, 40, 30), "long", (30, 64, 175), False),
    ("mehmet-demir", (214, 170, 135), (35, 30, 28), "short", (51, 65, 85), True),
    ("zeynep-celik", (241, 203, 178), (120, 72, 40), "bun", (190, 24, 93), False),
    ("emre-sahin", (198, 150, 115), (25, 22, 20), "beard", (15, 118, 110), False),
    ("elif-yildiz", (236, 196, 168), (150, 95, 50), "bob", (124, 58, 237), True),
    ("burak-ozturk", (222, 180, 150), (70, 50, 35), "short", (180, 83, 9), False),
    ("selin-aydin", (245, 210, 185), (40, 30, 25), "long", (4, 120, 87), False),
    ("can-arslan", (205, 160, 125), (90, 60, 40), "curly", (29, 78, 216), False),
    ("deniz-koc", (228, 186, 155), (20, 20, 22), "bob", (220, 38, 38), False),
    ("gokhan-polat", (212, 168, 132), (110, 110, 115), "bald", (30, 41, 59), True),
    ("merve-erdem", (238, 200, 172), (95, 55, 30), "bun", (14, 116, 144), False),
    ("onur-kilic", (200, 155, 120), (40, 32, 28), "beard", (87, 83, 78), False),
]


def portrait(skin, hair, style, top, glasses, k):
    """A flat head-and-shoulders drawing on a soft tint, drawn at 768 px."""
    s = 768
    tints = [(219, 234, 254), (220, 252, 231), (254, 243, 199), (237, 233, 254), (252, 231, 243), (224, 242, 254)]
    img = Image.new("RGB", (s, s), tints[k % len(tints)])
    d = ImageDraw.Draw(img)
    shade = tuple(max(0, c - 28) for c in skin)
    cx = s // 2
    if style in ("long", "bob"):  # hair behind the shoulders' line
        d.rounded_rectangle((cx - 215, 170, cx + 215, 560 if style == "long" else 470), 120, fill=hair)
    d.ellipse((cx - 300, 560, cx + 300, 1000), fill=top)  # shoulders
    d.rectangle((cx - 70, 430, cx + 70, 600), fill=shade)  # neck
    d.ellipse((cx - 70, 540, cx + 70, 640), fill=shade)
    d.polygon([(cx - 95, 585), (cx, 680), (cx + 95, 585)], fill=tuple(min(255, c + 40) for c in top))
    d.ellipse((cx - 200, 275, cx - 140, 375), fill=shade)  # ears
    d.ellipse((cx + 140, 275, cx + 200, 375), fill=shade)
    d.ellipse((cx - 165, 140, cx + 165, 500), fill=skin)  # face
    if style == "short":
        d.chord((cx - 172, 115, cx + 172, 380), 180, 360, fill=hair)
        d.rectangle((cx - 172, 235, cx - 150, 300), fill=hair)
        d.rectangle((cx + 150, 235, cx + 172, 300), fill=hair)
    elif style == "curly":
        for i in range(9):
            x = cx - 160 + i * 40
            d.ellipse((x - 48, 110 + (i % 2) * 18, x + 48, 205 + (i % 2) * 18), fill=hair)
        d.chord((cx - 170, 140, cx + 170, 330), 180, 360, fill=hair)
    elif style == "beard":
        d.chord((cx - 170, 120, cx + 170, 360), 180, 360, fill=hair)
        d.chord((cx - 165, 250, cx + 165, 510), 0, 180, fill=hair)
        d.ellipse((cx - 110, 300, cx + 110, 440), fill=skin)
    elif style == "bald":
        d.chord((cx - 172, 200, cx + 172, 420), 180, 220, fill=hair)
        d.chord((cx - 172, 200, cx + 172, 420), 320, 360, fill=hair)
    elif style in ("long", "bob", "bun"):
        d.chord((cx - 180, 115, cx + 180, 400), 180, 360, fill=hair)
        d.pieslice((cx - 180, 130, cx + 60, 380), 180, 270, fill=hair)
        if style == "bun":
            d.ellipse((cx - 75, 40, cx + 75, 170), fill=hair)
    # Eyes, brows and a smile.
    eye = (40, 35, 35)
    for ex in (cx - 65, cx + 65):
        d.ellipse((ex - 14, 318, ex + 14, 346), fill=eye)
        d.line([(ex - 30, 290), (ex + 28, 285)], fill=hair if style != "bald" else eye, width=10)
    if glasses:
        for ex in (cx - 65, cx + 65):
            d.rounded_rectangle((ex - 48, 300, ex + 48, 366), 22, outline=(30, 30, 35), width=8)
        d.line([(cx - 17, 326), (cx + 17, 326)], fill=(30, 30, 35), width=8)
    d.arc((cx - 60, 360, cx + 60, 440), 20, 160, fill=(150, 70, 60), width=10)
    return img


def main():
    os.makedirs(OUT, exist_ok=True)
    for k, (file, skin, hair, style, top, glasses) in enumerate(FOUNDERS):
        big = portrait(skin, hair, style, top, glasses, k)
        for px in (96, 192):
            big.resize((px, px), Image.LANCZOS).save(os.path.join(OUT, f"founder-{file}-{px}.webp"), "WEBP", quality=82, method=6)
    if "--portraits" in sys.argv:
        return
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
