/**
 * Bedrock Runtime's error (AWS restJson1): the error's name in the `x-amzn-ErrorType` header
 * (`Name:namespace-uri`), `{"message": ...}` as the body. The AWS SDK takes the name from that
 * header first, then the body's `code` / `__type`, and raises the modeled exception of that name
 * (or a ServiceException carrying it) with `$metadata.httpStatusCode`.
 */
import { isJsonObject } from '../../model/json.js';
import type { ErrorCodec } from '../codec.js';
import { headerValue, JSON_HEADERS, nativeType, streamError } from '../shared/http-errors.js';

// Bedrock Runtime's modeled errors by status; 401 is what AWS answers an unknown credential with.
const NAME_BY_STATUS: Readonly<Record<string, string>> = {
  '400': 'ValidationException',
  '401': 'UnrecognizedClientException',
  '403': 'AccessDeniedException',
  '404': 'ResourceNotFoundException',
  '408': 'ModelTimeoutException',
  '413': 'ValidationException',
  '424': 'ModelErrorException',
  '429': 'ThrottlingException',
  '500': 'InternalServerException',
  '503': 'ServiceUnavailableException',
  '4xx': 'ValidationException',
  '5xx': 'InternalServerException',
};

const NAMES = new Set([...Object.values(NAME_BY_STATUS), 'ServiceQuotaExceededException', 'ModelNotReadyException', 'ModelStreamErrorException', 'ConflictException']);

/** `Name:http://...` or `ns#Name` to `Name`, as the SDK reads it. */
function errorName(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const name = raw.split(',')[0]?.split(':')[0]?.split('#').pop()?.trim();
  return name === undefined || name === '' ? undefined : name;
}

export const bedrockErrors: ErrorCodec = {
  decode(body, status, headers) {
    if (!isJsonObject(body)) return undefined;
    const message = typeof body['message'] === 'string' ? body['message'] : typeof body['Message'] === 'string' ? body['Message'] : undefined;
    const header = errorName(headerValue(headers, 'x-amzn-errortype'));
    const named = header ?? errorName(typeof body['code'] === 'string' ? body['code'] : typeof body['__type'] === 'string' ? body['__type'] : undefined);
    // A body with neither a message nor an error name is not an error of this API.
    if (message === undefined && named === undefined) return undefined;
    return streamError(message ?? named ?? '', { type: named, status, raw: body });
  },
  encode(error) {
    const name = nativeType(NAMES, NAME_BY_STATUS, error, 'InternalServerException');
    return {
      status: error.status,
      headers: { ...JSON_HEADERS, 'x-amzn-errortype': `${name}:http://internal.amazon.com/coral/com.amazon.bedrock/` },
      body: { message: error.message },
    };
  },
};
