// embed.html?nodes=…&vnodes=…&view=…: each query parameter named like an attribute of
// <hash-ring> becomes that attribute. All are set in one task, so the element builds once.
import "./hash-ring.js";

const ring = document.getElementById("ring");
const params = new URLSearchParams(location.search);
for (const name of ["nodes", "vnodes", "hash", "algorithm", "keys", "replicas", "bits", "view", "theme"]) {
  const value = params.get(name);
  if (value !== null) ring.setAttribute(name, value);
}
