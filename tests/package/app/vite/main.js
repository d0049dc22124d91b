// `vite build` in this folder: index.html's entry.
import "../app.js";
