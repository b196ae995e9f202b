"""The pycairo example renderer draws the album flip's perspective cover as Chromium does."""

import os
import shutil
import subprocess
import sys

import pytest
from conftest import ROOT, SCENES

cairo = pytest.importorskip("cairo")
Image = pytest.importorskip("PIL.Image")
ImageChops = pytest.importorskip("PIL.ImageChops")

RENDERER = os.path.join(ROOT, "Sources", "python", "examples", "render_cairo.py")
IMAGES = os.path.join(SCENES, "images")
# Frame 6 of the 60 fps push (t = 0.1 s): the cover turned -57.8° (docs/renderers.md's worked
# example); its projected quad spans x 16 to 144.2, y 291.2 to 531.8.
FRAME = 6
COVER_BOX = (16, 291, 145, 532)


def pixels_off(a, b, box) -> int:
    """Pixels of `box` whose channels differ by more than 16/255."""
    difference = ImageChops.difference(a.convert("RGB").crop(box), b.convert("RGB").crop(box))
    return sum(1 for pixel in difference.getdata() if max(pixel) > 16)


def test_the_cover_matches_chromium(daemon, tmp_path):
    for tool in ("chromium", "ffmpeg"):
        if shutil.which(tool) is None:
            pytest.skip(f"{tool} is not installed (make setup installs it)")
    ctl = os.path.join(daemon.bin, "transitionctl")
    recording = str(tmp_path / "flip.ndjson")
    subprocess.run([ctl, "--socket", daemon.socket, "play", os.path.join(SCENES, "album-flip-push.json"),
                    "--virtual", "--fps", "60", "--out", recording], check=True)
    out = tmp_path / "cairo"
    subprocess.run([sys.executable, RENDERER, recording, "--out", str(out), "--images", IMAGES,
                    "--frames", str(FRAME)], check=True, capture_output=True)
    # The reference: the viewer page in headless Chromium, that one frame, losslessly.
    reference = tmp_path / "reference.apng"
    instant = f"{FRAME / 60:.6f}"
    subprocess.run([ctl, "render", recording, "--out", str(reference), "--fps", "60", "--start",
                    instant, "--end", instant, "--images", IMAGES, "--once", "--quiet"], check=True)
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-i", str(reference), "-frames:v", "1",
                    str(tmp_path / "reference.png")], check=True)
    chromium = Image.open(tmp_path / "reference.png")
    drawn = Image.open(out / f"frame-{FRAME:04d}.png")
    assert drawn.size == chromium.size == (390, 844)
    # Measured 1,372 of the box's 31,089 pixels, the text under the cover's corner (which the
    # example does not draw) and the edge of the cover's blurred shadow among them; the cover
    # drawn flat, unturned, is off by far more.
    off = pixels_off(drawn, chromium, COVER_BOX)
    assert off < 1500, f"{off} pixels of the cover's box differ from Chromium's"
    flat = Image.open(out / f"frame-{FRAME:04d}.png").copy()
    flat.paste(Image.new("RGB", (129, 241), (255, 127, 80)), COVER_BOX[:2])
    assert pixels_off(flat, chromium, COVER_BOX) > 10 * off
