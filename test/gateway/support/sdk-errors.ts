/** An SDK's failure read into one shape, checking it is that SDK's own error class. */
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { ApiError } from '@google/genai';
import { BedrockRuntimeServiceException } from '@aws-sdk/client-bedrock-runtime';
import type { Dialect } from './replay-upstream.js';

export interface SdkFailure {
  status: number | undefined;
  message: string;
  /** The error class's name (AWS: the exception name). */
  name: string;
  headers: Headers | undefined;
}

export async function failureOf(client: Dialect, run: () => Promise<unknown>): Promise<SdkFailure> {
  let err: unknown;
  try {
    await run();
  } catch (e) {
    err = e;
  }
  if (err === undefined) throw new Error('the call succeeded; an error was expected');
  switch (client) {
    case 'openai-chat':
    case 'openai-responses': {
      if (!(err instanceof OpenAI.APIError)) throw new Error(`not an OpenAI APIError: ${String(err)} ${JSON.stringify(err)}`);
      return { status: err.status, message: err.message, name: err.constructor.name, headers: err.headers };
    }
    case 'anthropic-messages': {
      if (!(err instanceof Anthropic.APIError)) throw new Error(`not an Anthropic APIError: ${String(err)}`);
      return { status: err.status, message: err.message, name: err.constructor.name, headers: err.headers };
    }
    case 'gemini': {
      if (!(err instanceof ApiError)) throw new Error(`not a Gen AI ApiError: ${String(err)}`);
      return { status: err.status, message: err.message, name: 'ApiError', headers: undefined };
    }
    case 'bedrock-converse': {
      if (!(err instanceof BedrockRuntimeServiceException)) throw new Error(`not a Bedrock ServiceException: ${String(err)}`);
      const h = (err.$response as { headers?: Record<string, string> } | undefined)?.headers;
      const plain = h === undefined ? undefined : new Headers(Object.entries(h).filter(([k]) => !k.startsWith(':')));
      return { status: err.$metadata?.httpStatusCode, message: err.message, name: err.name, headers: plain };
    }
  }
}
