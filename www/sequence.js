// A scripted sequence for a <hash-ring>: a list of states and changes played in order, for a
// post that tells a story ("four nodes; a fifth joins; node-2 leaves").
//
//   import { play } from "./sequence.js";
//   await play(document.querySelector("hash-ring"), [
//     { set: { nodes: "a, b, c, d", vnodes: 64 } }, // a state: attributes, one rebuild
//     { add: "e" },                                  // a change, animated by the element
//     { follow: "user:7" },                          // a key's walk to its owner
//     { remove: "b" },
//   ], { pause: 1500, signal, onStep: (step, i, result) => … });
//
// Each step is one of `set` (attributes: a value of null removes one), `add` (a name, or
// `{ name, weight, zone }`), `remove`, `follow` or `reset`. Between steps it waits `pause` ms,
// or not at all under reduced motion (the element then shows each end state at once). It
// stops at the next step when `signal` aborts, and resolves to what each step returned: the
// element's `change` detail, a followed key's walk, or null. The numbers are the element's
// engine's: this module only sequences.
import { reducedMotion } from "./host.js";

const ACTIONS = ["set", "add", "remove", "follow", "reset"];

// The one action a step names (an error for none or several: a typo should not pass silently).
export function actionOf(step) {
  const named = ACTIONS.filter((a) => step && Object.hasOwn(step, a));
  if (named.length !== 1) throw new TypeError(`a step names one of ${ACTIONS.join(", ")} (got ${JSON.stringify(step)})`);
  return named[0];
}

// Sets attributes in one task (one rebuild) and waits for the element's next `ready`.
function setState(element, attributes) {
  return new Promise((resolve) => {
    const done = () => {
      element.removeEventListener("ready", done);
      element.removeEventListener("error", done);
      resolve(null);
    };
    element.addEventListener("ready", done);
    element.addEventListener("error", done);
    let changed = false;
    for (const [name, value] of Object.entries(attributes)) {
      const text = value === null || value === undefined ? null : Array.isArray(value) ? value.join(", ") : String(value);
      if (element.getAttribute(name) === text) continue;
      changed = true;
      if (text === null) element.removeAttribute(name);
      else element.setAttribute(name, text);
    }
    if (!changed) done();
  });
}

// Runs one step on the element; resolves to what it returned.
export async function run(element, step) {
  const action = actionOf(step);
  const arg = step[action];
  if (action === "set") return setState(element, arg);
  if (action === "add") return typeof arg === "object" && arg !== null ? element.add(arg.name, arg) : element.add(arg);
  if (action === "remove") return element.remove(String(arg));
  if (action === "follow") return element.follow(String(arg));
  return element.reset();
}

const wait = (ms, signal) =>
  new Promise((resolve) => {
    if (ms <= 0 || signal?.aborted) return resolve();
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
  });

// Plays `steps` on `element` in order; see the top of this file.
export async function play(element, steps, { pause = 1200, signal, onStep } = {}) {
  steps.forEach(actionOf); // refuse a bad list before changing anything
  const results = [];
  for (const [i, step] of steps.entries()) {
    if (signal?.aborted) break;
    if (i > 0) await wait(reducedMotion() ? 0 : pause, signal);
    if (signal?.aborted) break;
    const result = await run(element, step);
    results.push(result);
    onStep?.(step, i, result);
  }
  return results;
}
