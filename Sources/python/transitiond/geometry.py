"""Where a layer lands in the container: its corners after the transform and the
perspective divide (docs/renderers.md, "2D renderers")."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Tuple

from .model import Layer

Point = Tuple[float, float]


@dataclass(frozen=True, slots=True)
class Projection:
    """A layer's projected quad. ``corners`` are the top-left, top-right, bottom-right and
    bottom-left corners of its untransformed box in container points, each None when that
    corner is behind the eye (its ``w`` at most 0: it has no place on the screen); ``w`` is
    each corner's homogeneous w; ``affine`` is whether the transform keeps parallel lines
    parallel (m14 = m24 = 0 and m44 > 0), so that one affine map draws the layer exactly.
    ``anchor_point`` is the anchor in container points and ``anchor_offset`` in the box's."""

    corners: Tuple[Optional[Point], Optional[Point], Optional[Point], Optional[Point]]
    w: Tuple[float, float, float, float]
    affine: bool
    matrix: Tuple[Tuple[float, float, float], ...]
    anchor_point: Point
    anchor_offset: Point

    @property
    def behind_eye(self) -> bool:
        """Whether any corner is behind the eye (w ≤ 0): the quad cannot be drawn whole; a
        mesh draws the part in front (``point`` per vertex, dropping triangles with a
        vertex behind)."""
        return any(corner is None for corner in self.corners)

    def point(self, x: float, y: float) -> Tuple[Optional[Point], float]:
        """The container point of the layer's point (x, y), in points relative to its box's
        top-left corner, and its w; the point is None when w ≤ 0."""
        (a, b, c), (d, e, f), (g, h, i) = self.matrix
        px = x - self.anchor_offset[0]
        py = y - self.anchor_offset[1]
        xw = px * a + py * d + g
        yw = px * b + py * e + h
        w = px * c + py * f + i
        if w <= 0:
            return None, w
        ax, ay = self.anchor_point
        return (ax + xw / w, ay + yw / w), w


def reduced_matrix(transform) -> Tuple[Tuple[float, float, float], ...]:
    """The 3×3 matrix that maps z = 0 points (x, y, 1), as row vectors, to (x′w, y′w, w):
    rows (m11, m12, m14), (m21, m22, m24), (m41, m42, m44) of the 4×4 row-vector matrix. The
    third row and column (m3·, m·3) only touch z, which is 0 before and unused after."""
    m = transform
    return ((m[0], m[1], m[3]), (m[4], m[5], m[7]), (m[12], m[13], m[15]))


def project(layer: Layer) -> Projection:
    """The layer's four corners after its transform, about its anchor, with the perspective
    divide."""
    x, y, width, height = layer.frame
    ax = x + layer.anchor[0] * width
    ay = y + layer.anchor[1] * height
    matrix = reduced_matrix(layer.transform)
    (a, b, c), (d, e, f), (g, h, i) = matrix
    corners = []
    ws = []
    for cx, cy in ((x, y), (x + width, y), (x + width, y + height), (x, y + height)):
        px = cx - ax
        py = cy - ay
        w = px * c + py * f + i
        ws.append(w)
        if w <= 0:
            corners.append(None)
        else:
            corners.append((ax + (px * a + py * d + g) / w, ay + (px * b + py * e + h) / w))
    return Projection(tuple(corners), tuple(ws), c == 0 and f == 0 and i > 0, matrix, (ax, ay),
                      (layer.anchor[0] * width, layer.anchor[1] * height))
