// `webpack --mode production` in webpack/: its default entry (./src/index.js → dist/main.js).
import "../../app.js";
