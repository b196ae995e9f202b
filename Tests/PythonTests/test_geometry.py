"""The projected quad: docs/renderers.md's worked example, the affine test, the eye."""

import pytest

from transitiond import Layer, project

COVER = Layer("album-flip.cover", (16, 326, 171, 171), 40, (0, 0.5),
              (0.5327880214919253, 0, 0.8462487365749621, -0.0016924974731499242, 0, 1, 0, 0,
               -0.8462487365749621, 0, 0.5327880214919253, -0.0010655760429838506, 0, 0, 0, 1))


def test_the_worked_examples_corners():
    projection = project(COVER)
    (tl, tr, br, bl) = projection.corners
    assert tl == pytest.approx((16, 326)) and bl == pytest.approx((16, 497))
    assert tr == pytest.approx((144.214, 291.176), abs=5e-4)
    assert br == pytest.approx((144.214, 531.824), abs=5e-4)
    assert projection.w[1] == pytest.approx(0.710583, abs=1e-6)
    assert projection.affine is False and not projection.behind_eye


def test_a_plane_transform_is_affine():
    layer = Layer("a", (10, 20, 100, 50), 0, transform=(2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 1, 0,
                                                        5, 7, 0, 1))
    projection = project(layer)
    assert projection.affine and projection.w == (1, 1, 1, 1)
    # Scaled about the centre (60, 45), then moved by (5, 7).
    assert projection.corners[0] == pytest.approx((60 - 100 + 5, 45 - 75 + 7))
    assert projection.point(100, 50)[0] == pytest.approx(projection.corners[2])


def test_a_corner_behind_the_eye_has_no_point():
    # Turned past 90° under a strong perspective: the right edge goes behind the eye.
    layer = Layer("a", (0, 0, 1000, 100), 0, (0, 0.5),
                  (1, 0, 0, -0.002, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1))
    projection = project(layer)
    assert projection.w[1] == pytest.approx(-1) and projection.corners[1] is None
    assert projection.corners[0] is not None and projection.behind_eye
    point, w = projection.point(250, 0)
    assert w == pytest.approx(0.5) and point == pytest.approx((500, 50 - 50 / 0.5))
