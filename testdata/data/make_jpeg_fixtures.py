#!/usr/bin/python3
# Regenerates the small JPEG fixtures under testdata/data/jpeg/ with Debian's
# Pillow (apt-get install python3-pil; Pillow encodes with libjpeg-turbo):
#   /usr/bin/python3 testdata/data/make_jpeg_fixtures.py
# The expected pixels in tests/formats/data/image_test.cc come from decoding
# these files with Pillow (see the test comments), not from qforge.
import os
from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "jpeg")
os.makedirs(OUT, exist_ok=True)

# 1-component (grayscale) baseline JPEG: a 32x24 ramp.
gray = Image.new("L", (32, 24))
gray.putdata([(x * 7 + y * 5) % 256 for y in range(24) for x in range(32)])
gray.save(os.path.join(OUT, "gray_32x24.jpg"), quality=90)

# Progressive 4:2:0 JPEG: the shoe photo scaled to 48x32.
shoe = Image.open(os.path.join(HERE, "shoe_224_224_3.jpeg")).convert("RGB")
shoe.resize((48, 32), Image.BILINEAR).save(
    os.path.join(OUT, "progressive_48x32.jpg"), quality=90, progressive=True)

# 4-component Adobe CMYK JPEG (Pillow writes the Adobe APP14 marker and the
# inverted values Photoshop writes): four flat 8x8 quadrants, quality 100,
# 4:4:4, so each block is one DC value.
cmyk = Image.new("CMYK", (16, 16))
quadrants = [(0, 255, 255, 0), (0, 0, 0, 128), (255, 0, 0, 64),
             (32, 64, 96, 0)]
for i, color in enumerate(quadrants):
    x, y = (i % 2) * 8, (i // 2) * 8
    cmyk.paste(color, (x, y, x + 8, y + 8))
cmyk.save(os.path.join(OUT, "cmyk_16x16.jpg"), quality=100, subsampling=0)
