// Draws a ring on a canvas from the engine's data. No hashing here: positions and owners
// come from the Rust engine as typed arrays of fractions (0 = top, clockwise) and indices.

// Okabe–Ito then Paul Tol's "muted": distinguishable with common colour-vision deficiencies.
export const PALETTE = [
  "#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#999999",
  "#332288", "#88CCEE", "#44AA99", "#117733", "#DDCC77", "#CC6677", "#AA4499", "#882255",
];

export function colourOf(index) {
  return PALETTE[index % PALETTE.length];
}

// Sizes the canvas backing store to its CSS size × devicePixelRatio, so lines stay crisp.
function fit(canvas) {
  const dpr = window.devicePixelRatio || 1;
  const css = canvas.getBoundingClientRect();
  const w = Math.max(1, Math.round(css.width * dpr));
  const h = Math.max(1, Math.round(css.height * dpr));
  if (canvas.width !== w || canvas.height !== h) {
    canvas.width = w;
    canvas.height = h;
  }
  const ctx = canvas.getContext("2d");
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  return { ctx, width: css.width, height: css.height };
}

const TAU = Math.PI * 2;
const angle = (fraction) => fraction * TAU - Math.PI / 2; // 0 at the top, clockwise

// view = { points: Float64Array, owners: Uint32Array, keys: Float64Array, keyOwners: Uint32Array,
//          moved: [{start, end}] as fractions, bits: 32 | 64, theme: {bg, fg, muted, moved} }
export function drawRing(canvas, view) {
  const { ctx, width, height } = fit(canvas);
  const cx = width / 2, cy = height / 2;
  // Room outside the band for the moved-arc marks and the scale labels.
  const r = Math.min(width, height) / 2 - 44;
  const band = Math.max(10, r * 0.08);
  ctx.clearRect(0, 0, width, height);

  const n = view.points.length;
  // Arcs: point i owns (point i-1, point i]; point 0 also owns the wrap-around.
  ctx.lineWidth = band;
  ctx.lineCap = "butt";
  for (let i = 0; i < n; i++) {
    const from = i === 0 ? view.points[n - 1] - 1 : view.points[i - 1];
    const to = view.points[i];
    if (to <= from) continue;
    ctx.strokeStyle = colourOf(view.owners[i]);
    ctx.beginPath();
    ctx.arc(cx, cy, r, angle(from), angle(to));
    ctx.stroke();
  }

  // Moved arcs: an outer band in the foreground colour.
  if (view.moved.length) {
    ctx.strokeStyle = view.theme.moved;
    ctx.lineWidth = 5;
    for (const arc of view.moved) {
      ctx.beginPath();
      ctx.arc(cx, cy, r + band / 2 + 5, angle(arc.start), angle(Math.max(arc.end, arc.start + 0.0008)));
      ctx.stroke();
    }
  }

  // Ticks: one per virtual node, across the band.
  ctx.strokeStyle = view.theme.bg;
  ctx.lineWidth = n > 2000 ? 0.5 : 1;
  ctx.beginPath();
  for (let i = 0; i < n; i++) {
    const a = angle(view.points[i]);
    ctx.moveTo(cx + Math.cos(a) * (r - band / 2), cy + Math.sin(a) * (r - band / 2));
    ctx.lineTo(cx + Math.cos(a) * (r + band / 2), cy + Math.sin(a) * (r + band / 2));
  }
  ctx.stroke();

  // Keys: dots just inside the band, jittered inward by index so they do not stack.
  const inner = r - band / 2 - 8;
  const dot = view.keys.length > 5000 ? 1.2 : 2;
  for (let k = 0; k < view.keys.length; k++) {
    const a = angle(view.keys[k]);
    const rr = inner - (k % 7) * 5;
    ctx.fillStyle = colourOf(view.keyOwners[k]);
    ctx.fillRect(cx + Math.cos(a) * rr - dot, cy + Math.sin(a) * rr - dot, dot * 2, dot * 2);
  }

  // Scale: 0 at the top, quarter marks.
  ctx.fillStyle = view.theme.muted;
  ctx.font = "12px system-ui, sans-serif";
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  const labels = view.bits === 64 ? ["0", "2⁶²", "2⁶³", "3·2⁶²"] : ["0", "2³⁰", "2³¹", "3·2³⁰"];
  labels.forEach((label, q) => {
    const a = angle(q / 4);
    ctx.fillText(label, cx + Math.cos(a) * (r + band / 2 + 24), cy + Math.sin(a) * (r + band / 2 + 24));
  });
}
