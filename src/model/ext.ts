import type { JsonObject } from './json.js';

/**
 * What a format holds that has no canonical slot, keyed by the format that produced it
 * (e.g. `{ 'openai-chat': { logit_bias: {...} } }`). An encoder restores only its own key, so
 * A -> canonical -> A is exact; any other origin's entry is a loss when encoding elsewhere.
 */
export type Ext = { [origin: string]: JsonObject };

export interface HasExt {
  ext?: Ext;
}
