"""Pictures of the box without a GPU (none here, and no display): each
solid tessellated, projected orthographically and rasterised with a depth
buffer in numpy, flat light per triangle, the sharp edges inked where they
are not hidden; pygame only saves the PNG. A screenshot can be laid on a
flat rectangle (the screen) the same way."""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame

Color = tuple[int, int, int]


@dataclass
class Item:
    vertices: np.ndarray       # (n, 3)
    faces: np.ndarray          # (m, 3)
    color: Color
    edges: bool = True


@dataclass
class Picture:
    """An image laid on a flat rectangle in the scene (the screenshot on the
    screen): its corners, bottom-left, bottom-right, top-left."""
    image: Path
    corners: tuple[tuple[float, float, float], ...]


def item(shape: object, color: Color, tolerance: float = 0.15) -> Item:
    verts, tris = shape.tessellate(tolerance, 0.3)  # type: ignore[attr-defined]
    v = np.array([[p.X, p.Y, p.Z] for p in verts], dtype=float)
    return Item(v, np.array(tris, dtype=np.int64).reshape(-1, 3), color)


def _camera(azimuth: float, elevation: float) -> np.ndarray:
    """Rows: the screen's right, up, and toward the viewer. Azimuth 0 looks
    from the front (-y), positive turns to the viewer's right."""
    a, e = math.radians(azimuth), math.radians(elevation)
    toward = np.array([math.sin(a) * math.cos(e), -math.cos(a) * math.cos(e), math.sin(e)])
    right = np.cross([0.0, 0.0, 1.0], toward)
    right /= np.linalg.norm(right)
    up = np.cross(toward, right)
    return np.stack([right, up, toward])


def _sharp_edges(it: Item) -> set[tuple[int, int]]:
    """Edges between faces more than 25° apart, and the mesh's open edges."""
    import trimesh
    mesh = trimesh.Trimesh(it.vertices, it.faces, process=False)
    mesh.merge_vertices()
    trimesh.repair.fix_winding(mesh)
    keep: set[tuple[int, int]] = set()
    angles = mesh.face_adjacency_angles
    for (a, b), ang in zip(mesh.face_adjacency_edges, angles, strict=True):
        if ang > math.radians(25):
            keep.add((min(a, b), max(a, b)))
    it.vertices, it.faces = mesh.vertices, mesh.faces
    return keep


def render(items: Sequence[Item], out: Path, size: tuple[int, int] = (900, 640),
           azimuth: float = -25.0, elevation: float = 35.0,
           pictures: Sequence[Picture] = (), background: Color = (246, 246, 242)) -> None:
    """Rasterise with a depth buffer (numpy, one triangle at a time)."""
    cam = _camera(azimuth, elevation)
    light = np.array([-0.4, -0.5, 0.9])
    light /= np.linalg.norm(light)
    light_cam = cam @ light
    projected = [it.vertices @ cam.T for it in items]
    allp = np.concatenate(projected)[:, :2]
    lo, hi = allp.min(axis=0), allp.max(axis=0)
    w, h = size
    scale = 0.92 * min(w / (hi[0] - lo[0]), h / (hi[1] - lo[1]))
    mid = (lo + hi) / 2

    def to_px(q: np.ndarray) -> np.ndarray:
        """Pixel x, pixel y, and depth (larger is nearer)."""
        return np.stack([w / 2 + (q[:, 0] - mid[0]) * scale,
                         h / 2 - (q[:, 1] - mid[1]) * scale, q[:, 2]], axis=1)

    color = np.empty((w, h, 3), dtype=np.uint8)
    color[:] = background
    depth = np.full((w, h), -np.inf)
    lines: list[tuple[np.ndarray, np.ndarray]] = []
    for it, p in zip(items, projected, strict=True):
        edges = _sharp_edges(it) if it.edges else set()
        p = it.vertices @ cam.T
        q = to_px(p)
        f = it.faces
        n = np.cross(p[f[:, 1]] - p[f[:, 0]], p[f[:, 2]] - p[f[:, 0]])
        norm = np.linalg.norm(n, axis=1)
        ok = norm > 1e-12
        n[ok] /= norm[ok, None]
        n[n[:, 2] < 0] *= -1                       # two-sided: face the viewer
        shade = 0.5 + 0.5 * np.clip(n @ light_cam, 0, 1)
        base = np.array(it.color, dtype=float)
        for i in np.nonzero(ok)[0]:
            col = np.clip(base * shade[i], 0, 255)
            _fill(color, depth, q[f[i]], lambda s, t, col=col: col)
        for a, b in edges:
            lines.append((q[a], q[b]))
    for pic in pictures:
        img = pygame.surfarray.array3d(pygame.image.load(str(pic.image)))
        iw, ih = img.shape[:2]
        c = to_px(np.array(pic.corners) @ cam.T)
        o, ex, ey = c
        uv = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
        for tri in ((0, 1, 2), (1, 3, 2)):
            t_uv = uv[list(tri)]
            corners = np.array([o, ex, ey, ex + ey - o])[list(tri)]

            def sample(b0: np.ndarray, b1: np.ndarray, t_uv: np.ndarray = t_uv,
                       img: np.ndarray = img, iw: int = iw, ih: int = ih) -> np.ndarray:
                b2 = 1 - b0 - b1
                u = b0 * t_uv[0, 0] + b1 * t_uv[1, 0] + b2 * t_uv[2, 0]
                v = b0 * t_uv[0, 1] + b1 * t_uv[1, 1] + b2 * t_uv[2, 1]
                ix = np.clip((u * iw).astype(int), 0, iw - 1)
                iy = np.clip(((1 - v) * ih).astype(int), 0, ih - 1)
                return img[ix, iy]
            _fill(color, depth, corners + np.array([0, 0, 0.3]), sample)
    ink = np.array([40, 40, 40], dtype=np.uint8)
    for p0, p1 in lines:
        steps = int(max(abs(p1[0] - p0[0]), abs(p1[1] - p0[1]))) + 2
        tt = np.linspace(0, 1, steps)
        pts = p0[None, :] * (1 - tt[:, None]) + p1[None, :] * tt[:, None]
        x, y = np.round(pts[:, 0]).astype(int), np.round(pts[:, 1]).astype(int)
        inside = (x >= 0) & (x < w) & (y >= 0) & (y < h)
        x, y, z = x[inside], y[inside], pts[inside, 2]
        seen = z >= depth[x, y] - 0.6 / scale - 0.3
        color[x[seen], y[seen]] = ink
    surface = pygame.surfarray.make_surface(color)
    out.parent.mkdir(parents=True, exist_ok=True)
    pygame.image.save(surface, str(out))


def _fill(color: np.ndarray, depth: np.ndarray, tri: np.ndarray, shade: object) -> None:
    """One triangle into the buffers: pixels whose centre it covers and
    where it is the nearest yet."""
    w, h = depth.shape
    x0 = max(int(np.floor(tri[:, 0].min())), 0)
    x1 = min(int(np.ceil(tri[:, 0].max())), w - 1)
    y0 = max(int(np.floor(tri[:, 1].min())), 0)
    y1 = min(int(np.ceil(tri[:, 1].max())), h - 1)
    if x1 < x0 or y1 < y0:
        return
    (ax, ay, az), (bx, by, bz), (cx, cy, cz) = tri
    den = (by - cy) * (ax - cx) + (cx - bx) * (ay - cy)
    if abs(den) < 1e-12:
        return
    xs, ys = np.meshgrid(np.arange(x0, x1 + 1) + 0.5, np.arange(y0, y1 + 1) + 0.5, indexing="ij")
    b0 = ((by - cy) * (xs - cx) + (cx - bx) * (ys - cy)) / den
    b1 = ((cy - ay) * (xs - cx) + (ax - cx) * (ys - cy)) / den
    b2 = 1 - b0 - b1
    eps = -1e-6
    inside = (b0 >= eps) & (b1 >= eps) & (b2 >= eps)
    if not inside.any():
        return
    z = b0 * az + b1 * bz + b2 * cz
    region = depth[x0:x1 + 1, y0:y1 + 1]
    near = inside & (z > region)
    if not near.any():
        return
    region[near] = z[near]
    got = shade(b0[near], b1[near])  # type: ignore[operator]
    color[x0:x1 + 1, y0:y1 + 1][near] = got
