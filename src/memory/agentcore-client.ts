/**
 * What `openMemory` takes for an agentcore:// store, typed without the AWS SDK: the SDK
 * (`@aws-sdk/client-bedrock-agentcore`) is an optional peer, loaded only when such a store opens, so
 * the published declarations of `interlingua/memory` must not import it (a project without it would
 * not type-check). The SDK's own types fit these shapes: a `BedrockAgentCoreClient` is an
 * `AgentCoreClient`, a `BedrockAgentCoreClientConfig` is an object.
 */

/** The one member of the SDK's `BedrockAgentCoreClient` the store calls. */
export interface AgentCoreClient {
  send(command: object): Promise<unknown>;
}

export interface AgentCoreClientOptions {
  /** A ready `BedrockAgentCoreClient`; the store does not close it. Then the URL may not set region or endpoint. */
  client?: AgentCoreClient;
  /**
   * A `BedrockAgentCoreClientConfig` for the client the store makes (credentials, retries ...);
   * it wins over the URL. Passed to the SDK as it is.
   */
  clientConfig?: object;
}
