import type { TrackerError } from '../../trackerError.ts';
import { RpcFault } from './rpcCall.ts';

/**
 * The faults of a call that cannot be read. Bugzilla's WebService/Constants.pm takes the negative
 * codes from the xmlrpc-epi fault code convention (http://xmlrpc-epi.sourceforge.net/specs/rfc.fault_codes.php):
 * -32600 is its `xmlrpc_invalid_value` (a value its type does not allow), and the convention's
 * -32700 is XML that is not well-formed, -32701 an encoding the server does not read. A body over
 * the limits JSON bodies have (shared/domain/inputLimits.ts) gets the JSON path's error, code and
 * message, as a fault.
 */
const NOT_WELL_FORMED = -32700;
const UNSUPPORTED_ENCODING = -32701;
const INVALID_XML_RPC = -32600;

export const notWellFormed = (why: string) =>
  new RpcFault(NOT_WELL_FORMED, `The XML-RPC request is not well-formed XML: ${why}`);

export const unsupportedEncoding = (encoding: string) =>
  new RpcFault(
    UNSUPPORTED_ENCODING,
    `The XML-RPC request declares the encoding '${shown(encoding)}'; Tracker reads requests in UTF-8.`,
  );

export const invalidXmlRpc = (why: string) => new RpcFault(INVALID_XML_RPC, `The XML-RPC request is invalid: ${why}`);

/** Bugzilla's xmlrpc_invalid_value, worded as its user-error template words it. */
export const invalidValue = (type: string, value: string) =>
  new RpcFault(
    INVALID_XML_RPC,
    `"${shown(value)}" is not a valid value for a <${type}> field. (See the XML-RPC specification for details.)`,
  );

export const faultOf = (error: TrackerError) => new RpcFault(error.code, error.message);

/** A value quoted in a message: a request can hold megabytes, the message keeps the first few dozen characters. */
export function shown(text: string): string {
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

/** An element of the request named in a message: its name is the caller's text, as long as they made it. */
export const tag = (name: string) => `<${shown(name)}>`;

/**
 * The parser's own account of what is not well-formed quotes names and text from the request
 * whole; a fault is no place for megabytes of it.
 */
export const parserSays = (message: string) => (message.length > 200 ? `${message.slice(0, 200)}…` : message);
