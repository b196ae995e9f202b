#!/usr/bin/env python3
"""An example 2D renderer: draws a recording's frames with pycairo, one PNG a frame.

    render_cairo.py RECORDING.ndjson --out DIR [--images DIR] [--scale S] [--frames N,M,…]
                    [--background #RRGGBB]

Each layer is drawn through its projected geometry: the daemon's ``quad`` in a recording of a
geometry stream (subscribe's geometry "quad"), else ``transitiond.project``'s; its background
fills the projected quad; a ``content.image`` picture (object-fit: cover, as the viewer page
draws it) is mapped onto a 16 × 16 mesh of affine triangles, each drawn without antialiasing,
and the whole masked by the antialiased quad (docs/renderers.md, "2D renderers"). A layer's
``cornerRadius`` rounds that outline (each corner's arc projected in eight steps): the
background always, the picture when the layer ``clips``. A ``shadow`` is the outline moved by
its offset, blurred by a Gaussian of σ = blur / 2 (with Pillow; without it none is drawn) and
masked off where the box is; borders and ``clipTo`` are not drawn. pycairo
reads PNG only: JPEG pictures are converted with Pillow when it is installed, else the layer
is drawn in its colour only. Other content (titles, texts, tab bars) is not drawn. A layer
with a corner behind the eye draws the mesh triangles whose three corners are in front.
"""

from __future__ import annotations

import argparse
import io
import math
import os
import sys

import cairo

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from transitiond import BeginEvent, Frame, StreamDecoder, project  # noqa: E402

MESH = 16

try:
    from PIL import Image, ImageFilter
except ImportError:  # colour only
    Image = None


class Pictures:
    """content.image names to cairo surfaces, read once."""

    def __init__(self, directory: str | None):
        self.directory = directory
        self.surfaces: dict = {}

    def get(self, name: str):
        if name in self.surfaces:
            return self.surfaces[name]
        surface = None
        path = os.path.join(self.directory, name) if self.directory else None
        if path and os.path.exists(path):
            if name.lower().endswith(".png"):
                surface = cairo.ImageSurface.create_from_png(path)
            elif Image is not None:
                buffer = io.BytesIO()
                Image.open(path).convert("RGBA").save(buffer, "PNG")
                buffer.seek(0)
                surface = cairo.ImageSurface.create_from_png(buffer)
        self.surfaces[name] = surface
        return surface


def colour(text: str):
    value = int(text[1:], 16)
    return ((value >> 24) & 255) / 255, ((value >> 16) & 255) / 255, ((value >> 8) & 255) / 255, \
        (value & 255) / 255


def quad_path(context, corners) -> None:
    context.move_to(*corners[0])
    for corner in corners[1:]:
        context.line_to(*corner)
    context.close_path()


ARC_STEPS = 8


def rounded_outline(layer, projection, corners):
    """The projected outline of the layer's rounded box (its quad without a radius, or when a
    point of it is behind the eye)."""
    width, height = layer.frame[2], layer.frame[3]
    radius = min(layer.corner_radius, width / 2, height / 2)
    if radius <= 0:
        return corners
    points = []
    for cx, cy, start in ((width - radius, radius, -math.pi / 2), (width - radius, height - radius, 0),
                          (radius, height - radius, math.pi / 2), (radius, radius, math.pi)):
        for step in range(ARC_STEPS + 1):
            angle = start + math.pi / 2 * step / ARC_STEPS
            point = projection.point(cx + radius * math.cos(angle), cy + radius * math.sin(angle))[0]
            if point is None:
                return corners
            points.append(point)
    return points


def draw_shadow(context, layer, outline, surface) -> None:
    """The layer's shadow under it: its outline moved by the offset and blurred, outside the
    outline only (as CSS box-shadow)."""
    shadow = layer.shadow
    if shadow is None or Image is None:
        return
    red, green, blue, alpha = colour(shadow.color)
    if alpha <= 0:
        return
    width, height = surface.get_width(), surface.get_height()
    matrix = context.get_matrix()
    shape = cairo.ImageSurface(cairo.FORMAT_A8, width, height)
    drawing = cairo.Context(shape)
    drawing.set_matrix(matrix)
    drawing.translate(*shadow.offset)
    quad_path(drawing, outline)
    drawing.fill()
    shape.flush()
    stride = shape.get_stride()
    blurred = Image.frombuffer("L", (width, height), bytes(shape.get_data()), "raw", "L", stride, 1)
    if shadow.blur > 0:
        blurred = blurred.filter(ImageFilter.GaussianBlur(shadow.blur / 2 * matrix.xx))
    data = bytearray(blurred.tobytes("raw", "L", stride, 1))
    mask = cairo.ImageSurface.create_for_data(data, cairo.FORMAT_A8, width, height, stride)
    context.save()
    context.new_path()
    context.rectangle(-1e5, -1e5, 2e5, 2e5)
    quad_path(context, outline)
    context.set_fill_rule(cairo.FILL_RULE_EVEN_ODD)
    context.clip()
    context.identity_matrix()
    context.set_source_rgba(red, green, blue, alpha * layer.alpha)
    context.mask_surface(mask, 0, 0)
    context.restore()


def draw_picture(context, layer, projection, surface) -> None:
    """The picture over the layer's box (cover), as a mesh of affine triangles."""
    width, height = layer.frame[2], layer.frame[3]
    if width <= 0 or height <= 0:
        return
    scale = max(width / surface.get_width(), height / surface.get_height())
    offset_x = (width - surface.get_width() * scale) / 2
    offset_y = (height - surface.get_height() * scale) / 2
    context.save()
    context.set_antialias(cairo.ANTIALIAS_NONE)
    grid = [[projection.point(width * i / MESH, height * j / MESH) for i in range(MESH + 1)]
            for j in range(MESH + 1)]
    for j in range(MESH):
        for i in range(MESH):
            cell = ((i, j), (i + 1, j), (i + 1, j + 1), (i, j + 1))
            for triangle in ((cell[0], cell[1], cell[2]), (cell[0], cell[2], cell[3])):
                points = [grid[b][a][0] for a, b in triangle]
                if any(point is None for point in points):
                    continue
                # Layer points (box coordinates) of the triangle's corners.
                box = [(width * a / MESH, height * b / MESH) for a, b in triangle]
                draw_triangle(context, surface, box, points, scale, offset_x, offset_y)
    context.restore()


def draw_triangle(context, surface, box, points, scale, offset_x, offset_y) -> None:
    """Paints the triangle `points` with the affine map that sends box points there."""
    (x0, y0), (x1, y1), (x2, y2) = box
    (u0, v0), (u1, v1), (u2, v2) = points
    determinant = (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0)
    if determinant == 0:
        return
    # The affine map box → container, solved from the three corners.
    a = ((u1 - u0) * (y2 - y0) - (u2 - u0) * (y1 - y0)) / determinant
    c = ((u2 - u0) * (x1 - x0) - (u1 - u0) * (x2 - x0)) / determinant
    b = ((v1 - v0) * (y2 - y0) - (v2 - v0) * (y1 - y0)) / determinant
    d = ((v2 - v0) * (x1 - x0) - (v1 - v0) * (x2 - x0)) / determinant
    e = u0 - a * x0 - c * y0
    f = v0 - b * x0 - d * y0
    context.save()
    context.move_to(u0, v0)
    context.line_to(u1, v1)
    context.line_to(u2, v2)
    context.close_path()
    context.clip()
    context.transform(cairo.Matrix(a, b, c, d, e, f))
    context.translate(offset_x, offset_y)
    context.scale(scale, scale)
    context.set_source_surface(surface, 0, 0)
    context.get_source().set_filter(cairo.FILTER_BILINEAR)
    context.paint()
    context.restore()


def draw_frame(frame: Frame, container, pictures: Pictures, scale: float, background) -> cairo.ImageSurface:
    width, height = int(round(container[0] * scale)), int(round(container[1] * scale))
    surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, width, height)
    context = cairo.Context(surface)
    context.set_source_rgb(*background)
    context.paint()
    context.scale(scale, scale)
    order = sorted(range(len(frame.layers)), key=lambda index: (frame.layers[index].z, index))
    for index in order:
        layer = frame.layers[index]
        if layer.hidden or layer.alpha <= 0:
            continue
        projection = project(layer)
        corners = projection.corners
        behind_eye = projection.behind_eye
        if layer.quad_w is not None:
            # A geometry stream's recording (subscribe's geometry "quad"): the daemon's quad.
            behind_eye = layer.quad is None
            if not behind_eye:
                q = layer.quad
                corners = ((q[0], q[1]), (q[2], q[3]), (q[4], q[5]), (q[6], q[7]))
        picture = None
        content = layer.content
        if isinstance(content, dict) and isinstance(content.get("image"), str):
            picture = pictures.get(content["image"])
        if not behind_eye:
            outline = corners if layer.quad_w is not None else rounded_outline(layer, projection, corners)
            draw_shadow(context, layer, outline, surface)
            context.push_group()
            if layer.background:
                context.set_source_rgba(*colour(layer.background))
                quad_path(context, outline)
                context.fill()
            if picture is not None:
                draw_picture(context, layer, projection, picture)
            context.pop_group_to_source()
            # The antialiased outline masks the mesh's aliased edges (and clips the picture to
            # the rounded box when the layer clips).
            quad_path(context, outline if layer.clips or picture is None else corners)
            context.save()
            context.clip()
            context.paint_with_alpha(layer.alpha)
            context.restore()
        elif picture is not None:
            context.push_group()
            draw_picture(context, layer, projection, picture)
            context.pop_group_to_source()
            context.paint_with_alpha(layer.alpha)
    surface.flush()
    return surface


def main(arguments=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("recording")
    parser.add_argument("--out", required=True, help="the directory for frame-NNNN.png")
    parser.add_argument("--images", help="the directory of the content.image pictures")
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--frames", help="only these frame indexes, comma-separated")
    parser.add_argument("--background", default="#000000")
    options = parser.parse_args(arguments)
    wanted = None if not options.frames else {int(n) for n in options.frames.split(",")}
    background = colour(options.background + "ff")[:3]
    pictures = Pictures(options.images)
    decoder = StreamDecoder()
    container = None
    index = 0
    os.makedirs(options.out, exist_ok=True)
    with open(options.recording, "rb") as file:
        for line in file:
            if not line.strip():
                continue
            message = decoder.decode(line)
            if isinstance(message, BeginEvent):
                container = message.container
            elif isinstance(message, Frame):
                if container is None:
                    print(f"{options.recording}: a frame before its begin event (no container)",
                          file=sys.stderr)
                    return 65
                if wanted is None or index in wanted:
                    draw_frame(message, container, pictures, options.scale, background) \
                        .write_to_png(os.path.join(options.out, f"frame-{index:04d}.png"))
                index += 1
    print(f"drew {index if wanted is None else len(wanted)} frames into {options.out} "
          f"(pictures: {'Pillow' if Image else 'colour only, no Pillow'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
