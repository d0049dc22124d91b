// Draws a session's Scene on a canvas and plays what changes; no hashing and no rules here.
// Positions and owners come from the engine as typed arrays of fractions (0 = top, clockwise)
// and node indices; colours as each node's slot in the engine's palette.
// The still picture is drawn once into an offscreen layer; animation frames copy it and draw
// only what moves on top, so a frame stays cheap with 100,000 keys.
// The view owns its animation clock: `play(transition)` animates a change (the moved arcs,
// the keys changing owner), `follow(walk)` a key's walk to its owner; `pause`, `step` and
// `speed` drive both, and reduced motion shows the end at once. Every host (the playground,
// the <hash-ring> element, the tour) drives it the same way.
import { fitCanvas, canvasFits, reducedMotion } from "./host.js";

const TAU = Math.PI * 2;
// The engine's owner index for a key with no owner while nodes are down.
const NO_OWNER = 0xffffffff;
const angle = (fraction) => fraction * TAU - Math.PI / 2; // 0 at the top, clockwise
// The most one frame moves an animation on: 100 ms of its length (see `tick`).
const MAX_FRAME_MS = 100;
// The keys a change moved stay marked this long after it, then fade back into the ring over
// FADE_MS (at once with reduced motion), so the ring reads again: after vnodes 32 → 150 most
// keys move, and marked they are all one could see.
const HOLD_MS = 2500;
const FADE_MS = 800;
// Above this many keys, dots would overlap: draw a density band instead.
const DOT_LIMIT = 5000;
const LANES = 7;
// Up to this many points, each is drawn as a dot on the band (its node's colour, ringed in
// the text colour): few points are the lesson ("hash the nodes onto the circle"), many
// would hide the arcs.
const POINT_MARK_LIMIT = 32;

// Past the palette's colours, a node's colour repeats: a second encoding tells them apart,
// a pattern on its arcs (and swatches) and a shape for its keys. Pattern 0 is plain.
const PATTERNS = 4;

const LABEL_FONT = "12px system-ui, sans-serif";
// Between the band's outer edge and the side labels: the moved-arc marks and a followed
// key's walk (at +5 and +12) run in it.
const LABEL_GAP = 18;
// Side labels read outward take their width from the ring on each side: past this share of
// the canvas's side, they are turned to run along the ring instead (a narrow figure, four
// rings abreast, a phone), taking a line's height.
const SIDE_LABEL_SHARE = 0.16;
const LABEL_LINE = 14;

export class RingView {
  // palette: the engine's node colours (`palette()`), indexed by colour slot. onFrame(ms), if
  // given, hears how long each frame took to draw.
  constructor(canvas, palette, { onFrame } = {}) {
    this.canvas = canvas;
    this.palette = palette;
    this.base = document.createElement("canvas");
    this.data = null;
    this.onFrame = onFrame;
    this.change = null; // the change playing: {moved, movers, t, duration}
    this.walk = null; // the key followed: {fraction, stops, t, duration}
    this.hover = undefined; // the arc under the pointer
    this.highlight = null; // an explained step's place: {fraction}
    this.apart = null; // where two clients send keys apart: [{startFraction, endFraction}]
    this.paused = false;
    this.speed = 1;
    this.last = 0;
    this.raf = 0;
  }

  // ---- The animation clock

  // Plays a change: a Transition's moved arcs and the keys that change owner.
  play(transition, { duration = 900 } = {}) {
    this.change = { moved: transition?.exact?.arcs ?? [], movers: transition?.movers, t: 0, duration, after: 0 };
    this.start(this.change);
  }

  // Plays a key's walk: its hash drops onto the ring, then walks clockwise to each stop.
  follow(walk, { duration = 1400 } = {}) {
    this.walk = walk ? { fraction: walk.fraction, stops: walk.walk ?? walk.stops, skipped: walk.skipped ?? [], t: 0, duration } : null;
    if (this.walk) this.start(this.walk);
    else this.draw();
  }

  // Stops showing the change and the walk (a new state that neither belongs to).
  clear() {
    this.change = this.walk = null;
    this.hover = undefined;
    if (this.data) this.draw();
  }

  // Whether a change or a walk is still moving.
  get playing() {
    return [this.change, this.walk].some((a) => a && a.t < 1);
  }

  // How strongly the last change's moved keys are marked: 1 while it plays and for HOLD_MS
  // after, then down to 0.
  get moversAlpha() {
    const c = this.change;
    if (!c || c.t < 1) return 1;
    return Math.max(0, Math.min(1, 1 - (c.after - HOLD_MS) / (reducedMotion() ? 1 : FADE_MS)));
  }

  pause(on = true) {
    this.paused = on;
    this.last = performance.now();
    if (!on) this.tick();
  }

  // Moves what plays on by `dt` of its length, paused.
  step(dt = 0.1) {
    this.paused = true;
    for (const a of [this.change, this.walk]) if (a && a.t < 1) a.t = Math.min(1, a.t + dt);
    this.draw();
  }

  setHover(arc) {
    this.hover = arc ?? undefined;
    if (this.data) this.draw();
  }

  // Marks places on the circle ("Explain a key" steps' `at.fraction`): `[{fraction, second}]`,
  // the second chain's (another algorithm's, in its own key space) drawn open and dashed.
  setHighlight(marks) {
    const kept = (marks ?? []).filter((m) => Number.isFinite(m?.fraction));
    this.highlight = kept.length ? kept : null;
    if (this.data) this.draw();
  }

  // Marks the arcs two clients send to different servers ("Do two clients agree?"), or
  // none: a dashed ring inside the band, so it reads apart from a change's moved arcs.
  setApart(spans) {
    this.apart = spans?.length ? spans : null;
    if (this.data) this.draw();
  }

  start(animation) {
    animation.t = reducedMotion() ? 1 : 0;
    this.last = performance.now();
    cancelAnimationFrame(this.raf);
    this.raf = requestAnimationFrame(() => this.tick());
  }

  tick() {
    const now = performance.now();
    // A long gap between frames (a busy main thread, a slow phone) moves on by one frame's
    // worth at most, so a change is seen moving rather than jumping to its end.
    const dt = Math.min(now - this.last, MAX_FRAME_MS);
    const alpha = this.moversAlpha;
    const moving = this.playing;
    for (const a of [this.change, this.walk]) {
      if (!a || a.t >= 1 || this.paused) continue;
      a.t = Math.min(1, a.t + (dt / a.duration) * this.speed);
    }
    const c = this.change;
    if (c && !moving && !this.paused) c.after += dt * this.speed;
    this.last = now;
    // Held, nothing changes: no redraw until the fade.
    if (this.data && (moving || this.moversAlpha !== alpha)) this.draw();
    if ((this.playing || (c && this.moversAlpha > 0)) && !this.paused) this.raf = requestAnimationFrame(() => this.tick());
  }

  geometry() {
    const css = this.canvas.getBoundingClientRect();
    const width = css.width, height = css.height;
    // Room beyond the band's outer edge for the moved-arc marks and the top and bottom labels,
    // or for the wider side label ("slot 12288"), which reads outward from the band, or
    // turned along the ring where that would take too much of a narrow canvas.
    const across = LABEL_GAP + this.sideLabelWidth() + 6;
    const turned = across > Math.min(width, height) * SIDE_LABEL_SHARE;
    const outside = Math.max(34, turned ? LABEL_GAP + LABEL_LINE + 4 : across);
    // The band is 8% of the radius wide (10 px at least): its outer edge is at 1.04 r.
    const half = Math.min(width, height) / 2 - outside;
    const r = Math.max(20, Math.min(half / 1.04, half - 5));
    const band = Math.max(10, r * 0.08);
    return { width, height, cx: width / 2, cy: height / 2, r, band, inner: Math.max(4, r - band / 2 - 8), turned };
  }

  // The wider of the left and right axis labels, in CSS pixels (measured once per text).
  sideLabelWidth() {
    const axis = this.data?.axis ?? [];
    const key = `${axis[1]}|${axis[3]}`;
    if (this.measured?.key !== key) {
      const ctx = this.base.getContext("2d");
      ctx.font = LABEL_FONT;
      const width = Math.max(0, ...[axis[1], axis[3]].filter(Boolean).map((t) => ctx.measureText(t).width));
      this.measured = { key, width };
    }
    return this.measured.width;
  }

  // Sizes a canvas's backing store to the ring's box × devicePixelRatio, so lines stay crisp.
  fit(canvas, g) {
    const { dpr } = fitCanvas(canvas, g);
    const ctx = canvas.getContext("2d");
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    return ctx;
  }

  // Whether the canvas already has its box's size (a resize that changes nothing).
  fits() {
    return canvasFits(this.canvas, this.geometry());
  }

  // The colour of colour slot `slot`; NO_OWNER (an unavailable key) is drawn muted.
  slotColour(slot) {
    return slot === NO_OWNER ? this.data?.theme?.muted ?? "#888888" : this.palette[slot % this.palette.length];
  }

  // The pattern of colour slot `slot` (0: plain; 1 stripes, 2 a centre line, 3 dots).
  slotPattern(slot) {
    return slot === NO_OWNER ? 0 : Math.floor(slot / this.palette.length) % PATTERNS;
  }

  // The pattern of node `index` in the current scene.
  nodePattern(index) {
    return index === NO_OWNER ? 0 : this.slotPattern(this.data.colours[index] ?? index);
  }

  // The colour of node `index` in the current scene.
  nodeColour(index) {
    return index === NO_OWNER ? this.slotColour(NO_OWNER) : this.slotColour(this.data.colours[index] ?? index);
  }

  // data = a session's scene ({points, pointOwners, keys, keyOwners, colours, axis}) plus
  // {theme, selected}: the still picture, drawn at once with what is playing on top.
  setData(data) {
    this.data = data;
    this.renderBase();
    this.draw();
  }

  renderBase() {
    const g = this.geometry();
    this.fit(this.canvas, g);
    const ctx = this.fit(this.base, g);
    const { points, pointOwners: owners, keys, keyOwners, theme, selected } = this.data;
    ctx.clearRect(0, 0, g.width, g.height);
    const n = points.length;

    // Arcs, one path per owner: point i owns (point i-1, point i]; point 0 also the wrap-around.
    ctx.lineWidth = g.band;
    const paths = new Map();
    for (const [owner, from, to] of this.segments(points, owners, g)) {
      let path = paths.get(owner);
      if (!path) paths.set(owner, (path = new Path2D()));
      path.moveTo(g.cx + Math.cos(angle(from)) * g.r, g.cy + Math.sin(angle(from)) * g.r);
      path.arc(g.cx, g.cy, g.r, angle(from), angle(to));
    }
    for (const [owner, path] of paths) {
      ctx.strokeStyle = this.nodeColour(owner);
      ctx.globalAlpha = selected === undefined || selected === owner ? 1 : 0.35;
      ctx.lineWidth = g.band;
      ctx.stroke(path);
      // The second encoding, drawn in the background colour over the arc.
      const pattern = this.nodePattern(owner);
      if (pattern) {
        ctx.strokeStyle = theme.bg;
        ctx.lineWidth = pattern === 2 ? g.band * 0.3 : g.band * 0.6;
        ctx.setLineDash(pattern === 1 ? [3, 3] : pattern === 3 ? [1.5, 5] : []);
        ctx.stroke(path);
        ctx.setLineDash([]);
      }
    }
    ctx.globalAlpha = 1;

    // Ticks, one per point, while they can still be told apart.
    if (n && n <= 4000) {
      ctx.strokeStyle = theme.bg;
      ctx.lineWidth = n > 1000 ? 0.5 : 1;
      ctx.beginPath();
      for (let i = 0; i < n; i++) {
        const a = angle(points[i]);
        ctx.moveTo(g.cx + Math.cos(a) * (g.r - g.band / 2), g.cy + Math.sin(a) * (g.r - g.band / 2));
        ctx.lineTo(g.cx + Math.cos(a) * (g.r + g.band / 2), g.cy + Math.sin(a) * (g.r + g.band / 2));
      }
      ctx.stroke();
    }

    if (n && n <= POINT_MARK_LIMIT) {
      const d = Math.max(4, g.band * 0.6);
      ctx.lineWidth = 2;
      ctx.strokeStyle = theme.fg;
      for (let i = 0; i < n; i++) {
        const a = angle(points[i]);
        ctx.fillStyle = this.nodeColour(owners[i]);
        ctx.beginPath();
        ctx.arc(g.cx + Math.cos(a) * g.r, g.cy + Math.sin(a) * g.r, d, 0, TAU);
        ctx.fill();
        ctx.stroke();
      }
    }

    if (keys.length <= DOT_LIMIT) this.drawDots(ctx, g, keys, keyOwners);
    else this.drawDensity(ctx, g, keys, keyOwners);

    ctx.fillStyle = theme.muted;
    ctx.font = LABEL_FONT;
    ctx.textBaseline = "middle";
    // Top and bottom centred on the axis; right and left reading away from the band.
    const out = g.r + g.band / 2 + LABEL_GAP;
    const [top, right, bottom, left] = this.data.axis;
    ctx.textAlign = "center";
    ctx.fillText(top, g.cx, g.cy - g.r - g.band / 2 - 24);
    ctx.fillText(bottom, g.cx, g.cy + g.r + g.band / 2 + 24);
    if (g.turned) {
      // Along the ring: the right one read downwards, the left one upwards, both centred.
      const side = g.r + g.band / 2 + LABEL_GAP + LABEL_LINE / 2;
      ctx.textAlign = "center";
      for (const [text, x, turn] of [[right, g.cx + side, Math.PI / 2], [left, g.cx - side, -Math.PI / 2]]) {
        ctx.save();
        ctx.translate(x, g.cy);
        ctx.rotate(turn);
        ctx.fillText(text, 0, 0);
        ctx.restore();
      }
    } else {
      ctx.textAlign = "left";
      ctx.fillText(right, g.cx + out, g.cy);
      ctx.textAlign = "right";
      ctx.fillText(left, g.cx - out, g.cy);
    }
  }

  // The arcs to draw as [owner, from, to]. When there are more points than device pixels
  // around the circle, arcs narrower than a pixel cannot be seen: sample the owner once per
  // pixel instead, so drawing costs the same for 1,000 points or 1,000,000.
  *segments(points, owners, g) {
    const n = points.length;
    const pixels = Math.ceil(TAU * g.r * (window.devicePixelRatio || 1));
    if (n <= pixels) {
      for (let i = 0; i < n; i++) {
        const from = i === 0 ? points[n - 1] - 1 : points[i - 1];
        if (points[i] > from) yield [owners[i], from, points[i]];
      }
      return;
    }
    let i = 0, runOwner = -1, runStart = 0;
    for (let b = 0; b < pixels; b++) {
      const f = (b + 0.5) / pixels;
      while (i < n && points[i] < f) i++;
      const owner = owners[i === n ? 0 : i];
      if (owner !== runOwner) {
        if (runOwner >= 0) yield [runOwner, runStart, b / pixels];
        runOwner = owner;
        runStart = b / pixels;
      }
    }
    yield [runOwner, runStart, 1];
  }

  dotAt(g, k, fraction) {
    const rr = Math.max(2, g.inner - (k % LANES) * 5);
    const a = angle(fraction);
    return [g.cx + Math.cos(a) * rr, g.cy + Math.sin(a) * rr];
  }

  drawDots(ctx, g, keys, keyOwners) {
    for (let k = 0; k < keys.length; k++) {
      const [x, y] = this.dotAt(g, k, keys[k]);
      ctx.fillStyle = this.nodeColour(keyOwners[k]);
      this.mark(ctx, x, y, 2, this.nodePattern(keyOwners[k]));
    }
  }

  // A key's mark: a square, or past the palette a circle, a diamond or a triangle.
  mark(ctx, x, y, d, shape) {
    if (!shape) return ctx.fillRect(x - d, y - d, d * 2, d * 2);
    ctx.beginPath();
    if (shape === 1) ctx.arc(x, y, d * 1.15, 0, TAU);
    else if (shape === 2) {
      ctx.moveTo(x, y - d * 1.4);
      ctx.lineTo(x + d * 1.4, y);
      ctx.lineTo(x, y + d * 1.4);
      ctx.lineTo(x - d * 1.4, y);
    } else {
      ctx.moveTo(x, y - d * 1.4);
      ctx.lineTo(x + d * 1.3, y + d);
      ctx.lineTo(x - d * 1.3, y + d);
    }
    ctx.fill();
  }

  // Keys binned by angle; each bin a radial bar in its majority owner's colour, its length
  // the bin's count.
  drawDensity(ctx, g, keys, keyOwners) {
    const bins = Math.max(180, Math.min(1440, Math.round(TAU * g.inner)));
    const counts = new Uint32Array(bins), owner = new Uint32Array(bins);
    for (let k = 0; k < keys.length; k++) {
      const b = Math.min(bins - 1, Math.floor(keys[k] * bins));
      counts[b]++;
      owner[b] = keyOwners[k];
    }
    let max = 1;
    for (const c of counts) max = Math.max(max, c);
    const depth = LANES * 5;
    ctx.lineWidth = Math.max(1, (TAU * g.inner) / bins);
    for (let b = 0; b < bins; b++) {
      if (!counts[b]) continue;
      const a = angle((b + 0.5) / bins), len = 3 + (depth * counts[b]) / max;
      ctx.strokeStyle = this.nodeColour(owner[b]);
      ctx.beginPath();
      ctx.moveTo(g.cx + Math.cos(a) * g.inner, g.cy + Math.sin(a) * g.inner);
      ctx.lineTo(g.cx + Math.cos(a) * (g.inner - len), g.cy + Math.sin(a) * (g.inner - len));
      ctx.stroke();
    }
  }

  // One frame: the still layer, then what plays on top of it.
  draw() {
    const start = performance.now();
    const c = this.change, w = this.walk;
    const alpha = this.moversAlpha;
    this.drawFrame({ moved: c?.moved, movers: alpha > 0 ? c?.movers : undefined, moversAlpha: alpha, t: c?.t ?? 1, walk: w ?? undefined, walkT: w?.t, hover: this.hover, highlight: this.highlight, apart: this.apart });
    this.onFrame?.(performance.now() - start);
  }

  // overlay = {moved: [{startFraction, endFraction}], movers: {index, position, from, to}
  // (colour slots), moversAlpha (their fade after the change), t, walk: {fraction, stops:
  // [{fraction, colour}]}, hover, apart: [{startFraction, endFraction}] (two clients' split)}
  drawFrame(overlay = {}) {
    const g = this.geometry();
    const ctx = this.canvas.getContext("2d");
    const dpr = window.devicePixelRatio || 1;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, this.canvas.width, this.canvas.height);
    ctx.drawImage(this.base, 0, 0);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    const theme = this.data.theme;

    if (overlay.moved?.length) {
      ctx.strokeStyle = theme.moved;
      ctx.lineWidth = 5;
      for (const arc of overlay.moved) {
        ctx.beginPath();
        ctx.arc(g.cx, g.cy, g.r + g.band / 2 + 5, angle(arc.startFraction), angle(Math.max(arc.endFraction, arc.startFraction + 0.0008)));
        ctx.stroke();
      }
    }

    if (overlay.apart?.length) {
      ctx.strokeStyle = theme.fg;
      ctx.lineWidth = 4;
      ctx.setLineDash([4, 3]);
      for (const arc of overlay.apart) {
        ctx.beginPath();
        ctx.arc(g.cx, g.cy, g.r - g.band / 2 - 5, angle(arc.startFraction), angle(Math.max(arc.endFraction, arc.startFraction + 0.0008)));
        ctx.stroke();
      }
      ctx.setLineDash([]);
    }

    // Keys that change owner: drawn larger and outlined, in the old owner's colour for the
    // first half and the new owner's after, never a blend (which would look like a third node).
    const movers = overlay.movers;
    if (movers) {
      ctx.globalAlpha = overlay.moversAlpha ?? 1;
      const t = overlay.t ?? 1;
      const d = 3 + 2 * Math.sin(Math.PI * t);
      for (let m = 0; m < movers.index.length; m++) {
        const [x, y] = this.dotAt(g, movers.index[m], movers.position[m]);
        const slot = t < 0.5 ? movers.from[m] : movers.to[m];
        ctx.fillStyle = theme.moved;
        ctx.fillRect(x - d - 1.5, y - d - 1.5, 2 * d + 3, 2 * d + 3);
        ctx.fillStyle = theme.bg;
        ctx.fillRect(x - d - 0.5, y - d - 0.5, 2 * d + 1, 2 * d + 1);
        ctx.fillStyle = this.slotColour(slot);
        this.mark(ctx, x, y, d - 0.5, this.slotPattern(slot));
      }
      ctx.globalAlpha = 1;
    }

    if (overlay.hover) {
      const { startFraction: start, endFraction: end } = overlay.hover;
      ctx.strokeStyle = theme.fg;
      ctx.lineWidth = 2;
      ctx.beginPath();
      ctx.arc(g.cx, g.cy, g.r - g.band / 2 - 2, angle(start), angle(Math.max(end, start + 0.001)));
      ctx.stroke();
    }

    if (overlay.walk) this.drawWalk(ctx, g, overlay.walk, overlay.walkT ?? 1, theme);
    for (const mark of overlay.highlight ?? []) {
      // A spoke across the band to an open ring outside it: visible over any node's colour.
      // The second chain's is dashed and ends in a square, so the two read apart in any theme.
      const a = angle(mark.fraction);
      const [c, sn] = [Math.cos(a), Math.sin(a)];
      const out = g.r + g.band / 2 + 12;
      ctx.strokeStyle = theme.fg;
      ctx.lineWidth = 3;
      ctx.setLineDash(mark.second ? [5, 3] : []);
      ctx.beginPath();
      ctx.moveTo(g.cx + c * (g.inner - 4), g.cy + sn * (g.inner - 4));
      ctx.lineTo(g.cx + c * (out - 7), g.cy + sn * (out - 7));
      ctx.stroke();
      ctx.setLineDash([]);
      ctx.beginPath();
      if (mark.second) ctx.rect(g.cx + c * out - 6, g.cy + sn * out - 6, 12, 12);
      else ctx.arc(g.cx + c * out, g.cy + sn * out, 7, 0, TAU);
      ctx.stroke();
    }
  }

  // Where a walk's numbered badges go, as fractions of the circle (past 1 when they wrap):
  // each stop's own place, or clockwise past the badge before it when the stops are closer
  // than a badge is wide at radius `R` (replicas are often neighbouring points).
  badgePlaces(walk, R = this.geometry().r + this.geometry().band / 2 + 12) {
    const gap = 21 / (R * TAU);
    let last = -Infinity;
    return walk.stops.map((stop) => {
      let ahead = stop.fraction - walk.fraction;
      if (ahead < 0) ahead += 1;
      last = Math.max(ahead, last + gap);
      return walk.fraction + last;
    });
  }

  // Follow a key: the hash drops onto the ring, then walks clockwise to each stop; the
  // nodes it passes over (a zone it already has) are crossed out where it passed them.
  drawWalk(ctx, g, walk, t, theme) {
    const drop = Math.min(1, t / 0.25);
    const a0 = angle(walk.fraction);
    const rDrop = g.r * drop;
    ctx.fillStyle = theme.fg;
    ctx.strokeStyle = theme.fg;
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.moveTo(g.cx, g.cy);
    ctx.lineTo(g.cx + Math.cos(a0) * rDrop, g.cy + Math.sin(a0) * rDrop);
    ctx.stroke();
    ctx.beginPath();
    ctx.arc(g.cx + Math.cos(a0) * rDrop, g.cy + Math.sin(a0) * rDrop, 5, 0, TAU);
    ctx.fill();
    if (t <= 0.25 || !walk.stops.length) return;
    // The walk: from the key clockwise through each stop, in equal time per stop.
    const span = (t - 0.25) / 0.75;
    const R = g.r + g.band / 2 + 12;
    const badges = this.badgePlaces(walk, R);
    let from = walk.fraction;
    walk.stops.forEach((stop, i) => {
      const share = 1 / walk.stops.length;
      const local = Math.max(0, Math.min(1, (span - i * share) / share));
      if (local <= 0) return;
      let to = stop.fraction;
      if (to < from) to += 1;
      const here = from + (to - from) * local;
      ctx.strokeStyle = theme.fg;
      ctx.lineWidth = 3;
      ctx.beginPath();
      ctx.arc(g.cx, g.cy, g.r + g.band / 2 + 12, angle(from), angle(Math.max(here, from + 1e-4)));
      ctx.stroke();
      if (local >= 1) {
        const at = angle(stop.fraction), a = angle(badges[i]);
        const x = g.cx + Math.cos(a) * R, y = g.cy + Math.sin(a) * R;
        if (badges[i] - stop.fraction > 1e-9 && (badges[i] - stop.fraction) % 1 > 1e-9) {
          // Moved along: a leader from the stop on the band's edge to its badge.
          ctx.strokeStyle = theme.fg;
          ctx.lineWidth = 1;
          ctx.beginPath();
          ctx.moveTo(g.cx + Math.cos(at) * (g.r + g.band / 2), g.cy + Math.sin(at) * (g.r + g.band / 2));
          ctx.lineTo(x, y);
          ctx.stroke();
        }
        ctx.fillStyle = this.slotColour(stop.colour);
        ctx.beginPath();
        ctx.arc(x, y, 9, 0, TAU);
        ctx.fill();
        ctx.strokeStyle = theme.fg;
        ctx.lineWidth = 1.5;
        ctx.stroke();
        ctx.fillStyle = theme.fg;
        ctx.font = "bold 11px system-ui, sans-serif";
        ctx.textAlign = "center";
        ctx.textBaseline = "middle";
        ctx.fillText(String(i + 1), x, y);
      }
      from = stop.fraction;
    });
    if (t < 1) return;
    // On the band, at the point passed over: clear of the badges outside it.
    for (const stop of walk.skipped ?? []) {
      const a = angle(stop.fraction);
      const x = g.cx + Math.cos(a) * g.r, y = g.cy + Math.sin(a) * g.r;
      ctx.fillStyle = theme.bg;
      ctx.strokeStyle = this.slotColour(stop.colour);
      ctx.lineWidth = 3;
      ctx.beginPath();
      ctx.arc(x, y, 7, 0, TAU);
      ctx.fill();
      ctx.stroke();
      ctx.strokeStyle = theme.fg;
      ctx.lineWidth = 2;
      ctx.beginPath();
      ctx.moveTo(x - 4, y - 4);
      ctx.lineTo(x + 4, y + 4);
      ctx.moveTo(x + 4, y - 4);
      ctx.lineTo(x - 4, y + 4);
      ctx.stroke();
    }
  }

  // Where a pointer is: {fraction, zone: "band" | "keys" | null}.
  locate(clientX, clientY) {
    const g = this.geometry();
    const box = this.canvas.getBoundingClientRect();
    const x = clientX - box.left - g.cx, y = clientY - box.top - g.cy;
    const dist = Math.hypot(x, y);
    let fraction = (Math.atan2(y, x) + Math.PI / 2) / TAU;
    if (fraction < 0) fraction += 1;
    const zone =
      Math.abs(dist - g.r) <= g.band / 2 + 2 ? "band" : dist <= g.inner + 3 && dist >= g.inner - LANES * 5 - 6 ? "keys" : null;
    return { fraction, zone, px: 1 / (TAU * Math.max(dist, 1)) };
  }
}
