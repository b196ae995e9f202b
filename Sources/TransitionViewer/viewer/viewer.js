// The transitiond viewer: plays recordings, follows a live daemon, draws contact sheets and
// reports geometry for tests. URL parameters (all optional):
//
//   recording=URL        an NDJSON recording to load
//   session=ID           which session of it to show (default: the first)
//   container=W,H        the container size when the recording has no begin event
//                        (default: the extent of its frames)
//   frame=N | progress=P start paused on frame N (negative counts from the end) or on the
//                        frame whose progress is nearest P
//   scene=URL            a transition context (config/scenes/*.json), for the "from" and
//                        "to" views below
//   sheet=V,V,…          draw views side by side instead of the player, V one of
//                        f:N (frame N), p:P (progress P), either with @SESSION to take it
//                        from another session of the recording, from, to (the scene's
//                        screens drawn on their own); 16 px margins and gaps, captions
//                        unless captions=0
//   measure=all          draw every frame in turn and write what the browser drew (corner
//                        points, bounding boxes, opacity) as JSON into <pre id="measurements">
//   measure=pacing       live and paced: write what the display pacer drew (display-pacer.js,
//                        its report()) as JSON into <pre id="measurements">
//   measure=inspector    write the timeline inspector's lanes and the plotted value of the
//                        layer select=ID (its track property=NAME) at each frame's
//                        progress, as JSON, likewise
//   select=ID            the layer the timeline inspector selects (default: the first)
//   outline=1            outline layers and show their ids
//   images=URL           a prefix for content.image names (default: show names as labels;
//                        live, the daemon's images/ route; or pick a folder of pictures)
//   speed=S, loop=1      playback speed (0.1 to 2) and looping
//   render=1             the render view (transitionctl render): the stage alone at the top
//                        left; window.viewerRender.show(N) draws frame N of the session on an
//                        empty stage and resolves with N once fonts and pictures are ready
//                        and two animation frames have passed (so that it is painted)
//   content=0            with render=1: geometry and colours only, no layer's content
//   background=#RRGGBB   the stage's colour behind the layers (default black)
//   token=T              over HTTP: the daemon's token, passed on to /events (live mode)
//   fps=N                over HTTP: the live stream's frame rate on the daemon's grid; without
//                        it the frames are paced by this page's display (requestAnimationFrame,
//                        display-pacer.js)
//   stream=NAME          over HTTP: the name the paced stream goes by for /display and
//                        /presented (default: a random one)
//   encoding=full        over HTTP: ask the live stream for full frames instead of delta
//                        frames (the default, rebuilt here as they arrive)
//
// When it is done, <body data-status> is "ready" or "error" (and #message says why), and the
// promise window.viewerReady resolves.
"use strict";

const params = new URLSearchParams(location.search);
const SHEET_MARGIN = 16;
const CAPTION_HEIGHT = 24;

function $(id) { return document.getElementById(id); }

function setStatus(status, message) {
  document.body.dataset.status = status;
  $("message").textContent = message || "";
}

/// GETs a URL as text (XMLHttpRequest, which also reads file:// URLs in a browser started with
/// --allow-file-access-from-files).
function loadText(url) {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open("GET", url);
    request.onload = () => {
      if (request.status === 200 || (request.status === 0 && request.responseText)) {
        resolve(request.responseText);
      } else {
        reject(new Error("cannot load " + url + " (status " + request.status + ")"));
      }
    };
    request.onerror = () => reject(new Error("cannot load " + url));
    request.send();
  });
}

function parseContainer(text) {
  if (!text) return null;
  const parts = text.split(/[,x]/).map(Number);
  return parts.length === 2 && parts.every((n) => n > 0) ? parts : null;
}

function frameIndex(record, spec) {
  const count = record.frames.length;
  const n = Math.trunc(Number(spec));
  if (!Number.isFinite(n)) throw new Error("bad frame " + spec);
  const index = n < 0 ? count + n : n;
  if (index < 0 || index >= count) throw new Error("frame " + spec + " is not in 0.." + (count - 1));
  return index;
}

// ---------------------------------------------------------------------------------------
// Player: one session of a recording, or a live session as it streams.

class Player {
  constructor() {
    this.renderer = new FrameRenderer($("stage"), { imageBase: params.get("images") || "" });
    this.pictureURLs = [];
    this.inspector = new TimelineInspector($("inspector"), (id) => this.selectLayer(id));
    this.record = null;
    this.index = 0;
    this.playing = false;
    this.speed = 1;
    this.loop = false;
    this.playhead = 0;
    this.lastTick = null;
    this.follow = false;
    // Live mode: the event stream and its URL.
    this.source = null;
    this.liveURL = null;
    this.fallbackContainer = parseContainer(params.get("container"));
    this.bindControls();
  }

  bindControls() {
    $("play").onclick = () => this.setPlaying(!this.playing);
    $("step-back").onclick = () => { this.setPlaying(false); this.show(this.index - 1); };
    $("step").onclick = () => { this.setPlaying(false); this.show(this.index + 1); };
    $("scrubber").oninput = (event) => {
      this.setPlaying(false);
      this.show(Number(event.target.value));
    };
    $("speed").oninput = (event) => this.setSpeed(Number(event.target.value));
    $("loop").onchange = (event) => { this.loop = event.target.checked; };
    $("outline").onchange = (event) => this.setOutline(event.target.checked);
    $("width").onchange = $("height").onchange = () => this.containerChanged();
    $("sessions").onchange = (event) => this.select(event.target.value);
    $("stage").onclick = (event) => {
      const layer = event.target.closest(".layer");
      if (layer) this.selectLayer(layer.dataset.id);
    };
    $("open").onchange = (event) => {
      const file = event.target.files[0];
      if (file) this.openFile(file);
    };
    $("pictures").onchange = (event) => this.usePictures(Array.from(event.target.files));
    document.addEventListener("dragover", (event) => event.preventDefault());
    document.addEventListener("drop", (event) => {
      event.preventDefault();
      const file = event.dataTransfer.files[0];
      if (file) this.openFile(file);
    });
    document.addEventListener("keydown", (event) => {
      if (event.target.tagName === "INPUT" && event.target.type !== "range") return;
      if (event.key === " ") { event.preventDefault(); this.setPlaying(!this.playing); }
      if (event.key === "ArrowRight") { this.setPlaying(false); this.show(this.index + 1); }
      if (event.key === "ArrowLeft") { this.setPlaying(false); this.show(this.index - 1); }
    });
  }

  setOutline(on) {
    $("outline").checked = on;
    $("stage").classList.toggle("outlined", on);
  }

  setSpeed(speed) {
    this.speed = Math.min(2, Math.max(0.1, speed || 1));
    $("speed").value = String(this.speed);
    $("speed-value").textContent = this.speed.toFixed(1) + "×";
  }

  /// Selects a layer in the inspector (clicked on the stage or in its lane) and marks it.
  selectLayer(id) {
    this.inspector.select(id);
    this.chosen = true;
    this.markSelected();
  }

  /// Outlines on the stage the layer chosen in the inspector (not its default choice).
  markSelected() {
    const selected = this.chosen && this.inspector.model ? this.inspector.selected : null;
    for (const element of $("stage").querySelectorAll(".layer")) {
      element.classList.toggle("selected", element.dataset.id === selected);
    }
  }

  /// Draws content.image from the files of a folder the user picked (matched by file name).
  usePictures(files) {
    for (const url of this.pictureURLs) URL.revokeObjectURL(url);
    const byName = new Map();
    for (const file of files) byName.set(file.name, URL.createObjectURL(file));
    this.pictureURLs = Array.from(byName.values());
    this.renderer.setImages((name) => byName.get(name) || "");
    if (this.record) this.show(this.index);
  }

  openFile(file) {
    const reader = new FileReader();
    reader.onload = () => {
      try {
        this.load(Recording.parse(String(reader.result)), file.name);
        setStatus("ready");
      } catch (error) { setStatus("error", file.name + ": " + error.message); }
    };
    reader.readAsText(file);
  }

  /// Shows a recording: lists its sessions and selects `session` or the first.
  load(recording, name, session) {
    this.recording = recording;
    this.follow = false;
    this.fillSessions(recording);
    const id = session && recording.sessions.has(session) ? session : recording.sessions.keys().next().value;
    if (session && !recording.sessions.has(session)) throw new Error("no session " + session + " in " + name);
    $("title").textContent = name;
    this.select(id);
  }

  fillSessions(recording) {
    const list = $("sessions");
    list.textContent = "";
    for (const record of recording.sessions.values()) this.addSessionOption(record);
  }

  addSessionOption(record) {
    const option = document.createElement("option");
    option.value = record.id;
    option.textContent = describe(record);
    $("sessions").appendChild(option);
    return option;
  }

  select(id) {
    const record = this.recording.sessions.get(id);
    if (!record) return;
    this.record = record;
    $("sessions").value = id;
    this.renderer.clear();
    this.applyContainer();
    this.inspector.load(record);
    this.setPlaying(false);
    this.show(0);
  }

  applyContainer() {
    const [w, h] = this.record.container(this.fallbackContainer);
    $("width").value = w;
    $("height").value = h;
    $("width").disabled = $("height").disabled = !!(this.record.begin && this.record.begin.container);
    this.renderer.setContainer(w, h);
  }

  containerChanged() {
    const size = [Number($("width").value), Number($("height").value)];
    if (size.every((n) => n > 0)) {
      this.fallbackContainer = size;
      this.renderer.setContainer(size[0], size[1]);
    }
  }

  /// Draws frame `index` (clamped) of the selected session.
  show(index) {
    const frames = this.record ? this.record.frames : [];
    if (frames.length === 0) { $("readout").textContent = "no frames yet"; return; }
    this.index = Math.max(0, Math.min(frames.length - 1, index));
    const frame = this.record.frame(this.index);
    this.renderer.draw(frame);
    this.markSelected();
    this.inspector.setProgress(Number(frame.progress) || 0);
    this.playhead = frame.t - frames[0].t;
    $("scrubber").max = String(frames.length - 1);
    $("scrubber").value = String(this.index);
    const ending = this.index === frames.length - 1 ? completionText(this.record.complete) : "";
    $("readout").textContent = "frame " + this.index + "/" + (frames.length - 1) +
      " · t " + Number(frame.t).toFixed(3) + " s · progress " + Number(frame.progress).toFixed(3) + ending;
  }

  setPlaying(playing) {
    this.playing = playing;
    $("play").textContent = playing ? "Pause" : "Play";
    if (playing) {
      const frames = this.record ? this.record.frames : [];
      if (this.index >= frames.length - 1) this.show(0);
      this.lastTick = null;
      requestAnimationFrame((now) => this.tick(now));
    }
  }

  /// Advances the playhead by the wall time since the last tick times the speed, and shows the
  /// last frame at or before it (frames are timed by their `t`).
  tick(now) {
    if (!this.playing || !this.record) return;
    const frames = this.record.frames;
    if (this.lastTick !== null) this.playhead += ((now - this.lastTick) / 1000) * this.speed;
    this.lastTick = now;
    const start = frames[0].t;
    let index = this.index;
    while (index + 1 < frames.length && frames[index + 1].t - start <= this.playhead) index += 1;
    if (index !== this.index) {
      const playhead = this.playhead;
      this.show(index);
      this.playhead = playhead;
    }
    if (index >= frames.length - 1 && !this.follow) {
      if (this.loop) { this.show(0); this.lastTick = now; } else { this.setPlaying(false); return; }
    }
    requestAnimationFrame((next) => this.tick(next));
  }

  /// Live mode: follows every session of a daemon's Server-Sent Events stream, whose frames
  /// are full or delta frames (`encoding=` of `url`); deltas are rebuilt as they arrive
  /// (`Recording.receive`). A delta with no key frame before it is dropped with a note, and
  /// the page opens the stream again: a new subscription starts every session with a key frame
  /// (an event stream cannot ask `resync`).
  connect(url) {
    this.recording = new Recording();
    this.follow = true;
    this.liveURL = url;
    this.droppedDeltas = 0;
    this.liveNote = "";
    this.liveEncoding = null;
    $("sessions").textContent = "";
    $("title").textContent = "live";
    this.openStream("connecting to the daemon…");
  }

  /// Opens (or opens again) the live event stream.
  openStream(status) {
    if (this.source) this.source.close();
    const source = new EventSource(this.liveURL);
    this.source = source;
    this.setLive(status);
    source.onopen = () => {
      // Deltas lost while the stream was down: each session waits for its key frame.
      this.recording.awaitKeyFrames();
      this.setLive("live: " + (this.record ? this.record.id : "waiting for sessions"));
    };
    source.onerror = () => { this.setLive("live: disconnected, retrying…"); };
    source.onmessage = (message) => this.received(message.data);
  }

  /// Shows the live state, and the note about dropped deltas when there is one; `data-encoding`
  /// is the stream's encoding as its `begin` events say, `data-dropped` the deltas dropped.
  setLive(text) {
    $("live").textContent = text + (this.liveNote ? " · " + this.liveNote : "");
    $("live").dataset.dropped = String(this.droppedDeltas);
    if (this.liveEncoding) $("live").dataset.encoding = this.liveEncoding;
  }

  /// One event of the live stream.
  received(data) {
    let event;
    try { event = JSON.parse(data); } catch (error) { return; }
    const isNew = event && typeof event.session === "string" && !this.recording.sessions.has(event.session);
    const { record, dropped } = this.recording.receive(event);
    if (!record) return;
    if (event.event === "begin" && typeof event.encoding === "string") {
      this.liveEncoding = event.encoding;
      $("live").dataset.encoding = event.encoding;
    }
    if (isNew) {
      this.addSessionOption(record);
      this.select(record.id);
      this.setLive("live: " + record.id);
    } else if (event.event === "begin" && record === this.record) {
      this.applyContainer();
      this.inspector.load(record);
    }
    for (const option of $("sessions").options) {
      if (option.value === record.id) option.textContent = describe(record);
    }
    if (dropped) {
      this.droppedDeltas += 1;
      this.liveNote = "dropped " + this.droppedDeltas + " delta frame" +
        (this.droppedDeltas === 1 ? "" : "s") + " that had no key frame before it (last: " +
        record.id + " seq " + event.seq + "), reconnected for key frames";
      // The old stream's later events are not read; the new one starts with key frames.
      this.openStream("live: reconnecting for key frames");
      return;
    }
    if (record !== this.record) return;
    if (event.event === "frame" && this.pacer) {
      // Drawn at the animation frame of its vblank (display-pacer.js).
      this.pacer.enqueue(record, record.frames.length - 1);
    } else if (event.event === "frame" || (event.event === "complete" && !(this.pacer && this.pacer.queue.length))) {
      this.show(record.frames.length - 1);
    }
  }
}

function describe(record) {
  const begin = record.begin;
  const what = begin ? " · " + begin.animator + " " + begin.operation : "";
  return record.id + what + " · " + record.frames.length + " frames" +
    completionText(record.complete);
}

// How a session ended, from its `complete` event: finished, cancelled, or handed over to the
// session that interrupted it (its last frame is the handover instant); "" while it runs.
function completionText(complete) {
  if (!complete) return "";
  if (complete.interruptedBy) return " · interrupted by " + complete.interruptedBy;
  return complete.finished ? " · finished" : " · cancelled";
}

// ---------------------------------------------------------------------------------------
// Headless views: contact sheets and measurements.

/// Draws views side by side (see `sheet=` above).
function drawSheet(recording, record, context, specs, container) {
  document.body.classList.add("sheet");
  const sheet = $("sheet");
  const [w, h] = container;
  const captions = params.get("captions") !== "0";
  specs.forEach((spec, i) => {
    const panel = document.createElement("div");
    panel.className = "panel";
    panel.style.left = SHEET_MARGIN + i * (w + SHEET_MARGIN) + "px";
    panel.style.top = SHEET_MARGIN + "px";
    const stage = document.createElement("div");
    stage.className = "stage";
    panel.appendChild(stage);
    const renderer = new FrameRenderer(stage, { imageBase: params.get("images") || "" });
    renderer.setContainer(w, h);
    const { frame, caption } = sheetView(recording, record, context, spec);
    renderer.draw(frame);
    if (captions) {
      const label = document.createElement("div");
      label.className = "caption";
      label.style.width = w + "px";
      label.textContent = caption;
      panel.appendChild(label);
    }
    sheet.appendChild(panel);
  });
  const width = SHEET_MARGIN + specs.length * (w + SHEET_MARGIN);
  const height = SHEET_MARGIN * 2 + h + (captions ? CAPTION_HEIGHT : 0);
  sheet.style.width = width + "px";
  sheet.style.height = height + "px";
  sheet.dataset.size = width + "," + height;
}

/// The frame and caption of one sheet view: `from`, `to`, `f:N[@SESSION]` or `p:P[@SESSION]`.
function sheetView(recording, record, context, spec) {
  if (spec === "from" || spec === "to") {
    if (!context) throw new Error("the view " + spec + " needs scene=");
    return { frame: screenFrame(context, spec), caption: spec + " screen alone" };
  }
  const match = /^([fp]):([^@]+)(?:@(.+))?$/.exec(spec);
  if (!match) throw new Error("unknown view " + spec + " (f:N, p:P, from or to)");
  if (!recording) throw new Error("the view " + spec + " needs recording=");
  const source = match[3] ? recording.sessions.get(match[3]) : record;
  if (!source) throw new Error("no session " + match[3] + " in the recording");
  const index = match[1] === "f" ? frameIndex(source, match[2]) : source.frameNearest(Number(match[2]));
  const frame = source.frame(index);
  return { frame, caption: "progress " + Number(frame.progress).toFixed(2) };
}

/// Draws every frame of `record` in turn and writes what the browser drew.
function measureAll(record, container) {
  document.body.classList.add("measuring");
  const stage = $("stage");
  const renderer = new FrameRenderer(stage, { probes: true });
  renderer.setContainer(container[0], container[1]);
  const frames = record.frames.map((_, index) => {
    const frame = record.frame(index);
    renderer.draw(frame);
    return { seq: frame.seq, t: frame.t, progress: frame.progress, layers: renderer.measure() };
  });
  $("measurements").textContent = JSON.stringify({
    session: record.id, container, complete: record.complete, frames });
}

/// Resolves once two animation frames have passed.
function twoAnimationFrames() {
  return new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
}

/// The render view: the stage alone, and `window.viewerRender` to draw a frame and wait until it
/// has been painted.
///
/// Each frame is drawn from an empty stage: the layers of the frame before are removed and
/// two animation frames pass (so that the compositor drops their layers) before the frame's own
/// elements are made. With `will-change: transform` on every layer (viewer.css), how Chromium
/// rasters a layer then depends on that frame alone, never on the frames drawn before it or on
/// when its raster threads got to run: without both, a busy machine gave the same frame with
/// some layer edges half a pixel apart, one render in about ten.
function setUpRender(record, container) {
  document.body.classList.add("rendering");
  const stage = $("stage");
  const renderer = new FrameRenderer(stage, {
    imageBase: params.get("images") || "", content: params.get("content") !== "0" });
  renderer.setContainer(container[0], container[1]);
  window.viewerRender = {
    frames: record.frames.length,
    async show(index) {
      renderer.clear();
      await twoAnimationFrames();
      renderer.draw(record.frame(frameIndex(record, index)));
      await document.fonts.ready;
      await renderer.picturesReady();
      await twoAnimationFrames();
      return index;
    },
  };
}

// ---------------------------------------------------------------------------------------

async function main() {
  const player = new Player();
  player.setSpeed(Number(params.get("speed")) || 1);
  player.loop = params.get("loop") === "1";
  $("loop").checked = player.loop;
  player.setOutline(params.get("outline") === "1");

  const recordingURL = params.get("recording");
  const sceneURL = params.get("scene");
  const recording = recordingURL ? Recording.parse(await loadText(recordingURL)) : null;
  const context = sceneURL ? JSON.parse(await loadText(sceneURL)) : null;
  let record = null;
  if (recording) {
    const session = params.get("session");
    record = session ? recording.sessions.get(session) : recording.sessions.values().next().value;
    if (!record) throw new Error("no session " + session + " in " + recordingURL);
  }
  const container = record
    ? record.container(parseContainer(params.get("container")) || (context && context.container))
    : parseContainer(params.get("container")) || (context && context.container) || [390, 844];

  const background = params.get("background");
  if (background && /^#[0-9a-fA-F]{6}$/.test(background)) {
    document.documentElement.style.setProperty("--stage-background", background);
  }

  if (params.get("render") === "1") {
    if (!record) throw new Error("render=1 needs recording=");
    setUpRender(record, container);
  } else if (params.has("sheet")) {
    drawSheet(recording, record, context, params.get("sheet").split(",").filter(Boolean), container);
  } else if (params.get("measure") === "inspector") {
    // The inspector's lanes and plot for tests: select=ID picks the layer.
    player.fallbackContainer = container;
    player.load(recording, recordingURL, record.id);
    if (params.has("select")) player.selectLayer(params.get("select"));
    if (params.has("property")) player.inspector.selectProperty(params.get("property"));
    $("measurements").textContent = JSON.stringify(player.inspector.report());
  } else if (params.get("measure") === "all") {
    if (!record) throw new Error("measure=all needs recording=");
    measureAll(record, container);
  } else if (recording) {
    player.fallbackContainer = container;
    player.load(recording, recordingURL, record.id);
    if (params.has("select")) player.selectLayer(params.get("select"));
    if (params.has("frame")) player.show(frameIndex(record, params.get("frame")));
    else if (params.has("progress")) player.show(record.frameNearest(Number(params.get("progress"))));
  } else if (location.protocol === "http:" || location.protocol === "https:") {
    const query = new URLSearchParams({
      session: "*", fps: params.get("fps") || "60", timeline: "1",
      encoding: params.get("encoding") === "full" ? "full" : "delta",
    });
    const tokenQuery = params.has("token") ? "?token=" + encodeURIComponent(params.get("token")) : "";
    if (params.has("token")) query.set("token", params.get("token"));
    // Without fps=, frames are paced by this page's display: evaluated for the instants
    // requestAnimationFrame shows them and drawn then (docs/renderers.md, "The two clocks").
    if (!params.has("fps")) {
      const stream = params.get("stream") || randomStreamName();
      const pacer = new DisplayPacer({
        tokenQuery, stream, draw: (record, index) => { if (record === player.record) player.show(index); },
        measure: params.get("measure") === "pacing" ? $("measurements") : null });
      if (await pacer.start()) {
        for (const [name, value] of Object.entries(pacer.timing())) query.set(name, value);
        query.set("stream", stream);
        player.pacer = pacer;
        window.viewerPacing = pacer;
      }
    }
    player.fallbackContainer = container;
    // The daemon serves its http.images directory at images/NAME, behind the same token.
    if (!params.has("images")) {
      const token = params.has("token") ? "?token=" + encodeURIComponent(params.get("token")) : "";
      player.renderer.setImages((name) => "images/" + encodeURIComponent(name) + token);
    }
    player.connect("events?" + query.toString());
  } else {
    $("readout").textContent = "open or drop a recording (transitionctl play SCENE --out FILE)";
  }
  setStatus("ready");
}

/// A name for this page's event stream: 16 random hex digits.
function randomStreamName() {
  return Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, "0")).join("");
}

// The page's scripts are inserted by index.html and may run before the body is parsed.
let announceReady;
window.viewerReady = new Promise((resolve) => { announceReady = resolve; });
function start() {
  main().catch((error) => setStatus("error", error.message)).then(() => announceReady());
}
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
else start();
