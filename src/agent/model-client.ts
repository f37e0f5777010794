/**
 * How an Agent reaches a model: one call in canonical terms. The host gives agents a client bound to
 * the gateway's routes (gateway-client.ts), so the model name picks the provider and the configured
 * keys are used; tests give a scripted one.
 */
import { InterlinguaError } from '../model/errors.js';
import type { Request } from '../model/request.js';
import type { Response } from '../model/response.js';
import type { StreamError, StreamEvent } from '../model/stream-event.js';

export interface ModelCallOptions {
  signal?: AbortSignal;
}

export interface ModelClient {
  /** One model call: the whole answer. */
  complete(request: Request, options?: ModelCallOptions): Promise<Response>;
  /** One model call as canonical stream events (response-start ... response-end, or error). */
  stream(request: Request, options?: ModelCallOptions): AsyncIterable<StreamEvent>;
}

/** The model call failed: the upstream's error (status, type, message) as the gateway gave it. */
export class ModelCallError extends InterlinguaError {
  readonly status: number | undefined;
  readonly type: string | undefined;

  constructor(readonly error: StreamError) {
    super('model_call_failed', `model call failed${error.status === undefined ? '' : ` (${error.status})`}: ${error.message}`);
    this.name = 'ModelCallError';
    this.status = error.status;
    this.type = error.type;
  }
}
