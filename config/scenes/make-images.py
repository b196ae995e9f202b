#!/usr/bin/python3
"""Draws the example scenes' pictures (the files their layers' content.image names) into
config/scenes/images/: small photo-like JPEGs made of a sky gradient, a sun or moon, hills or
mountains, water or a field, a few trees or houses, and a label, all from shapes and gradients,
so that nothing is downloaded. The same name always draws the same picture (the random choices
are seeded by the name).

    /usr/bin/python3 config/scenes/make-images.py [DIRECTORY]

Needs Pillow (Debian's python3-pil; `make scene-images` installs it when missing). Writes one
file per name found in config/scenes/*.json, as JPEG or, for a name ending in .png, as PNG:
album covers and grid cells square, the library's pictures 4:3 (the zoom's detail shows one
whole).
"""

import json
import os
import random
import sys
import zlib

from PIL import Image, ImageDraw, ImageFilter, ImageFont

HERE = os.path.dirname(os.path.abspath(__file__))

# Skies: (top, horizon) colours, from dawn to night.
SKIES = [
    ((36, 84, 164), (164, 206, 238)),  # clear day
    ((250, 140, 90), (255, 214, 150)),  # sunset
    ((70, 56, 120), (236, 138, 120)),  # dusk
    ((14, 24, 60), (60, 80, 140)),  # night
    ((120, 170, 210), (230, 236, 240)),  # haze
    ((200, 90, 110), (250, 200, 160)),  # dawn
]
GROUNDS = [
    ((58, 110, 62), (30, 70, 40)),  # meadow
    ((196, 160, 100), (150, 110, 70)),  # dunes
    ((40, 90, 130), (20, 50, 90)),  # sea
    ((90, 90, 100), (50, 50, 60)),  # rock
    ((220, 226, 236), (170, 180, 200)),  # snow
]


def lerp(a, b, t):
    return tuple(int(round(x + (y - x) * t)) for x, y in zip(a, b))


def gradient(draw, box, top, bottom):
    x0, y0, x1, y1 = box
    height = max(1, y1 - y0)
    for y in range(y0, y1):
        draw.line([(x0, y), (x1, y)], fill=lerp(top, bottom, (y - y0) / height))


def ridge(rng, width, base, amplitude, steps):
    points = [(0, base)]
    for i in range(1, steps):
        points.append((width * i / (steps - 1), base - rng.uniform(0.2, 1.0) * amplitude))
    return points


def picture(name, size):
    rng = random.Random(zlib.crc32(name.encode()))
    width, height = size
    image = Image.new("RGB", size)
    draw = ImageDraw.Draw(image)
    sky_top, sky_bottom = rng.choice(SKIES)
    horizon = int(height * rng.uniform(0.5, 0.68))
    gradient(draw, (0, 0, width, horizon + 1), sky_top, sky_bottom)
    # The sun (or moon), with a soft glow.
    sun_x, sun_y = rng.uniform(0.15, 0.85) * width, rng.uniform(0.12, 0.4) * height
    radius = rng.uniform(0.06, 0.11) * width
    glow = Image.new("L", size, 0)
    ImageDraw.Draw(glow).ellipse(
        [sun_x - radius * 2.2, sun_y - radius * 2.2, sun_x + radius * 2.2, sun_y + radius * 2.2],
        fill=90)
    glow = glow.filter(ImageFilter.GaussianBlur(radius))
    image.paste((255, 240, 200), mask=glow)
    draw.ellipse([sun_x - radius, sun_y - radius, sun_x + radius, sun_y + radius],
                 fill=(255, 246, 214))
    # Two ranges of hills or mountains, the far one paler.
    far = lerp(sky_bottom, (60, 70, 90), 0.45)
    near = lerp(sky_bottom, (30, 50, 40), 0.7)
    for colour, base, amplitude, steps in [
        (far, horizon, height * 0.22, rng.randint(4, 7)),
        (near, horizon + 2, height * 0.12, rng.randint(5, 9)),
    ]:
        draw.polygon(ridge(rng, width, base, amplitude, steps) + [(width, base), (0, base)],
                     fill=colour)
    ground_top, ground_bottom = rng.choice(GROUNDS)
    gradient(draw, (0, horizon, width, height), ground_top, ground_bottom)
    # Trees or houses on the ground.
    for _ in range(rng.randint(2, 5)):
        x = rng.uniform(0, width)
        y = rng.uniform(horizon + 4, height * 0.92)
        scale = (y - horizon) / (height - horizon) * 0.9 + 0.3
        if rng.random() < 0.6:
            h = 26 * scale * width / 240
            draw.rectangle([x - h * 0.06, y - h * 0.3, x + h * 0.06, y], fill=(70, 46, 30))
            draw.polygon([(x, y - h), (x - h * 0.3, y - h * 0.25), (x + h * 0.3, y - h * 0.25)],
                         fill=lerp((30, 90, 50), (20, 60, 30), rng.random()))
        else:
            w = 22 * scale * width / 240
            wall = rng.choice([(236, 226, 206), (214, 120, 90), (240, 240, 236), (120, 150, 180)])
            draw.rectangle([x - w / 2, y - w * 0.7, x + w / 2, y], fill=wall)
            draw.polygon([(x - w * 0.62, y - w * 0.7), (x + w * 0.62, y - w * 0.7),
                          (x, y - w * 1.2)], fill=(150, 60, 50))
    # The label: a strip along the bottom with the picture's name.
    label = os.path.splitext(name)[0].replace("-", " ")
    font = ImageFont.load_default()
    strip = int(height * 0.14)
    overlay = Image.new("RGBA", size, (0, 0, 0, 0))
    ImageDraw.Draw(overlay).rectangle([0, height - strip, width, height], fill=(0, 0, 0, 90))
    image = Image.alpha_composite(image.convert("RGBA"), overlay).convert("RGB")
    draw = ImageDraw.Draw(image)
    box = draw.textbbox((0, 0), label, font=font)
    draw.text((8, height - strip / 2 - (box[3] - box[1]) / 2 - box[1]), label,
              fill=(255, 255, 255), font=font)
    return image


def names():
    found = set()

    def walk(value):
        if isinstance(value, dict):
            if isinstance(value.get("image"), str):
                found.add(value["image"])
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    for file in sorted(os.listdir(HERE)):
        if file.endswith(".json"):
            with open(os.path.join(HERE, file)) as handle:
                walk(json.load(handle))
    return sorted(found)


def main():
    directory = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "images")
    os.makedirs(directory, exist_ok=True)
    for name in names():
        size = (320, 240) if name.startswith("library-") else (240, 240)
        path = os.path.join(directory, name)
        if name.lower().endswith(".png"):
            picture(name, size).save(path, "PNG", optimize=True)
        else:
            picture(name, size).save(path, "JPEG", quality=72, optimize=True)
    print("wrote %d pictures in %s" % (len(names()), directory))


if __name__ == "__main__":
    main()
