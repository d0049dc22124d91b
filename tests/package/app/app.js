// The app Vite and webpack build (vite/, webpack/), with no configuration for the package:
// the engine, the chart drawing and the <hash-ring> element, imported by the package's names.
// Each finds its wasm through `new URL("…_bg.wasm", import.meta.url)`. The test drives it
// through `window.ringlabApp`.
import init, { Ring, Session } from "ringlab";
import initCharts, { drawChart } from "ringlab/charts";
import "ringlab/hash-ring";

// Canvas pixels that are not transparent.
function painted(canvas) {
  const { data } = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height);
  let n = 0;
  for (let i = 3; i < data.length; i += 4) if (data[i] > 0) n++;
  return n;
}

window.ringlabApp = {
  async owners(servers, keys) {
    await init();
    const ring = new Ring({ algorithm: "libketama", nodes: servers });
    const owners = keys.map((k) => ring.locate(k));
    ring.free();
    return owners;
  },
  async chart() {
    await init();
    await initCharts();
    const canvas = document.createElement("canvas");
    canvas.width = 600;
    canvas.height = 400;
    document.body.append(canvas);
    const session = new Session();
    const { csv } = drawChart(canvas, session.chartData("shares"), { dpr: 1 });
    session.free();
    return { header: csv.split("\n")[0], painted: painted(canvas), total: canvas.width * canvas.height };
  },
};
