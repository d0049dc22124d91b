// `ringlab/hash-ring`: importing it defines the <hash-ring> element (a side effect); it
// exports nothing. Attributes: nodes ("a, b*2, c@eu"), vnodes, hash, algorithm, keys, replicas,
// bits, zipf (key popularity), down, view, theme (see docs.html).
export {};

declare global {
  interface HTMLElementTagNameMap {
    "hash-ring": HTMLElement;
  }
}
