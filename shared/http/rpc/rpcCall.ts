/**
 * Bugzilla's two older WebService protocols, XML-RPC (`/xmlrpc.cgi`) and JSON-RPC
 * (`/jsonrpc.cgi`), over the same handlers as the REST API: a call is decoded from its wire
 * format into an RpcCall, dispatched to the REST route that serves that method (rpcMethods.ts),
 * and the route's JSON answer is encoded back, or its error as a fault.
 *
 * Values are plain JSON once decoded: an XML-RPC `dateTime.iso8601` becomes the REST API's time
 * text (`2025-03-04T05:06:07Z`), `base64` its base64 text (what REST's attachment `data` holds),
 * `nil` null. Encoding back to XML-RPC gives times, doubles and base64 their XML-RPC types by
 * member name (xmlRpcTypes.ts), as Bugzilla sends them.
 */
export interface RpcCall {
  /** `Bug.get`, `User.login`, ... */
  method: string;
  /** The call's one struct of named parameters, credentials (`Bugzilla_api_key`, ...) included. */
  params: Record<string, unknown>;
}

/** A Bugzilla error as a protocol error: an XML-RPC fault, a JSON-RPC `error` object. */
export class RpcFault extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'RpcFault';
  }
}
