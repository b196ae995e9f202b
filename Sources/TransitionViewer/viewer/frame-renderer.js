// Draws transitiond frames as absolutely positioned elements (docs/renderers.md).
//
// One element a layer: left/top/width/height = frame, transform-origin = anchor,
// transform = matrix3d() with the 16 numbers as they are (matrix() of its 2D part when it is
// 2D-affine, which draws the same), opacity = alpha, visibility from
// hidden, z-index = the layer's rank by (z, position in the frame's layers), background-color
// = background ("#rrggbbaa"), and content drawn as the example scenes mean it (a picture when
// an image base is set, a title bar, a tab bar, a keyboard, a text), else a small label.
// Appearance (docs/renderers.md, "Appearance"): border-radius = cornerRadius, overflow hidden
// for clips, the border as an overlay inside the box, box-shadow = shadow, and clipTo by
// wrappers that stand for the clipping layers' rounded boxes as drawn.
"use strict";

const COLOUR = /^#[0-9a-fA-F]{8}$/;

/// The text of a content the viewer does not draw as such: a string or number as it is, else
/// the first string member as "key: value", else the member names (never the raw JSON).
function contentLabel(content) {
  if (content === undefined || content === null) return "";
  if (typeof content === "string" || typeof content === "number") return String(content);
  if (typeof content === "object" && !Array.isArray(content)) {
    const keys = Object.keys(content).sort();
    const named = keys.find((key) => typeof content[key] === "string");
    if (named) return named + ": " + content[named];
    return keys.join(", ");
  }
  return Array.isArray(content) ? "list of " + content.length : "";
}

/// What kind of content this is, for the drawing: image, title (a navigation bar), tabs (a tab
/// bar), keyboard, symbol, text, or other.
function contentKind(content) {
  if (!content || typeof content !== "object" || Array.isArray(content)) {
    return typeof content === "string" || typeof content === "number" ? "text" : "other";
  }
  if (typeof content.image === "string") return "image";
  if (typeof content.title === "string") return "title";
  if (Array.isArray(content.tabs)) return "tabs";
  if (typeof content.keyboard === "string") return "keyboard";
  if (typeof content.symbol === "string") return "symbol";
  if (typeof content.text === "string") return "text";
  return "other";
}

/// Glyphs for the symbol names the scenes use (SF Symbols and Material icons); others show
/// their name.
const SYMBOLS = {
  xmark: "\u2715", chevron: "\u203A", plus: "+", "square.and.arrow.up": "\u2191",
  arrow_back: "\u2190", edit: "\u270E",
};

/// The keyboard's rows of keys (a QWERTY layout, as a system keyboard shows it).
const KEY_ROWS = ["qwertyuiop", "asdfghjkl", "⇧zxcvbnm⌫", ["123", "space", "return"]];

function element(tag, className, text) {
  const node = document.createElement(tag);
  node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/// Draws a content inside `label` (the layer's content element), as the scenes mean it: a
/// picture, a navigation bar's title (with its back button), a tab bar, a keyboard, a symbol, a
/// text (with its colour or tint and its accessory), or, for anything else, a small label.
function drawContent(label, content, imageURL) {
  const kind = contentKind(content);
  label.dataset.kind = kind;
  const tint = contentColour(content);
  switch (kind) {
    case "image": {
      const img = document.createElement("img");
      img.alt = content.image;
      if (content.contentMode === "aspectFit") img.className = "fit";
      // A missing image falls back to its name.
      img.onerror = () => { label.textContent = content.image; label.dataset.kind = "missing"; };
      label.appendChild(img);
      const source = imageURL ? imageURL(content.image) : "";
      if (source) img.src = source;
      else img.onerror();
      break;
    }
    case "title":
      label.appendChild(element("span", "title", content.title));
      if (typeof content.back === "string") label.appendChild(element("span", "back", "\u2039 " + content.back));
      break;
    case "tabs":
      content.tabs.forEach((name, index) => {
        const tab = element("span", "tab" + (index === content.selected ? " selected" : ""));
        tab.appendChild(element("i", "icon"));
        tab.appendChild(element("span", "name", String(name)));
        label.appendChild(tab);
      });
      break;
    case "keyboard":
      for (const row of KEY_ROWS) {
        const line = element("div", "keys");
        for (const key of row) line.appendChild(element("span", "key" + (key.length > 1 ? " wide " + key : ""), key));
        label.appendChild(line);
      }
      break;
    case "symbol":
      label.textContent = SYMBOLS[content.symbol] || content.symbol;
      break;
    case "text":
      label.appendChild(element("span", "text", typeof content === "object" ? content.text : String(content)));
      if (content && SYMBOLS[content.accessory]) {
        label.appendChild(element("span", "accessory", SYMBOLS[content.accessory]));
        label.classList.add("row");
      }
      break;
    default:
      label.textContent = contentLabel(content);
  }
  label.style.color = tint;
}

/// JSON with object members sorted by name, so that a label does not depend on member order
/// (JSON objects are unordered; the daemon writes members sorted, a scene file as typed).
function canonicalJSON(value) {
  if (Array.isArray(value)) return "[" + value.map(canonicalJSON).join(",") + "]";
  if (value && typeof value === "object") {
    return "{" + Object.keys(value).sort()
      .map((key) => JSON.stringify(key) + ":" + canonicalJSON(value[key])).join(",") + "}";
  }
  return JSON.stringify(value);
}

/// The colour of a label: content.color or content.tint when it is "#rrggbbaa".
function contentColour(content) {
  if (content && typeof content === "object") {
    for (const key of ["color", "tint"]) {
      if (typeof content[key] === "string" && COLOUR.test(content[key])) return content[key];
    }
  }
  return "";
}

/// Paint ranks: layers sorted by z, ties in the order of the frame's `layers` array.
function paintRanks(layers) {
  const order = layers.map((layer, index) => index);
  order.sort((a, b) => (layers[a].z || 0) - (layers[b].z || 0) || a - b);
  const ranks = new Array(layers.length);
  order.forEach((layerIndex, rank) => { ranks[layerIndex] = rank + 1; });
  return ranks;
}

/// 4×4 matrices as the wire writes them: 16 numbers, row vectors (p' = p · M).
function multiply(a, b) {
  const out = new Array(16).fill(0);
  for (let row = 0; row < 4; row++) {
    for (let column = 0; column < 4; column++) {
      let sum = 0;
      for (let k = 0; k < 4; k++) sum += a[row * 4 + k] * b[k * 4 + column];
      out[row * 4 + column] = sum;
    }
  }
  return out;
}

function translation(x, y) { return [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, y, 0, 1]; }

const IDENTITY = translation(0, 0);

function layerTransform(layer) {
  return Array.isArray(layer.transform) && layer.transform.length === 16 ? layer.transform : IDENTITY;
}

/// The map from a layer's box (points from its top-left corner) to the container, as CSS draws
/// it: the transform about the anchor point, then the box's place.
function boxToContainer(layer) {
  const [x, y, w, h] = layer.frame || [0, 0, 0, 0];
  const [ax, ay] = layer.anchor || [0.5, 0.5];
  const ox = ax * w, oy = ay * h;
  return multiply(multiply(translation(-ox, -oy), layerTransform(layer)), translation(ox + x, oy + y));
}

/// Whether a box-to-container map keeps the box's plane flat: no perspective, so that it is a
/// 2D affine map of the points of the box.
function isAffine2D(m) {
  return Math.abs(m[3]) < 1e-12 && Math.abs(m[7]) < 1e-12 && Math.abs(m[15] - 1) < 1e-12;
}

/// A map as a CSS transform: `matrix()` of its 2D part when it is 2D-affine, else `matrix3d()`.
/// A 2D transform is painted with the page and not composited on its own; headless Chromium
/// sometimes takes its screenshot before a composited layer's text is rastered.
function cssMatrix(m) {
  return isAffine2D(m) ? "matrix(" + [m[0], m[1], m[4], m[5], m[12], m[13]].join(",") + ")"
    : "matrix3d(" + m.join(",") + ")";
}

/// The inverse of a 2D-affine map as a 4×4 matrix (z left as it is); null when it is singular.
function inverseAffine2D(m) {
  const [a, b, c, d, tx, ty] = [m[0], m[1], m[4], m[5], m[12], m[13]];
  const det = a * d - b * c;
  if (!(Math.abs(det) > 1e-12)) return null;
  const ia = d / det, ib = -b / det, ic = -c / det, id = a / det;
  return [ia, ib, 0, 0, ic, id, 0, 0, 0, 0, 1, 0, -(tx * ia + ty * ic), -(tx * ib + ty * id), 0, 1];
}

/// The corner radius as drawn: at most half the shorter side (CSS scales larger radii down).
function cornerRadius(layer) {
  const [, , w, h] = layer.frame || [0, 0, 0, 0];
  const r = typeof layer.cornerRadius === "number" && layer.cornerRadius > 0 ? layer.cornerRadius : 0;
  return Math.min(r, Math.max(0, Math.min(w, h) / 2));
}

/// The outline of a layer's rounded box projected into the container: each corner's arc in
/// eight steps, as CSS `polygon()` points; "" when a point is at or behind the eye.
function projectedOutline(layer) {
  const [, , w, h] = layer.frame || [0, 0, 0, 0];
  const r = cornerRadius(layer);
  const m = boxToContainer(layer);
  const centres = [[r, r, Math.PI], [w - r, r, 1.5 * Math.PI], [w - r, h - r, 0], [r, h - r, 0.5 * Math.PI]];
  const points = [];
  for (const [cx, cy, start] of centres) {
    const steps = r > 0 ? 8 : 0;
    for (let i = 0; i <= steps; i++) {
      const angle = start + (Math.PI / 2) * (steps ? i / steps : 0);
      const px = cx + r * Math.cos(angle), py = cy + r * Math.sin(angle);
      const X = px * m[0] + py * m[4] + m[12], Y = px * m[1] + py * m[5] + m[13];
      const W = px * m[3] + py * m[7] + m[15];
      if (!(W > 1e-6)) return "";
      points.push(round(X / W) + "px " + round(Y / W) + "px");
    }
  }
  return "polygon(" + points.join(", ") + ")";
}

/// The layers that clip `layer`, nearest first (its clipTo, that layer's clipTo, ...); a chain
/// that names an unknown layer or comes back on itself stops there.
function clipChain(layer, byId) {
  const chain = [];
  const seen = new Set([layer.id]);
  for (let id = layer.clipTo; typeof id === "string" && byId.has(id) && !seen.has(id);) {
    seen.add(id);
    const clip = byId.get(id);
    chain.push(clip);
    id = clip.clipTo;
  }
  return chain;
}

function colour(value, fallback) {
  return typeof value === "string" && COLOUR.test(value) ? value : fallback;
}

class FrameRenderer {
  /// stage: the element that stands for the container; imageBase: a URL prefix for
  /// content.image, or imageURL: a function from an image's name to its URL (or ""); without
  /// either, image names show as labels. content: false draws no content at all.
  constructor(stage, options = {}) {
    this.stage = stage;
    this.setImages(options.imageURL || options.imageBase || "");
    this.probes = !!options.probes;
    /// false: geometry and colours only, no content drawn.
    this.drawsContent = options.content !== false;
    this.elements = new Map();
  }

  /// Where pictures come from: a URL prefix, a function from name to URL, or "" for none.
  /// Layers drawn already are drawn again with it.
  setImages(source) {
    this.imageURL = typeof source === "function" ? source
      : source ? (name) => source + encodeURIComponent(name) : null;
    for (const element of this.elements ? this.elements.values() : []) delete element.dataset.content;
  }

  setContainer(width, height) {
    this.stage.style.width = width + "px";
    this.stage.style.height = height + "px";
    this.container = [width, height];
  }

  clear() {
    for (const element of this.elements.values()) element.remove();
    this.elements.clear();
  }

  /// Draws `frame` (a frame event); layers absent from it are removed.
  draw(frame) {
    const layers = frame.layers || [];
    const ranks = paintRanks(layers);
    const byId = new Map(layers.map((layer) => [layer.id, layer]));
    const seen = new Set();
    layers.forEach((layer, index) => {
      seen.add(layer.id);
      let element = this.elements.get(layer.id);
      if (!element) {
        element = this.makeElement(layer.id);
        this.elements.set(layer.id, element);
        this.stage.appendChild(element);
      }
      this.apply(element, layer, ranks[index]);
      this.applyClip(element, layer, ranks[index], byId);
    });
    for (const [id, element] of this.elements) {
      if (!seen.has(id)) {
        this.placeInWrappers(element, 0);
        element.remove();
        this.elements.delete(id);
      }
    }
  }

  /// Nests `element` in `count` wrappers (outermost first in `element.clipWrappers`), made or
  /// removed as needed; 0 puts it back on the stage.
  placeInWrappers(element, count) {
    const wrappers = element.clipWrappers || [];
    while (wrappers.length > count) wrappers.pop().remove();
    while (wrappers.length < count) wrappers.push(Object.assign(document.createElement("div"), { className: "clip" }));
    element.clipWrappers = wrappers;
    let parent = this.stage;
    for (const wrapper of wrappers) {
      if (wrapper.parentNode !== parent) parent.appendChild(wrapper);
      parent = wrapper;
    }
    if (element.parentNode !== parent) parent.appendChild(element);
  }

  /// clipTo: the layer (all of it) clipped by each layer of its chain's rounded box as drawn.
  /// When every clipping layer's box maps to the container by a 2D-affine map, one wrapper a
  /// clipping layer stands for its box (that map, its radius, overflow hidden), each nested in
  /// the next one's, and the layer inside is drawn by inverse(clip) · own; otherwise each wrapper
  /// covers the container and clips by the polygon of the clipping layer's projected outline.
  applyClip(element, layer, rank, byId) {
    const chain = clipChain(layer, byId);
    this.placeInWrappers(element, chain.length);
    if (!chain.length) return;
    const wrappers = element.clipWrappers; // outermost first: the last of the chain
    const maps = chain.map(boxToContainer);
    const inverses = maps.map((m) => (isAffine2D(m) ? inverseAffine2D(m) : null));
    const affine = inverses.every((inverse) => inverse !== null);
    const [cw, ch] = this.container || [0, 0];
    wrappers.forEach((wrapper, index) => {
      const clipIndex = chain.length - 1 - index;
      const clip = chain[clipIndex];
      const style = wrapper.style;
      style.zIndex = index === 0 ? String(rank) : "";
      if (affine) {
        const [, , w, h] = clip.frame || [0, 0, 0, 0];
        const parent = clipIndex === chain.length - 1 ? IDENTITY : inverses[clipIndex + 1];
        Object.assign(style, {
          left: "0px", top: "0px", width: w + "px", height: h + "px", transformOrigin: "0px 0px 0px",
          transform: cssMatrix(multiply(maps[clipIndex], parent)),
          borderRadius: cornerRadius(clip) + "px", overflow: "hidden", clipPath: "",
        });
      } else {
        Object.assign(style, {
          left: "0px", top: "0px", width: cw + "px", height: ch + "px", transformOrigin: "",
          transform: "none", borderRadius: "", overflow: "visible",
          clipPath: projectedOutline(clip) || "polygon(0 0, 0 0, 0 0)",
        });
      }
    });
    if (affine) {
      const style = element.style;
      style.left = "0px";
      style.top = "0px";
      style.transformOrigin = "0px 0px 0px";
      style.transform = cssMatrix(multiply(boxToContainer(layer), inverses[0]));
    }
  }

  makeElement(id) {
    const element = document.createElement("div");
    element.className = "layer";
    element.dataset.id = id;
    const label = document.createElement("span");
    label.className = "label";
    element.appendChild(label);
    const tag = document.createElement("span");
    tag.className = "tag";
    tag.textContent = id;
    element.appendChild(tag);
    if (this.probes) {
      for (const corner of ["tl", "tr", "br", "bl"]) {
        const probe = document.createElement("i");
        probe.className = "probe " + corner;
        element.appendChild(probe);
      }
    }
    return element;
  }

  apply(element, layer, rank) {
    const [x, y, w, h] = layer.frame || [0, 0, 0, 0];
    const [ax, ay] = layer.anchor || [0.5, 0.5];
    const style = element.style;
    style.left = x + "px";
    style.top = y + "px";
    style.width = w + "px";
    style.height = h + "px";
    style.transformOrigin = ax * w + "px " + ay * h + "px 0px";
    style.transform = Array.isArray(layer.transform) && layer.transform.length === 16
      ? cssMatrix(layer.transform) : "none";
    style.opacity = layer.alpha === undefined ? "1" : String(layer.alpha);
    style.visibility = layer.hidden ? "hidden" : "visible";
    style.zIndex = String(rank);
    style.backgroundColor = typeof layer.background === "string" && COLOUR.test(layer.background)
      ? layer.background : "transparent";
    this.applyAppearance(element, layer);
    this.applyContent(element, layer.content);
  }

  /// cornerRadius, clips, border and shadow (docs/renderers.md, "Appearance"). The border is an
  /// overlay over the content inside the box (as Core Animation draws it), so that it neither
  /// moves the content nor hides under it.
  applyAppearance(element, layer) {
    const style = element.style;
    const radius = cornerRadius(layer);
    style.borderRadius = radius > 0 ? radius + "px" : "";
    style.overflow = layer.clips === true ? "hidden" : "";
    const shadow = layer.shadow;
    const shadowColour = shadow && typeof shadow === "object" ? colour(shadow.color, "") : "";
    if (shadowColour && !shadowColour.endsWith("00")) {
      const [dx, dy] = Array.isArray(shadow.offset) ? shadow.offset : [0, 0];
      style.boxShadow = dx + "px " + dy + "px " + (shadow.blur > 0 ? shadow.blur : 0) + "px " + shadowColour;
    } else {
      style.boxShadow = "";
    }
    const border = layer.border;
    const width = border && typeof border === "object" && border.width > 0 ? border.width : 0;
    let overlay = element.querySelector(":scope > .border");
    if (width > 0 && colour(border.color, "")) {
      if (!overlay) {
        overlay = element.insertBefore(element.ownerDocument.createElement("span"), element.querySelector(".tag"));
        overlay.className = "border";
      }
      overlay.style.borderWidth = width + "px";
      overlay.style.borderColor = border.color;
    } else if (overlay) {
      overlay.remove();
    }
  }

  applyContent(element, content) {
    const key = content === undefined ? "" : canonicalJSON(content);
    if (element.dataset.content === key) return;
    element.dataset.content = key;
    const label = element.querySelector(".label");
    label.textContent = "";
    label.className = "label";
    label.style.color = "";
    delete label.dataset.kind;
    if (content !== undefined && content !== null && this.drawsContent) {
      drawContent(label, content, this.imageURL);
    }
  }

  /// Resolves when every picture on the stage has loaded and been decoded (or failed, and
  /// fallen back to its label).
  picturesReady() {
    const pictures = Array.from(this.stage.querySelectorAll("img"));
    return Promise.all(pictures.map((img) => img.decode().catch(() => {})));
  }

  /// What the browser drew for every layer: the four corners (from zero-size probe elements,
  /// so they pass through the browser's own 3D transform), the bounding rectangle, the
  /// effective opacity and visibility, all in container coordinates.
  measure() {
    const origin = this.stage.getBoundingClientRect();
    const point = (rect) => [round(rect.left - origin.left), round(rect.top - origin.top)];
    const result = [];
    for (const [id, element] of this.elements) {
      const rect = element.getBoundingClientRect();
      const entry = {
        id,
        rect: [round(rect.left - origin.left), round(rect.top - origin.top),
          round(rect.width), round(rect.height)],
        opacity: Number(getComputedStyle(element).opacity),
        visible: getComputedStyle(element).visibility === "visible",
        z: Number(element.style.zIndex),
      };
      if (this.probes) {
        entry.quad = ["tl", "tr", "br", "bl"].map(
          (corner) => point(element.querySelector(".probe." + corner).getBoundingClientRect()));
      }
      result.push(entry);
    }
    return result;
  }
}

function round(value) { return Math.round(value * 1000) / 1000; }

/// A frame that draws one screen of a transition context on its own: the screen's background
/// filling the container, then its layers in order, untransformed and opaque, with their
/// appearance.
function screenFrame(context, side) {
  const screen = (context && context[side]) || {};
  const [w, h] = context.container || [0, 0];
  const layers = [];
  if (typeof screen.background === "string") {
    layers.push({ id: side + "-background", frame: [0, 0, w, h], z: 0,
      background: screen.background });
  }
  for (const layer of screen.layers || []) {
    const drawn = { id: layer.id, frame: layer.frame, z: layers.length };
    for (const member of ["background", "cornerRadius", "clips", "border", "shadow", "clipTo", "content"]) {
      if (layer[member] !== undefined) drawn[member] = layer[member];
    }
    layers.push(drawn);
  }
  return { event: "frame", session: side, seq: 0, t: 0, progress: side === "from" ? 0 : 1, layers };
}
