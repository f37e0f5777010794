import type { ReasoningEffort } from '../../model/request.js';

/**
 * A thinking budget becomes the nearest effort: under 4k tokens low, under 16k medium, else high
 * (Anthropic's minimum budget is 1024; OpenAI's default effort is medium).
 */
export function effortForBudget(budget: number): ReasoningEffort {
  if (budget < 4096) return 'low';
  if (budget < 16384) return 'medium';
  return 'high';
}
