/**
 * @module interlingua
 * Translate LLM agent requests and responses between wire formats through one canonical model.
 */
export { convert, decode, encode, type ConvertOptions, type ConvertResult } from './formats/convert.js';
export { formats, type FormatInfo } from './formats/registry.js';
export { DEFAULT_LIMITS, type Limits, type Codec, type ErrorCodec, type HeaderLookup, type HttpErrorBody } from './formats/codec.js';
export { decodeError, encodeError } from './formats/errors.js';
export { STASH_KEY } from './formats/shared/stash.js';
export { deriveQuestion, toAgentInputErrorBody, type AgentInputErrorBody, type QuestionOptions } from './formats/agent-input/index.js';
export * from './model/index.js';
export { transcode, transcodeEvents, Transcoder, accumulateStream, responseToStream, type StreamOptions, type ByteStreamOptions, type AccumulatedBody } from './stream/transcode.js';
export { accumulate, Accumulator, type Accumulated } from './stream/accumulate.js';
export { responseToEvents } from './stream/from-response.js';
export { verifyStream, StreamVerifier } from './stream/verify.js';
export { parseSse, formatSse, SseParser } from './stream/sse.js';
export { parseEventStream, EventStreamParser, wireEventToMessage } from './stream/event-stream.js';
export { frameReader, frameWriter, type FrameReader } from './stream/framing.js';
export { detect, describeDetection, codecKind, readCapture, type Candidate, type Detection, type DetectedKind, type Capture, type Layout } from './detect/index.js';
export { streamDecoder, streamEncoder, type StreamCodecOptions, type StreamDecoder, type StreamEncoder } from './stream/codecs.js';
