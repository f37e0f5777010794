export const HELP = `interlingua — translate LLM agent requests and responses between wire formats

Usage:
  interlingua convert --from <format> --to <format> [--kind request|response]
                      [--preserve] [--strict] [--max-text-bytes N] [--compact] [FILE]
  interlingua convert --kind stream --from <format> --to <format> [--accumulate] [FILE]
  interlingua formats
  interlingua --help | --version

convert  Reads FILE (or standard input), writes the converted JSON to standard output and
         each loss as one line on standard error. --from X --to X is a validated round trip.
         --preserve  embed what the target cannot hold (x-interlingua) so converting back is exact
         --strict    fail (exit 3) instead of writing a lossy result
         --kind stream reads a stream capture (SSE text, Bedrock event-stream bytes, or JSON
         lines of events) and writes the target dialect's stream as events arrive;
         --accumulate writes the target's final (non-streaming) response instead.
formats  Lists the format ids and the kinds each supports.

Exit codes: 0 converted; 1 bad usage; 2 invalid input (one 'error: <path>: <message>' line per
problem); 3 --strict and the conversion would lose something.
`;
