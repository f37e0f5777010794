/** Why generation ended, normalized, with the provider's own value kept beside it. */
export type UnifiedStopReason =
  | 'stop'
  | 'length'
  | 'tool-calls'
  | 'stop-sequence'
  | 'content-filter'
  | 'refusal'
  | 'pause'
  | 'error'
  | 'other';

export interface StopReason {
  unified: UnifiedStopReason;
  /** The provider's own value, e.g. 'end_turn' or 'tool_calls'. */
  raw?: string;
  /** The stop sequence that matched, when the provider says which. */
  sequence?: string;
}
