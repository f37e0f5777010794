import type { Loss } from '../../model/loss.js';
import type { LossSink } from '../codec.js';

/** The plain loss sink: an array. */
export class LossList implements LossSink {
  readonly items: Loss[] = [];
  push(loss: Loss): void {
    this.items.push(loss);
  }
  get length(): number {
    return this.items.length;
  }
  /** Empties the list, for a caller that reuses one list per item of a loop (the losses themselves stay wherever they were passed on). */
  clear(): void {
    if (this.items.length > 0) this.items.length = 0;
  }
}
