export const HELP = `interlingua — translate LLM agent requests and responses between wire formats

Usage:
  interlingua convert --from <format> --to <format> [--kind request|response]
                      [--preserve] [--strict] [--max-text-bytes N] [--compact] [FILE]
  interlingua convert --kind stream --from <format> --to <format> [--accumulate] [FILE]
  interlingua formats
  interlingua memory sessions --store <url> [--actor A]
  interlingua memory show     --store <url> --actor A --session S [--to <format>] [--turns K] [--strict]
  interlingua memory export   --store <url> --actor A --session S [--out FILE]
  interlingua memory import   --store <url> [--actor A] [--session S] [FILE|-]
  interlingua memory delete   --store <url> --actor A --session S
  interlingua serve --config FILE [--port N] [--host H]
  interlingua --help | --version

convert  Reads FILE (or standard input), writes the converted JSON to standard output and
         each loss as one line on standard error. --from X --to X is a validated round trip.
         --preserve  embed what the target cannot hold (x-interlingua) so converting back is exact
         --strict    fail (exit 3) instead of writing a lossy result
         --kind stream reads a stream capture (SSE text, Bedrock event-stream bytes, or JSON
         lines of events) and writes the target dialect's stream as events arrive;
         --accumulate writes the target's final (non-streaming) response instead.
formats  Lists the format ids and the kinds each supports.
memory   A conversation memory store (AgentCore Memory events), named by --store:
         sqlite:./memory.db, postgres://user@host:5432/db[?schema=name], redis://host:6379/0.
         sessions  the actor's sessions [{actorId, sessionId, createdAt}]; without --actor the
                   store's actors [{actorId}]
         show      the session's messages as a JSON array in --to's message shape (openai-chat,
                   anthropic-messages, gemini, bedrock-converse, openai-responses, ag-ui), every
                   turn or the last K (--turns); losses on standard error; without --to the
                   events as stored
         export    the session as {actorId, sessionId, events} (standard output or --out FILE)
         import    an export into an empty session (--actor / --session import it under another
                   name); prints {actorId, sessionId, imported}
         delete    removes the session; prints {actorId, sessionId, deleted} (0: nothing there)
         show and export of a session that holds no events exit 1.

serve    Runs the gateway (see the README): OpenAI, Anthropic, Gemini and Bedrock SDKs point
         their base URL at it; each model is routed to a configured provider. Prints
         'listening on http://HOST:PORT' once it accepts requests; SIGTERM drains and exits 0.
         An invalid configuration exits 1 naming the path and the problem.

Exit codes: 0 done; 1 bad usage; 2 invalid input (one 'error: <path>: <message>' line per
problem); 3 --strict and the conversion would lose something.
`;
