// `ringlab/sequence`: scripted sequences for a <hash-ring> (a list of states and changes
// played in order). See www/sequence.js and docs.html.

/** Attributes to set in one rebuild; `null` removes one, an array is joined with ", ". */
export type SequenceState = Record<string, string | number | string[] | null>;

/** One step: exactly one of these fields. */
export type SequenceStep =
  | { set: SequenceState }
  | { add: string | { name: string; weight?: number; zone?: string } }
  | { remove: string }
  | { follow: string }
  | { reset: true | null };

export interface PlayOptions {
  /** Milliseconds between steps (default 1200; 0 under reduced motion). */
  pause?: number;
  /** Stops before the next step when aborted. */
  signal?: AbortSignal;
  onStep?: (step: SequenceStep, index: number, result: unknown) => void;
}

/** The one action a step names; throws a TypeError for none or several. */
export function actionOf(step: SequenceStep): "set" | "add" | "remove" | "follow" | "reset";
/** Runs one step on the element; resolves to what it returned (a `change` detail, a walk, or null). */
export function run(element: HTMLElement, step: SequenceStep): Promise<unknown>;
/** Plays the steps in order; resolves to each step's result. */
export function play(element: HTMLElement, steps: SequenceStep[], options?: PlayOptions): Promise<unknown[]>;
