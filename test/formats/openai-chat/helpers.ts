import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openaiChat } from '../../../src/formats/openai-chat/index.js';
import { LOCAL_FIXTURES } from '../../support/captures.js';
import { codecCalls } from '../../support/codec-helpers.js';

export const FIXTURES = join(LOCAL_FIXTURES, 'openai-chat');
export const fixture = (name: string): unknown => JSON.parse(readFileSync(join(FIXTURES, name), 'utf8'));

export const { decodeRequest, encodeRequest, decodeResponse, encodeResponse } = codecCalls(openaiChat);
export { codes, issuesOf } from '../../support/codec-helpers.js';
